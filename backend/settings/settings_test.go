package settings

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/adrg/xdg"

	"hearth/backend/config"
	"hearth/backend/event"
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

func TestUpdateSavesAndReportsOnlyWhatChanged(t *testing.T) {
	setXDG(t)
	var got []event.SettingsChanged
	s := Open(Options{Getenv: func(string) string { return "" }, Changed: func(c event.SettingsChanged) { got = append(got, c) }})
	before := s.Config()
	if err := s.Update(func(c *config.Config) error { c.Tools.Exec.Timeout = 7; return nil }); err != nil {
		t.Fatal(err)
	}
	if before.Tools.Exec.Timeout == 7 {
		t.Error("Update changed the snapshot an earlier Config returned")
	}
	if s.Config().Tools.Exec.Timeout != 7 || len(got) != 1 || !slices.Equal(got[0].Parts, []string{PartTools}) {
		t.Fatalf("after update: timeout %d, told %+v", s.Config().Tools.Exec.Timeout, got)
	}
	data, _ := os.ReadFile(s.Paths().ConfigFile)
	if cfg, _, err := config.Load(s.Paths().ConfigFile, nil); err != nil || cfg.Tools.Exec.Timeout != 7 {
		t.Errorf("not saved: %v\n%s", err, data)
	}
	in := s.Settings()
	in.Model = "ollama/llama3.2:1b"
	in.Workspace = filepath.Join(t.TempDir(), "ws")
	if res, err := s.SaveSettings(in, func() bool { return true }); err != nil || !res.Saved || res.Notice == "" {
		t.Fatalf("save: %+v %v", res, err)
	}
	if last := got[len(got)-1]; !last.Has(PartAgent) || !last.Has(PartWorkspace) || last.Has(PartTools) || last.Has(PartProviders) {
		t.Errorf("settings save told %+v", last)
	}
	n := len(got)
	if err := s.Update(func(*config.Config) error { return nil }); err != nil || len(got) != n {
		t.Errorf("an update that changed nothing was told: %v %+v", err, got[n:])
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
	s := Open(Options{Changed: func(event.SettingsChanged) { told = true }})
	err := s.Update(func(c *config.Config) error { c.UI.Theme = "dark"; return nil })
	if !config.IsBroken(err) || s.Config().UI.Theme == "dark" || told {
		t.Errorf("update over a broken file: err %v, theme %q, told %v", err, s.Config().UI.Theme, told)
	}
	if data, _ := os.ReadFile(path); string(data) != broken {
		t.Error("the broken file was rewritten")
	}
}
