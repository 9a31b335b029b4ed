package reminders

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"hearth/backend/agent"
	"hearth/backend/agent/prompt"
	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/schedule"
)

// restartHeartbeat (re)starts the heartbeat loop from the current config: at Start
// and when SetHeartbeat changes it. A check that is running is cancelled first.
func (s *Service) restartHeartbeat() error {
	s.hbMu.Lock()
	defer s.hbMu.Unlock()
	s.mu.Lock()
	old, base, started := s.hbCancel, s.ctx, s.started
	s.hb, s.hbCancel = nil, nil
	s.mu.Unlock()
	if old != nil {
		old()
		s.wg.Wait()
	}
	cfg := s.opts.Settings.Config()
	if !started || !cfg.Heartbeat.Enabled {
		return nil
	}
	hb, err := schedule.NewHeartbeat(schedule.HeartbeatOptions{
		Interval: time.Duration(cfg.Heartbeat.IntervalMinutes) * time.Minute,
		Clock:    s.clock,
		Read:     s.opts.Tasks,
		Run:      s.runHeartbeat,
		News:     s.opts.News,
		Notify:   func(ev event.Background) { s.notify(ev, "", "") },
		Paused:   s.Paused,
	})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(base)
	s.mu.Lock()
	s.hb, s.hbCancel = hb, cancel
	s.mu.Unlock()
	hb.Start(ctx, &s.wg)
	return nil
}

// SetHeartbeat changes heartbeat.enabled and heartbeat.intervalMinutes,
// saves the config and restarts the heartbeat with them.
func (s *Service) SetHeartbeat(enabled bool, intervalMinutes int) error {
	if intervalMinutes < 1 {
		return fmt.Errorf("heartbeat interval %d minutes: must be at least 1", intervalMinutes)
	}
	err := s.opts.Settings.Update(func(c *config.Config) error {
		c.Heartbeat = config.Heartbeat{Enabled: enabled, IntervalMinutes: intervalMinutes}
		return nil
	})
	if err != nil {
		return err
	}
	return s.restartHeartbeat()
}

// SetMissedRuns changes schedule.missedRuns ("catchup", "skip" or "ask": the default of
// every reminder that has no choice of its own; it applies at the next start) and saves
// the config.
func (s *Service) SetMissedRuns(policy string) error {
	switch policy {
	case schedule.MissedCatchup, schedule.MissedSkip, schedule.MissedAsk:
	default:
		return fmt.Errorf("schedule.missedRuns %q: must be catchup, skip or ask", policy)
	}
	return s.opts.Settings.Update(func(c *config.Config) error { c.Schedule.MissedRuns = policy; return nil })
}

// HeartbeatNow runs one heartbeat check now and reports whether the model
// was called (nothing is sent when HEARTBEAT.md has no active tasks).
func (s *Service) HeartbeatNow(ctx context.Context) (bool, error) {
	s.mu.Lock()
	hb := s.hb
	s.mu.Unlock()
	if hb == nil {
		return false, errors.New("heartbeat is not running (hint: heartbeat.enabled, and only the desktop app runs it)")
	}
	return hb.Tick(ctx)
}

func (s *Service) runHeartbeat(ctx context.Context, text string) (string, error) {
	run, err := s.opts.Runs.Start(ctx, agent.Request{SessionID: schedule.HeartbeatSession, Text: text, Unattended: true,
		Channel: prompt.ChannelHeartbeat}, nil)
	if err != nil {
		return "", err
	}
	res := run.Wait()
	s.trimHeartbeat()
	posted := s.takePosted(run.ID)
	if res.Status == event.StatusInterrupted || res.Status == event.StatusCancelled {
		return schedule.HeartbeatOK, nil // Hearth is quitting, or the person stopped it: nothing to tell
	}
	if res.Status != event.StatusOK {
		if res.Err != nil {
			return "", res.Err
		}
		return "", fmt.Errorf("heartbeat run ended %s", res.Status)
	}
	if posted {
		return schedule.HeartbeatOK, nil // it already told the user
	}
	return res.Final, nil
}

// trimHeartbeat keeps the heartbeat chat's file to its last runs (its history is kept
// short); the model already sees only the last few.
func (s *Service) trimHeartbeat() {
	if n, err := s.opts.Sessions.KeepRecent(schedule.HeartbeatSession, schedule.HeartbeatKeepRuns); err != nil {
		slog.Warn("heartbeat chat not trimmed", "err", err)
	} else if n > 0 {
		slog.Info("heartbeat chat trimmed", "messagesDropped", n)
	}
}
