package core

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"hearth/backend/agent"
	"hearth/backend/agent/prompt"
	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/schedule"
)

// restartHeartbeat (re)starts the heartbeat loop from the current config:
// at StartBackground and when Settings change heartbeat.*. A check that is
// running is cancelled first.
func (s *Service) restartHeartbeat() error {
	s.bg.hbMu.Lock()
	defer s.bg.hbMu.Unlock()
	s.bg.mu.Lock()
	old, base, started := s.bg.hbCancel, s.bg.ctx, s.bg.started
	s.bg.hb, s.bg.hbCancel = nil, nil
	s.bg.mu.Unlock()
	if old != nil {
		old()
		s.bg.wg.Wait()
	}
	cfg := s.Config()
	if !started || !cfg.Heartbeat.Enabled {
		return nil
	}
	ws := s.Paths().Workspace
	hb, err := schedule.NewHeartbeat(schedule.HeartbeatOptions{
		Interval: time.Duration(cfg.Heartbeat.IntervalMinutes) * time.Minute,
		Clock:    s.bg.clock,
		Read: func() (string, error) {
			b, err := os.ReadFile(filepath.Join(ws, "HEARTBEAT.md"))
			return string(b), err
		},
		Run: s.runHeartbeat,
		Notify: func(text string) {
			s.bg.emit(BackgroundEvent{Kind: BackgroundHeartbeat, Title: "Hearth", Text: text, SessionID: schedule.HeartbeatSession})
		},
		Paused: s.RemindersPaused,
	})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(base)
	s.bg.mu.Lock()
	s.bg.hb, s.bg.hbCancel = hb, cancel
	s.bg.mu.Unlock()
	hb.Start(ctx, &s.bg.wg)
	return nil
}

// SetHeartbeat changes heartbeat.enabled and heartbeat.intervalMinutes,
// saves the config and restarts the heartbeat with them.
func (s *Service) SetHeartbeat(enabled bool, intervalMinutes int) error {
	if intervalMinutes < 1 {
		return fmt.Errorf("heartbeat interval %d minutes: must be at least 1", intervalMinutes)
	}
	err := s.settings.Update(func(c *config.Config) error {
		c.Heartbeat = config.Heartbeat{Enabled: enabled, IntervalMinutes: intervalMinutes}
		return nil
	})
	if err != nil {
		return err
	}
	return s.restartHeartbeat()
}

// SetMissedRuns changes schedule.missedRuns ("catchup" or "skip"; it
// applies at the next start) and saves the config.
func (s *Service) SetMissedRuns(policy string) error {
	if policy != schedule.MissedCatchup && policy != schedule.MissedSkip {
		return fmt.Errorf("schedule.missedRuns %q: must be catchup or skip", policy)
	}
	return s.settings.Update(func(c *config.Config) error { c.Schedule.MissedRuns = policy; return nil })
}

// HeartbeatNow runs one heartbeat check now and reports whether the model
// was called (nothing is sent when HEARTBEAT.md has no active tasks).
func (s *Service) HeartbeatNow(ctx context.Context) (bool, error) {
	s.bg.mu.Lock()
	hb := s.bg.hb
	s.bg.mu.Unlock()
	if hb == nil {
		return false, errors.New("heartbeat is not running (hint: heartbeat.enabled, and only the desktop app runs it)")
	}
	return hb.Tick(ctx)
}

func (s *Service) runHeartbeat(ctx context.Context, text string) (string, error) {
	run, err := s.SendRequest(ctx, agent.Request{SessionID: schedule.HeartbeatSession, Text: text, Unattended: true,
		Channel: prompt.ChannelHeartbeat}, nil)
	if err != nil {
		return "", err
	}
	res := run.Wait()
	s.trimHeartbeat()
	s.bg.mu.Lock()
	posted := s.bg.posted[run.ID]
	delete(s.bg.posted, run.ID)
	s.bg.mu.Unlock()
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

// trimHeartbeat keeps the heartbeat chat's file to its last runs (F-HEARTBEAT: its history
// is kept short); the model already sees only the last few.
func (s *Service) trimHeartbeat() {
	p, err := s.agent()
	if err != nil {
		return // the run just used the agent; an error here is reported by the next run
	}
	if n, err := p.store.KeepRecent(schedule.HeartbeatSession, schedule.HeartbeatKeepRuns); err != nil {
		slog.Warn("heartbeat chat not trimmed", "err", err)
	} else if n > 0 {
		slog.Info("heartbeat chat trimmed", "messagesDropped", n)
	}
}
