package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/spf13/cobra"

	"hearth/backend/app"
	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/internal/clip"
)

// ExitHeld is `hearth serve`'s exit when another Hearth holds the data folder: not a
// failure to restart on (the unit's RestartPreventExitStatus names it).
const ExitHeld = 3

func newServeCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "serve",
		Short: "Run Hearth without a window: reminders, the heartbeat, Dream and channels (a home server)",
		Long: `Run the agent's background life without a window, as the desktop app does with
one: reminders, the heartbeat, Dream, the channels and the MCP servers as configured.
It holds the data folder's lock (hearth.lock), so the desktop app does not start a
second agent beside it; ` + "`hearth agent`" + ` and the other commands work as usual.

Logs go to stderr, one line a record (under systemd without the time, with the
priority journald reads). SIGTERM or SIGINT ends it in order: running turns are
interrupted and kept (they can be continued), then it exits 0.

As a systemd user service (installed by make install and the package, not enabled):
  systemctl --user enable --now hearth    # start now and at every login
  loginctl enable-linger "$USER"          # keep it running while you are logged out
  journalctl --user -u hearth -f          # follow its log

Exit codes:
  0  stopped by SIGTERM or SIGINT
  1  could not start (the message says why; systemd restarts it)
  2  usage error
  3  another Hearth (the desktop app or a second serve) holds the data folder`,
		Example: `  hearth serve
  systemctl --user enable --now hearth
  hearth status`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return runServe(cmd.Context(), e) },
	}
}

// runServe holds the lock, starts the services as the desktop does, logs their news
// and waits for a signal; then the orderly close, and only then the lock goes.
func runServe(ctx context.Context, e *env) error {
	if e.ownProcess {
		slog.SetDefault(serveLogger(e.stderr, e.getenv("JOURNAL_STREAM") != ""))
	}
	lock, err := e.app.TakeLock(app.LockServe)
	var held *app.LockHeld
	if errors.As(err, &held) {
		fmt.Fprintf(e.stderr, "Error: %s\n", heldProblem(held.Holder))
		return exitError{ExitHeld}
	}
	if err != nil {
		p := i18n.P("service.lock.failed", "path", e.app.Settings.Paths().LockFile, "error", err.Error())
		return errors.New(p.String())
	}
	defer lock.Release() // after the close below: reminders stop before another may start

	sigs, stopSignals := e.stopSignals()
	defer stopSignals()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	news := e.app.BackgroundNews.Subscribe(ctx)
	// Ollama managed by Hearth starts with it, as with the desktop app.
	go func() {
		if err := e.app.Models.EnsureOllama(ctx); err != nil {
			slog.Warn("Ollama not started", "err", err)
		}
	}()
	if err := e.app.Start(ctx, app.StartOptions{Lock: lock, WatchMemory: true, DropStartPages: true}); err != nil {
		slog.Warn("background work not fully started", "err", err)
	}
	paths := e.app.Settings.Paths()
	slog.Info("hearth serve: running", "pid", os.Getpid(), "data", paths.DataDir, "workspace", paths.Workspace)
	for stop := false; !stop; {
		select {
		case s := <-sigs:
			slog.Info("hearth serve: stopping", "signal", s.String())
			stop = true
		case ev, ok := <-news:
			if !ok {
				stop = true
				break
			}
			logNews(ev)
		}
	}
	cancel()
	e.close() // running turns interrupted and kept, reminders stopped, MCP servers ended
	slog.Info("hearth serve: stopped")
	return nil
}

// stopSignals delivers SIGTERM and SIGINT (tests send their own through interrupts).
func (e *env) stopSignals() (<-chan os.Signal, func()) {
	if e.interrupts != nil {
		return e.interrupts()
	}
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGTERM, syscall.SIGINT)
	return c, func() { signal.Stop(c) }
}

// logNews writes the gist of what the desktop would have shown as a notification:
// without a window the log is where a reminder's run shows (and the channels deliver it
// where set).
func logNews(ev event.Background) {
	switch ev.Kind {
	case event.BackgroundJobs, event.BackgroundActivity, event.BackgroundSettings:
		return
	}
	text := ev.Text
	if ev.Code != "" && i18n.Has(ev.Code) {
		text = i18n.Message{Code: ev.Code, Args: ev.Args}.String()
	}
	// The gist only: the answer is in the chat, and the journal keeps what it is given.
	slog.Info("news", "kind", ev.Kind, "title", clip.Line(ev.Title, 80), "job", ev.JobID, "session", ev.SessionID,
		"text", clip.Line(text, 120))
}

// heldProblem words a refused start: who holds the data folder and how to free it.
func heldProblem(h app.LockHolder) i18n.Problem {
	text := i18n.M("service.held", "holder", h.String())
	switch h.Kind {
	case app.LockServe:
		return text.WithHint(i18n.M("service.held.serve.hint", "pid", strconv.Itoa(h.PID)))
	case app.LockDesktop:
		return text.WithHint(i18n.M("service.held.desktop.hint"))
	}
	return text.WithHint(i18n.M("service.held.other.hint"))
}
