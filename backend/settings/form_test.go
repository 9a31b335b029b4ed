package settings

import (
	"path/filepath"
	"testing"

	"hearth/backend/config"
)

// The Memory section edits the memory window and the recall block; a bad window
// comes back as a problem on its own key and nothing is written.
func TestSaveSettingsMemoryFields(t *testing.T) {
	setXDG(t)
	s := Open(Options{Getenv: func(string) string { return "" }})
	in := s.Settings()
	if in.MemoryWindow != 100 || !in.RecallEnabled {
		t.Fatalf("defaults: window %d, recall %v", in.MemoryWindow, in.RecallEnabled)
	}
	in.MemoryWindow, in.RecallEnabled = 40, false
	if res, err := s.SaveSettings(in, nil); err != nil || !res.Saved {
		t.Fatalf("save: %+v %v", res, err)
	}
	cfg, _, err := config.Load(filepath.Clean(s.Paths().ConfigFile), nil)
	if err != nil || cfg.Agents.Defaults.MemoryWindow != 40 || cfg.Agents.Defaults.RecallBlock.Enabled {
		t.Fatalf("written: %+v %v", cfg.Agents.Defaults, err)
	}
	if got := s.Settings(); got.MemoryWindow != 40 || got.RecallEnabled {
		t.Errorf("read back: %+v", got)
	}

	in.MemoryWindow = 1
	res, err := s.SaveSettings(in, nil)
	if err != nil || res.Saved || len(res.Problems) != 1 || res.Problems[0].Key != "agents.defaults.memoryWindow" || res.Problems[0].Hint == "" {
		t.Fatalf("a window of 1: %+v %v", res, err)
	}
	if s.Config().Agents.Defaults.MemoryWindow != 40 {
		t.Errorf("a refused save changed the config: %d", s.Config().Agents.Defaults.MemoryWindow)
	}
}

// "auto" is resolved where the tray resolves it, from the locale variables, so the
// window does not follow a web view that fell back to English; when they name no
// language the window asks its web view.
func TestSettingsSaySystemLanguage(t *testing.T) {
	setXDG(t)
	for _, c := range []struct{ lang, want string }{{"zh_CN.UTF-8", "zh-CN"}, {"en_GB.UTF-8", "en"}, {"C.UTF-8", ""}, {"", ""}} {
		t.Setenv("LANGUAGE", "")
		t.Setenv("LC_ALL", "")
		t.Setenv("LC_MESSAGES", "")
		t.Setenv("LANG", c.lang)
		s := Open(Options{Getenv: func(string) string { return "" }})
		if got := s.Settings().SystemLanguage; got != c.want {
			t.Errorf("LANG=%s: systemLanguage %q, want %q", c.lang, got, c.want)
		}
	}
}

// The Models section edits a turn's time budget beside its tool rounds; a value out of
// range comes back on its own key, with the range in the hint, and nothing is written.
func TestSaveSettingsTurnMinutes(t *testing.T) {
	setXDG(t)
	s := Open(Options{Getenv: func(string) string { return "" }})
	in := s.Settings()
	if in.MaxTurnMinutes != 10 {
		t.Fatalf("default %d minutes", in.MaxTurnMinutes)
	}
	in.MaxTurnMinutes = 25
	if res, err := s.SaveSettings(in, nil); err != nil || !res.Saved {
		t.Fatalf("save: %+v %v", res, err)
	}
	if got := s.Config().Agents.Defaults.MaxTurnMinutes; got != 25 {
		t.Fatalf("written %d", got)
	}
	in.MaxTurnMinutes = 0
	res, err := s.SaveSettings(in, nil)
	if err != nil || res.Saved || len(res.Problems) != 1 || res.Problems[0].Key != "agents.defaults.maxTurnMinutes" || res.Problems[0].Hint == "" {
		t.Fatalf("0 minutes: %+v %v", res, err)
	}
	if s.Config().Agents.Defaults.MaxTurnMinutes != 25 {
		t.Error("a refused save changed the config")
	}
}

// The Memory section edits how long a chat idles before it is compacted in the
// background; 0 turns it off, a negative value is refused on its own key.
func TestSaveSettingsIdleCompact(t *testing.T) {
	setXDG(t)
	s := Open(Options{Getenv: func(string) string { return "" }})
	in := s.Settings()
	if in.IdleCompactMinutes != 10 {
		t.Fatalf("default %d minutes", in.IdleCompactMinutes)
	}
	in.IdleCompactMinutes = 0
	if res, err := s.SaveSettings(in, nil); err != nil || !res.Saved {
		t.Fatalf("save: %+v %v", res, err)
	}
	if got := s.Config().Agents.Defaults.IdleCompactMinutes; got != 0 {
		t.Fatalf("written %d", got)
	}
	in.IdleCompactMinutes = -1
	res, err := s.SaveSettings(in, nil)
	if err != nil || res.Saved || len(res.Problems) != 1 || res.Problems[0].Key != "agents.defaults.idleCompactMinutes" {
		t.Fatalf("-1 minutes: %+v %v", res, err)
	}
	if s.Config().Agents.Defaults.IdleCompactMinutes != 0 {
		t.Error("a refused save changed the config")
	}
}
