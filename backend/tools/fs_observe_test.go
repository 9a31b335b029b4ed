package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// writeLog records what a WriteObserver was told.
type writeLog struct {
	mu   sync.Mutex
	told []string // "tool file run ok"
}

func (w *writeLog) Writing(ctx context.Context, tool, file string) func(bool) {
	call, _ := CallFrom(ctx)
	return func(ok bool) {
		w.mu.Lock()
		defer w.mu.Unlock()
		state := "failed"
		if ok {
			state = "ok"
		}
		w.told = append(w.told, tool+" "+file+" "+call.RunID+" "+state)
	}
}

// The file tools tell the observer of every write inside the workspace, by its
// workspace-relative name with links resolved, and whether it succeeded; writes
// outside the workspace, and those the policy refuses, are not told.
func TestFileToolsTellTheWriteObserver(t *testing.T) {
	s := newSandbox(t)
	s.policy.AllowedPaths = []string{s.outside}
	if err := os.MkdirAll(filepath.Join(s.ws, "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Attacker's links: one inside the workspace to a memory file, one to a
	// folder outside it (allowed, but no memory file of this workspace).
	if err := os.Symlink(filepath.Join(s.ws, "memory", "MEMORY.md"), filepath.Join(s.ws, "notes.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(s.outside, filepath.Join(s.ws, "out")); err != nil {
		t.Fatal(err)
	}
	log := &writeLog{}
	r := NewRegistry(RegistryOptions{})
	if err := r.Register(Builtins(Options{Policy: *s.policy, Writes: log})...); err != nil {
		t.Fatal(err)
	}
	ctx := WithCall(context.Background(), CallInfo{SessionID: "c1", RunID: "r1"})
	call := func(name string, args map[string]any) Result {
		raw, _ := json.Marshal(args)
		return r.Call(ctx, name, raw)
	}
	wantOK(t, call("write_file", map[string]any{"path": "memory/MEMORY.md", "content": "# Memory\n"}))
	wantOK(t, call("edit_file", map[string]any{"path": filepath.Join(s.ws, "memory", "MEMORY.md"), "old_text": "# Memory", "new_text": "# Mem"}))
	wantOK(t, call("write_file", map[string]any{"path": "notes.md", "content": "via a link\n"}))
	wantOK(t, call("write_file", map[string]any{"path": "out/MEMORY.md", "content": "outside\n"}))
	wantOK(t, call("write_file", map[string]any{"path": filepath.Join(s.outside, "x.md"), "content": "outside\n"}))
	wantErr(t, call("write_file", map[string]any{"path": filepath.Join(s.home, ".ssh", "id_rsa"), "content": "x"}))
	wantErr(t, call("edit_file", map[string]any{"path": "memory/MEMORY.md", "old_text": "absent", "new_text": "x"}))
	// A write that fails once started (a folder where the file goes) is told as failed.
	if err := os.MkdirAll(filepath.Join(s.ws, "dir.md", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	wantErr(t, call("write_file", map[string]any{"path": "dir.md", "content": "x"}))
	want := []string{
		"write_file memory/MEMORY.md r1 ok",
		"edit_file memory/MEMORY.md r1 ok",
		"write_file memory/MEMORY.md r1 ok",
		"write_file dir.md r1 failed",
	}
	if !slices.Equal(log.told, want) {
		t.Errorf("told %q\nwant %q", log.told, want)
	}
}
