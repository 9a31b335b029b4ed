//go:build !headless

package main

import (
	"context"
	"encoding/json"
	"errors"

	"hearth/backend/i18n"
	"hearth/backend/memory"
	"hearth/backend/recall"
)

// The memory sidebar's bindings. Changes of the memory and persona files — the
// agent's, a consolidation's, a hand edit's — arrive as the event "memory:changed"
// with the file's workspace-relative path (background.go forwards them).

const memoryChangedEvent = "memory:changed"

// ListMemoryFiles lists the memory and persona files and skills that exist.
func (a *MemoryAPI) ListMemoryFiles() ([]memory.FileInfo, error) { return a.h.Memory.Store().List() }

// ReadMemoryFile reads one file with the hash SaveMemoryFile needs.
func (a *MemoryAPI) ReadMemoryFile(name string) (memory.File, error) {
	return a.h.Memory.Store().Read(name)
}

// SaveMemoryFile writes content unless the file changed since expectedHash;
// then nothing is written and the result holds both versions.
func (a *MemoryAPI) SaveMemoryFile(name, content, expectedHash string) (memory.SaveResult, error) {
	return a.h.Memory.Store().Save(name, content, expectedHash)
}

// SearchMemory searches the recall index; the result says whether it was
// keyword-only and why.
func (a *MemoryAPI) SearchMemory(query string, k int) (recall.Results, error) {
	return a.h.Memory.Search(a.context(), query, k)
}

func (a *core) context() context.Context {
	if a.ctx == nil {
		return context.Background()
	}
	return a.ctx
}

// MemoryHistory lists the changes of a memory file ("" for all), newest first.
func (a *MemoryAPI) MemoryHistory(file string) ([]memory.Rev, error) {
	revs, err := a.h.Memory.History(file, 200)
	return []memory.Rev(revs), err
}

// MemoryDiff is the unified diff of the change rev, of one file when file is not "".
func (a *MemoryAPI) MemoryDiff(rev, file string) (string, error) { return a.h.Memory.Diff(rev, file) }

// RestoreMemory puts file ("" for all) back as it was right after the change rev; the
// message says what it did (the window words it in the UI language).
func (a *MemoryAPI) RestoreMemory(rev, file string) (i18n.Message, error) {
	return a.h.Memory.Restore(rev, file)
}

// RestorePreview is what RestoreMemory(rev, file) would change in file as it is now,
// as a unified diff ("" when nothing): History shows it before Restore's second click.
func (a *MemoryAPI) RestorePreview(rev, file string) (string, error) {
	return a.h.Memory.RestorePreview(rev, file)
}

// MemoryProposals lists the changes waiting in the memory inbox, oldest first.
func (a *MemoryAPI) MemoryProposals() ([]memory.Proposal, error) { return a.h.Memory.Inbox().List() }

// DecideMemoryHunk approves or rejects one hunk of a proposal; with edited set, text
// replaces the hunk's new lines before it is approved.
func (a *MemoryAPI) DecideMemoryHunk(id string, hunk int, action, text string, edited bool) (memory.Proposal, error) {
	var t *string
	if edited {
		t = &text
	}
	return a.h.Memory.Inbox().Decide(id, hunk, action, t)
}

// ReviewSettings are "Review memory changes": on/off, expiry and what expiry does.
func (a *MemoryAPI) ReviewSettings() memory.ReviewSettings { return a.h.Memory.Inbox().Settings() }

// SetReviewSettings saves "Review memory changes".
func (a *MemoryAPI) SetReviewSettings(rs memory.ReviewSettings) error {
	return a.h.Memory.Inbox().SetSettings(rs)
}

// userError is how a binding's error reaches the window: an error that says what went
// wrong as a catalog message (memory.Error) becomes {message, code, args}, which the
// window words in the UI language (errText); one that also lists its problems with their
// hints (mcp.Error: every server a pasted block got wrong) adds them as problems:
// [{text, hint}]. It goes as JSON text: Wails' runtime rejects a call with
// new Error(value), which would turn an object into "[object Object]". Any other error
// stays its English text.
func userError(err error) any {
	var c interface{ UserMessage() i18n.Message }
	if !errors.As(err, &c) {
		return err.Error()
	}
	m := c.UserMessage()
	out := map[string]any{"message": err.Error(), "code": m.Code, "args": m.Args}
	var ps interface{ UserProblems() []i18n.Problem }
	if errors.As(err, &ps) {
		out["problems"] = ps.UserProblems()
	}
	text, jerr := json.Marshal(out)
	if jerr != nil {
		return err.Error()
	}
	return string(text)
}
