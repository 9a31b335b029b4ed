package models

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"hearth/backend/config"
	"hearth/backend/egress"
	"hearth/backend/i18n"
	"hearth/backend/settings"
)

// Hearth manages the Ollama it started, the way Ollama's own app does: once Hearth has
// started it on this machine (or providers.ollama.start is "always"), it starts it again
// at launch, before a chat's first request and when it dies, and the chat says so. On
// quitting it stops only that Ollama, and only when no other program has a model loaded
// in it (providers.ollama.keepRunning leaves it running always).

// startedMarker is the state-dir file that says Hearth started Ollama here before.
const startedMarker = "ollama-started"

// Revive limits: an Ollama that keeps dying (a broken install, a full disk) is not
// started forever; after reviveMax starts within reviveWindow Hearth gives up and says so.
const (
	reviveMax    = 3
	reviveWindow = 10 * time.Minute
)

// Engine reports whether Hearth can start Ollama at host and whether it runs one.
func (s *Service) Engine(host string) settings.OllamaEngine {
	st := settings.OllamaEngine{Managed: s.manages()}
	if u, err := url.Parse(host); err == nil && egress.Loopback(u.Hostname()) {
		_, err := exec.LookPath("ollama")
		st.Startable = err == nil
	}
	s.mu.Lock()
	sv := s.serve
	s.mu.Unlock()
	if sv != nil {
		select {
		case <-sv.done:
		default:
			st.ByHearth = true
		}
	}
	return st
}

// manages reports whether Hearth starts Ollama by itself.
func (s *Service) manages() bool {
	switch s.settings.Config().Providers.Ollama.Start {
	case config.OllamaStartAlways:
		return true
	case config.OllamaStartNever:
		return false
	}
	_, err := os.Lstat(filepath.Join(s.settings.Paths().StateDir, startedMarker))
	return err == nil
}

// remember writes the marker after Hearth started Ollama; a failure only costs the
// start at the next launch, so it is logged, not returned.
func (s *Service) remember() {
	p := filepath.Join(s.settings.Paths().StateDir, startedMarker)
	if _, err := os.Lstat(p); err == nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err == nil {
		// O_EXCL: a planted symlink is never followed, only reported.
		f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			_, _ = f.WriteString("Hearth started Ollama here; it starts it again (providers.ollama.start)\n")
			err = f.Close()
		}
		if err == nil {
			return
		}
		slog.Warn("could not remember that Hearth started Ollama", "err", err)
	}
}

// EnsureOllama starts Ollama when Hearth manages it and it does not answer: at launch
// and before a chat's first request. What happened is told to the next chat
// (EngineNotices); the error says why a start failed.
func (s *Service) EnsureOllama(ctx context.Context) error {
	if !s.manages() {
		return nil
	}
	// A start in progress (at launch, after a crash) ends first and is told before
	// this returns: the chat that waited hears how it went.
	s.startMu.Lock()
	defer s.startMu.Unlock()
	if s.runsOurs() {
		return nil
	}
	host := s.settings.Config().OllamaHost(s.settings.Getenv)
	if _, err := s.OllamaVersion(ctx, host); err == nil {
		return nil
	}
	if st := s.Engine(host); !st.Startable {
		return nil // another machine's, or not installed: the chat's error says so
	}
	v, err := s.startLocked(ctx, host)
	if err != nil {
		s.tell(i18n.M("notice.ollamaStartFailed", "detail", err.Error()))
		return err
	}
	s.tell(i18n.M("notice.ollamaStarted", "version", v))
	return nil
}

// runsOurs reports whether an Ollama Hearth started is running.
func (s *Service) runsOurs() bool {
	s.mu.Lock()
	sv := s.serve
	s.mu.Unlock()
	if sv == nil {
		return false
	}
	select {
	case <-sv.done:
		return false
	default:
		return true
	}
}

// EngineNotices returns, once, what happened to the engine since the last chat asked
// (Ollama died and Hearth started it again).
func (s *Service) EngineNotices() []i18n.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.engineNews
	s.engineNews = nil
	return out
}

func (s *Service) tell(m i18n.Message) {
	s.mu.Lock()
	s.engineNews = append(s.engineNews, m)
	s.mu.Unlock()
}

