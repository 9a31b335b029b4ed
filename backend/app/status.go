package app

import (
	"context"

	"hearth/backend/i18n"
	"hearth/backend/sandbox"
	"hearth/backend/settings"
)

// Status is the settings' report with what the other services know: whether Ollama
// answers and how memory recall searches (models), how commands are confined (the
// sandbox). A nil ctx is allowed (the desktop may ask before its window's exists).
func (a *App) Status(ctx context.Context) settings.Status {
	if ctx == nil {
		ctx = context.Background()
	}
	st := a.Settings.Status()
	a.Models.Report(ctx, &st)
	st.Sandbox = a.Sandbox.Status()
	if !a.Settings.Config().Tools.Exec.SandboxOn() {
		st.Sandbox.Mode = sandbox.ModeNone
		st.Sandbox.SetSummary(i18n.M("sandbox.off"))
		st.Sandbox.SetWarning(i18n.M("sandbox.off.warning"))
	}
	return st
}

// followPulls asks the recall index for a missing embedding model again once a model
// was pulled, instead of waiting a while (the models service tells of pulls as news:
// it is built before the memory service, which resolves models through it). Close
// ends it before the memory service closes.
func (a *App) followPulls() {
	ctx, stop := context.WithCancel(context.Background())
	a.stopPulls = stop
	pulls := a.pulled.Subscribe(ctx)
	a.pulls.Go(func() {
		for range pulls {
			a.Memory.Recheck()
		}
	})
}
