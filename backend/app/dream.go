package app

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"hearth/backend/activity"
	"hearth/backend/audit"
	"hearth/backend/config"
	"hearth/backend/dream"
	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/internal/nofollow"
	"hearth/backend/internal/safefile"
	"hearth/backend/memory"
	"hearth/backend/workspace"
)

// dreamOptions wire Dream to the memory files, the chats and the default model;
// each pass is written to the Activity log with what it used.
func (a *App) dreamOptions() dream.Options {
	return dream.Options{
		Store:         a.Memory.Store,
		Sessions:      a.store,
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
		Limits: func() (dream.Budget, time.Duration) {
			d := a.Settings.Config().Memory.Dream
			return dream.Budget{Tokens: d.MaxTokens, Time: time.Duration(d.MaxMinutes) * time.Minute, ToolCalls: d.MaxToolCalls},
				time.Duration(d.EveryHours) * time.Hour
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
		if err := a.Guard.Audit.Write(e); err != nil {
			slog.Warn("dream pass not written to the activity log", "err", err)
		}
	}
	a.BackgroundNews.Publish(event.Background{Kind: event.BackgroundJobs})
}

// reviewSettings are "Review memory changes" from config.json (memory.review).
func (a *App) reviewSettings() memory.ReviewSettings {
	r := a.Settings.Config().Memory.Review
	return memory.ReviewSettings{Enabled: r.Enabled, ExpireHours: r.ExpireHours, OnExpiry: r.OnExpiry}
}

// saveReviewSettings writes "Review memory changes" to config.json.
func (a *App) saveReviewSettings(rs memory.ReviewSettings) error {
	return a.Settings.Update(func(c *config.Config) error {
		c.Memory.Review = config.Review{Enabled: rs.Enabled, ExpireHours: rs.ExpireHours, OnExpiry: rs.OnExpiry}
		if ps := c.Validate(); len(ps) > 0 {
			for _, p := range ps {
				if strings.HasPrefix(p.Key, "memory.review.") {
					return fmt.Errorf("review memory changes: %s %s (hint: %s)", p.Key, p.Msg, p.Hint)
				}
			}
		}
		return nil
	})
}

// migrateReviewSettings moves "Review memory changes" from the workspace's
// .hearth/inbox/settings.json, where older versions kept it, into config.json —
// once: the file is removed after the move. The file is read without following
// a link and only if it is a small regular file (a command could have put a
// pipe or a link there); the move of the state folder may have taken it along.
func (a *App) migrateReviewSettings() {
	paths := a.Settings.Paths()
	type legacy struct {
		read   func() ([]byte, error)
		remove func()
	}
	ws, stateDir := paths.Workspace, workspace.StateDir(paths.WorkspacesDir, paths.Workspace)
	for _, l := range []legacy{
		{func() ([]byte, error) { return nofollow.ReadFile(ws, ".hearth/inbox/settings.json", 64<<10) }, func() {
			if d, err := nofollow.OpenDir(ws, ".hearth/inbox"); err == nil {
				_ = nofollow.RemoveRegular(d, "settings.json")
				d.Close()
			}
		}},
		{func() ([]byte, error) {
			return safefile.ReadFile(filepath.Join(stateDir, "inbox", "settings.json"), 64<<10)
		}, func() {
			_ = os.Remove(filepath.Join(stateDir, "inbox", "settings.json"))
		}},
	} {
		b, err := l.read()
		if err != nil {
			continue
		}
		var rs memory.ReviewSettings
		if err := json.Unmarshal(b, &rs); err == nil {
			if rs.OnExpiry != "apply" {
				rs.OnExpiry = "discard"
			}
			rs.ExpireHours = max(rs.ExpireHours, 0)
			if err := a.saveReviewSettings(rs); err != nil {
				slog.Warn("memory review settings not moved to config.json", "err", err)
				return
			}
		}
		l.remove() // a damaged file was the defaults: nothing to move
		return
	}
}

// moveState moves what older versions kept in the workspace's .hearth folder
// into its state folder, once, and says so in the log (hearth status says it
// too, from the record the move leaves).
func moveState(ws, dir string) {
	m, err := workspace.MoveState(ws, dir)
	switch {
	case err != nil:
		slog.Warn(i18n.M("memory.state.moveFailed", "from", filepath.Join(ws, ".hearth"), "dir", dir, "error", err.Error()).String(),
			"code", "memory.state.moveFailed")
	case m == nil:
	case len(m.Refused) > 0:
		slog.Warn(i18n.M("memory.state.refused", "from", m.From, "items", strings.Join(m.Refused, ", "), "dir", dir).String(),
			"code", "memory.state.refused", "skipped", m.Skipped)
	default:
		slog.Info(i18n.M("memory.state.moved", "from", m.From, "items", strings.Join(m.Items, ", "), "dir", dir).String(),
			"code", "memory.state.moved")
	}
}
