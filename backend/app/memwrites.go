package app

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"

	"hearth/backend/event"
	"hearth/backend/tools"
)

// agentWrites tells the memory service when the model's own file tools write a
// memory or persona file, so that the history names the agent and the chat as
// the author instead of "outside Hearth" (the tools write around the memory
// service; its watcher would otherwise only see a change).
type agentWrites struct {
	a       *App
	mu      sync.Mutex
	pending map[string]func(ok bool) // call ID → the memory service's done
}

// observe follows the run events: a write_file or edit_file call is announced
// before it runs and finished by its result.
func (w *agentWrites) observe(ev event.Event) {
	switch d := ev.Data.(type) {
	case event.ToolCallData:
		if d.Name != "write_file" && d.Name != "edit_file" {
			return
		}
		var args struct {
			Path string `json:"path"`
		}
		if json.Unmarshal(d.Args, &args) != nil || args.Path == "" {
			return
		}
		rel, ok := w.workspaceFile(args.Path)
		if !ok {
			return
		}
		done := w.a.Memory.AgentEditing(rel, d.Name, ev.SessionID, ev.RunID)
		w.mu.Lock()
		if w.pending == nil {
			w.pending = map[string]func(bool){}
		}
		w.pending[ev.RunID+"/"+d.CallID] = done
		w.mu.Unlock()
	case event.ToolResultData:
		w.mu.Lock()
		done := w.pending[ev.RunID+"/"+d.CallID]
		delete(w.pending, ev.RunID+"/"+d.CallID)
		w.mu.Unlock()
		if done != nil {
			done(d.OK)
		}
	case event.FinishedData:
		// A call cut off before its result (a cancelled run) writes nothing more.
		w.mu.Lock()
		var left []func(bool)
		for k, done := range w.pending {
			if strings.HasPrefix(k, ev.RunID+"/") {
				left = append(left, done)
				delete(w.pending, k)
			}
		}
		w.mu.Unlock()
		for _, done := range left {
			done(false)
		}
	}
}

// workspaceFile is path as the file tools resolve it, relative to the workspace
// and slash-separated; ok is false outside it.
func (w *agentWrites) workspaceFile(path string) (string, bool) {
	ws := w.a.Settings.Paths().Workspace
	abs, err := (&tools.Policy{Workspace: ws}).Resolve(path)
	if err != nil {
		return "", false
	}
	root, err := filepath.EvalSymlinks(ws)
	if err != nil {
		root = ws
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