// revive starts Ollama again after the one Hearth started died on its own.
func (s *Service) revive() {
	defer s.engineWG.Done()
	now := time.Now()
	s.mu.Lock()
	s.restarts = slices.DeleteFunc(s.restarts, func(t time.Time) bool { return now.Sub(t) > reviveWindow })
	gaveUp := len(s.restarts) >= reviveMax
	if !gaveUp {
		s.restarts = append(s.restarts, now)
	}
	s.mu.Unlock()
	if gaveUp {
		slog.Warn("Ollama keeps stopping; Hearth does not start it again", "log", s.serveLog())
		s.tell(i18n.M("notice.ollamaGaveUp", "log", s.serveLog()))
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-s.quit:
			cancel()
		case <-ctx.Done():
		}
	}()
	select {
	case <-s.quit:
		return
	case <-time.After(time.Second): // a moment for the port to be free again
	}
	s.startMu.Lock()
	defer s.startMu.Unlock()
	if s.runsOurs() {
		return // a chat's EnsureOllama was first, and told it
	}
	v, err := s.startLocked(ctx, s.settings.Config().OllamaHost(s.settings.Getenv))
	if err != nil {
		if ctx.Err() == nil {
			slog.Warn("Ollama stopped and could not be started again", "err", err)
			s.tell(i18n.M("notice.ollamaStartFailed", "detail", err.Error()))
		}
		return
	}
	slog.Info("Ollama stopped; Hearth started it again", "version", v)
	s.tell(i18n.M("notice.ollamaRestarted", "version", v))
}

// leaveRunning says why the Ollama Hearth started stays when Hearth quits ("" when it
// is stopped): the setting, or a model loaded that Hearth did not load (another client
// uses it).
func (s *Service) leaveRunning() string {
	cfg := s.settings.Config()
	if cfg.Providers.Ollama.KeepRunning {
		return "providers.ollama.keepRunning is set"
	}
	ctx, cancel := context.WithTimeout(context.Background(), OllamaCheckTimeout)
	defer cancel()
	loaded, err := s.loadedModels(ctx, cfg.OllamaHost(s.settings.Getenv))
	if err != nil {
		return "" // it does not answer: nobody can be using it
	}
	ours := map[string]bool{}
	s.mu.Lock()
	for m := range s.used {
		ours[m] = true
	}
	s.mu.Unlock()
	for _, name := range []string{cfg.Agents.Defaults.Model, cfg.Agents.Defaults.EmbeddingModel} {
		if p, m, err := cfg.ResolveModel(name); err == nil && p == config.ProviderOllama {
			ours[tagged(m)] = true
		}
	}
	for _, m := range loaded {
		if !ours[tagged(m)] {
			return fmt.Sprintf("another program has %s loaded", m)
		}
	}
	return ""
}

// used records that Hearth sent a request for an Ollama model.
func (s *Service) use(model string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.used == nil {
		s.used = map[string]bool{}
	}
	s.used[tagged(model)] = true
}

// tagged writes out Ollama's implicit ":latest" so both spellings compare equal.
func tagged(model string) string {
	if !strings.Contains(model[strings.LastIndex(model, "/")+1:], ":") {
		return model + ":latest"
	}
	return model
}

// maxPSBytes bounds /api/ps's answer: a list of a few loaded models.
const maxPSBytes = 1 << 20

// loadedModels asks Ollama which models it has in memory (/api/ps).
func (s *Service) loadedModels(ctx context.Context, host string) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(host, "/")+"/api/ps", nil)
	if err != nil {
		return nil, err
	}
	resp, err := s.check.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("/api/ps: %s", resp.Status)
	}
	return parsePS(resp.Body)
}

// parsePS reads /api/ps's answer: {"models":[{"name":…,"model":…},…]}. An answer
// larger than maxPSBytes is refused, not cut (a cut list could miss another's model).
func parsePS(r io.Reader) ([]string, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxPSBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxPSBytes {
		return nil, errors.New("/api/ps: the answer is too large")
	}
	var ps struct {
		Models []struct {
			Name  string `json:"name"`
			Model string `json:"model"`
		} `json:"models"`
	}
	if err := json.Unmarshal(data, &ps); err != nil {
		return nil, fmt.Errorf("/api/ps: %w", err)
	}
	var out []string
	for _, m := range ps.Models {
		if n := strings.TrimSpace(m.Name); n != "" {
			out = append(out, n)
		} else if n := strings.TrimSpace(m.Model); n != "" {
			out = append(out, n)
		}
	}
	return out, nil
}
