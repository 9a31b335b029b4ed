package app

import (
	"encoding/json"
	"log/slog"
	"time"

	"hearth/backend/activity"
	"hearth/backend/audit"
	"hearth/backend/dream"
	"hearth/backend/event"
)

// dreamOptions wire Dream to the memory files, the chats and the default model;
// each pass is written to the Activity log with what it used.
func (a *App) dreamOptions() dream.Options {
	return dream.Options{
		Store:         a.Memory.Store,
		Sessions:      a.Sessions.Store(),
		Resolve:       a.Models.Resolve,
		Model:         func() string { return a.Settings.Config().Agents.Defaults.Model },
		ContextTokens: a.Settings.Config().Agents.Defaults.ContextTokens,
		Done:          a.dreamDone,
		Running: func(running bool) {
			if running {
				a.Activity.Begin(activity.Work{Kind: activity.Dream, ID: activity.DreamID, Run: activity.DreamID, Started: time.Now()})
			} else {
				a.Activity.End(activity.DreamID)
			}
		},
	}
}

// dreamDone records a pass in the Activity log (tool "dream") and tells the window.
func (a *App) dreamDone(r dream.Report) {
	if r.Skipped == "" {
		args, _ := json.Marshal(map[string]any{"model": r.Model, "tokens": r.Tokens, "toolCalls": r.ToolCalls,
			"noOps": r.NoOps, "edits": r.Edits, "files": r.Files, "proposed": r.Proposed, "stopped": r.Stopped,
			"summary": r.Summary, "budget": map[string]any{"tokens": r.Budget.Tokens, "toolCalls": r.Budget.ToolCalls,
				"seconds": int(r.Budget.Time.Seconds())}})
		e := audit.Entry{Time: r.Started, SessionID: "dream", RunID: "dream-" + r.Started.UTC().Format("20060102T150405"),
			Tool: "dream", Args: args, Approval: "auto", OK: r.Err == "", DurationMs: r.Duration.Milliseconds(), Error: r.Err}
		if e.Error == "" && r.Stopped != "" {
			e.Error = "stopped at the " + r.Stopped + " budget"
		}
		if g := a.Guard; g != nil && g.Audit != nil {
			if err := g.Audit.Write(e); err != nil {
				slog.Warn("dream pass not written to the activity log", "err", err)
			}
		}
	}
	a.BackgroundNews.Publish(event.Background{Kind: event.BackgroundJobs})
}
