package app

import (
	"os"
	"path/filepath"
	"testing"
)

// The window registers OnMemoryChange once at startup; a settings change
// rebuilds the memory parts (here: a new workspace), and hand edits there
// must still be reported.
func TestOnMemoryChangeSurvivesSettingsChange(t *testing.T) {
	svc, _ := chatService(t, `{"agents":{"defaults":{"embeddingModel":""}}}`)
	if err := svc.Start(t.Context(), StartOptions{WatchMemory: true}); err != nil { // the window's
		t.Fatal(err)
	}
	ch := &changes{}
	onMemoryChange(t, svc, ch.add)

	in := svc.Settings.Settings()
	in.Workspace = filepath.Join(t.TempDir(), "ws2")
	res, err := svc.SaveSettings(in)
	if err != nil || !res.Saved {
		t.Fatalf("save settings: %+v %v", res, err)
	}
	if _, err := svc.Memory.Store().List(); err != nil { // rebuilds the parts
		t.Fatal(err)
	}
	ws := svc.Settings.Paths().Workspace
	if ws != in.Workspace {
		t.Fatalf("workspace %s, want %s", ws, in.Workspace)
	}
	if err := os.WriteFile(filepath.Join(ws, "memory", "MEMORY.md"), []byte("- edited by hand\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ch.waitFor(t, "memory/MEMORY.md")

	// A listener added after the parts exist is reported too, once.
	late := &changes{}
	onMemoryChange(t, svc, late.add)
	f, err := svc.Memory.Store().Read("memory/MEMORY.md")
	if err != nil {
		t.Fatal(err)
	}
	if r, err := svc.Memory.Store().Save("memory/MEMORY.md", f.Content+"- more\n", f.Hash); err != nil || !r.Saved {
		t.Fatalf("save: %+v %v", r, err)
	}
	late.waitFor(t, "memory/MEMORY.md")
	late.mu.Lock()
	defer late.mu.Unlock()
	if len(late.names) != 1 {
		t.Errorf("late listener got %v, want one report of its own save", late.names)
	}
}
