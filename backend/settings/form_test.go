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
