package settings

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/adrg/xdg"

	"hearth/backend/config"
)

// setXDG points every XDG directory into the test's temporary folder.
func setXDG(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	t.Setenv("HOME", filepath.Join(root, "home"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(root, "data"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(root, "state"))
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "disabled:")
	xdg.Reload()
	t.Cleanup(xdg.Reload)
	return root
}

func TestUpdateSavesAndTellsOnce(t *testing.T) {
	setXDG(t)
	told := 0
	s := Open(Options{Getenv: func(string) string { return "" }})
	s.Follow(func() { told++ })
	before := s.Config()
	if err := s.Update(func(c *config.Config) error { c.Tools.Exec.Timeout = 7; return nil }); err != nil {
		t.Fatal(err)
	}
	if before.Tools.Exec.Timeout == 7 {
		t.Error("Update changed the snapshot an earlier Config returned")
	}
	if s.Config().Tools.Exec.Timeout != 7 || told != 1 {
		t.Fatalf("after update: timeout %d, told %d", s.Config().Tools.Exec.Timeout, told)
	}
	if cfg, _, err := config.Load(s.Paths().ConfigFile, nil); err != nil || cfg.Tools.Exec.Timeout != 7 {
		t.Errorf("not saved: %v", err)
	}
	in := s.Settings()
	in.Model = "ollama/llama3.2:1b"
	in.Workspace = filepath.Join(t.TempDir(), "ws")
	if res, err := s.SaveSettings(in, func() bool { return true }); err != nil || !res.Saved || res.Notice == "" {
		t.Fatalf("save: %+v %v", res, err)
	}
	if told != 2 || s.Paths().Workspace != in.Workspace {
		t.Errorf("settings save: told %d, workspace %s", told, s.Paths().Workspace)
	}
	if err := s.Update(func(*config.Config) error { return errors.New("no") }); err == nil || told != 2 {
		t.Errorf("a refused update was told: %v, told %d", err, told)
	}
}

func TestUpdateKeepsTheConfigWhenTheSaveFails(t *testing.T) {
	root := setXDG(t)
	path := filepath.Join(root, "config", "hearth", "config.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	broken := "{\"agents\": \n"
	if err := os.WriteFile(path, []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	told := false
	s := Open(Options{})
	s.Follow(func() { told = true })
	err := s.Update(func(c *config.Config) error { c.UI.Theme = "dark"; return nil })
	if !errors.Is(err, config.ErrBrokenFile) || s.Config().UI.Theme == "dark" || told {
		t.Errorf("update over a broken file: err %v, theme %q, told %v", err, s.Config().UI.Theme, told)
	}
	if data, _ := os.ReadFile(path); string(data) != broken {
		t.Error("the broken file was rewritten")
	}
}
