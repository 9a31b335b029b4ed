package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hearth/backend/memory"
)

// "Review memory changes" and Dream's schedule and budgets live in config.json: an
// older workspace's .hearth/inbox/settings.json is moved there once, the Settings
// form and the inbox read and write the same keys, and Dream follows a change at once.
func TestMemorySettingsInConfig(t *testing.T) {
	setXDG(t)
	a := open(t, Options{})
	ws := a.Settings.Paths().Workspace
	legacy := filepath.Join(ws, ".hearth", "inbox", "settings.json")
	if err := os.MkdirAll(filepath.Dir(legacy), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(legacy, []byte(`{"enabled":true,"expireHours":48,"onExpiry":"apply"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := a.Start(t.Context(), StartOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(legacy); !os.IsNotExist(err) {
		t.Errorf("the old settings file is still there: %v", err)
	}
	want := memory.ReviewSettings{Enabled: true, ExpireHours: 48, OnExpiry: "apply"}
	if got := a.Memory.Inbox().Settings(); got != want {
		t.Errorf("inbox settings %+v", got)
	}
	b, err := os.ReadFile(a.Settings.Paths().ConfigFile)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Memory struct {
			Review memory.ReviewSettings `json:"review"`
		} `json:"memory"`
	}
	if err := json.Unmarshal(b, &file); err != nil || file.Memory.Review != want {
		t.Errorf("config.json: %+v %v\n%s", file.Memory.Review, err, b)
	}

	// The inbox's own switch writes config.json; a wrong value is refused.
	if err := a.Memory.Inbox().SetSettings(memory.ReviewSettings{Enabled: false, ExpireHours: 9000}); err == nil ||
		!strings.Contains(err.Error(), "memory.review.expireHours") {
		t.Errorf("out-of-range expiry: %v", err)
	}
	if err := a.Memory.Inbox().SetSettings(memory.ReviewSettings{}); err != nil {
		t.Fatal(err)
	}
	if a.Settings.Config().Memory.Review.Enabled {
		t.Error("turned off in the inbox, still on in the config")
	}

	// The Settings form carries Dream's budgets; Dream uses them from the next pass.
	in := a.Settings.Settings()
	in.Memory.Dream.EveryHours, in.Memory.Dream.MaxToolCalls = 2, 8
	if res, err := a.SaveSettings(in); err != nil || !res.Saved {
		t.Fatalf("save: %+v %v", res, err)
	}
	if st := a.Dream.Status(); st.Every != "2h0m0s" {
		t.Errorf("Dream every %s", st.Every)
	}
	in.Memory.Dream.MaxMinutes = 0
	if res, err := a.SaveSettings(in); err != nil || res.Saved || len(res.Problems) != 1 || res.Problems[0].Key != "memory.dream.maxMinutes" {
		t.Errorf("a zero budget saved: %+v %v", res, err)
	}
}
