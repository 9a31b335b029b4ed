package models

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"hearth/backend/egress"
	"hearth/backend/llm"
)

// The window offers to start an installed Ollama that is not running (the way Ollama's
// own app does at login); engine.go starts it again by itself later. Hearth stops the
// server when it quits, but only one it started itself and no other program uses: an
// Ollama that was already running is never touched.

// served is an `ollama serve` this process started.
type served struct {
	cmd  *exec.Cmd
	done chan struct{}
	// stopping: Hearth ends it (or leaves it running as it quits); its exit is
	// expected and not revived.
	stopping bool
}

// serveWait bounds how long StartOllama waits for the new server to answer.
const serveWait = 15 * time.Second

// StartOllama starts `ollama serve` (found on PATH) for the configured host when it is a
// local address, waits until it answers and returns its version. The server runs in its
// own process group with its output in the state dir's ollama.log; Close stops it.
func (s *Service) StartOllama(ctx context.Context) (string, error) {
	host := s.settings.Config().OllamaHost(s.settings.Getenv)
	if v, err := s.OllamaVersion(ctx, host); err == nil {
		return v, nil // it runs already (maybe started by someone else): leave it be
	}
	s.startMu.Lock()
	defer s.startMu.Unlock()
	return s.startLocked(ctx, host)
}

// startLocked is StartOllama with s.startMu held: one start at a time, so a chat that
// waits for a start in progress hears how it went (engine.go).
func (s *Service) startLocked(ctx context.Context, host string) (string, error) {
	u, err := url.Parse(host)
	if err != nil || !egress.Loopback(u.Hostname()) {
		return "", fmt.Errorf("start Ollama: %s is another machine's address (hint: start Ollama there, or clear the address to use this computer's)", host)
	}
	bin, err := exec.LookPath("ollama")
	if err != nil {
		return "", fmt.Errorf("start Ollama: not installed (hint: install it from https://ollama.com/download)")
	}
	if v, err := s.OllamaVersion(ctx, host); err == nil {
		return v, nil // started meanwhile by the caller before us
	}
	s.mu.Lock()
	sv, closing := s.serve, s.closing
	s.mu.Unlock()
	if closing {
		return "", errors.New("start Ollama: Hearth is quitting")
	}
	if sv == nil {
		// Kept here, not read back from s.serve: a server that dies while starting
		// is no longer s.serve, and this start must see it go.
		if sv, err = s.spawnOllama(bin, u.Host); err != nil {
			return "", err
		}
	}
	deadline := time.Now().Add(serveWait)
	for {
		v, err := s.OllamaVersion(ctx, host)
		if err == nil {
			s.remember()
			return v, nil
		}
		select {
		case <-sv.done:
			return "", fmt.Errorf("start Ollama: `ollama serve` exited (hint: see %s)", s.serveLog())
		default:
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return "", fmt.Errorf("start Ollama: no answer at %s after %v: %w (hint: see %s)", host, serveWait, err, s.serveLog())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func (s *Service) serveLog() string {
	return filepath.Join(s.settings.Paths().StateDir, "ollama.log")
}

func (s *Service) spawnOllama(bin, hostport string) (*served, error) {
	logPath := s.serveLog()
	if err := os.MkdirAll(filepath.Dir(logPath), 0o700); err != nil {
		return nil, fmt.Errorf("start Ollama: %w", err)
	}
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("start Ollama: %w", err)
	}
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "OLLAMA_HOST="+hostport)
	cmd.Stdout, cmd.Stderr = logf, logf
	// Its own process group: Close stops the server and the runners it spawned.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("start Ollama: %w", err)
	}
	sv := &served{cmd: cmd, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		logf.Close()
		s.mu.Lock()
		died := !sv.stopping && !s.closing
		if s.serve == sv {
			s.serve = nil
		}
		if died && s.manages() {
			s.engineWG.Add(1)
			go s.revive()
		}
		s.mu.Unlock()
		close(sv.done)
	}()
	s.mu.Lock()
	s.serve = sv
	s.mu.Unlock()
	return sv, nil
}

// stopOllama ends the Ollama this process started, if any and unless it is to stay
// (leaveRunning): SIGTERM to its group, then SIGKILL after a few seconds. No start
// happens after it.
func (s *Service) stopOllama() {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.quitOnce.Do(func() { close(s.quit) })
	s.engineWG.Wait()
	s.startMu.Lock() // a start in progress ends first
	defer s.startMu.Unlock()
	s.mu.Lock()
	sv := s.serve
	s.serve = nil
	if sv != nil {
		sv.stopping = true
	}
	s.mu.Unlock()
	if sv == nil {
		return
	}
	if why := s.leaveRunning(); why != "" {
		slog.Info("Hearth leaves the Ollama it started running", "why", why, "pid", sv.cmd.Process.Pid)
		return
	}
	pgid := sv.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-sv.done:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-sv.done
	}
}

// OllamaCheckTimeout bounds the reachability check so status stays snappy.
const OllamaCheckTimeout = 1500 * time.Millisecond

// OllamaVersion asks the Ollama server at host for its version through the provider's
// own probe (the cheapest call Ollama answers), bounded by OllamaCheckTimeout.
func (s *Service) OllamaVersion(ctx context.Context, host string) (string, error) {
	o, err := llm.NewOllama(llm.OllamaConfig{Host: host, HTTPClient: s.check, Retry: llm.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, OllamaCheckTimeout)
	defer cancel()
	v, err := o.Version(ctx)
	if err == nil && v == "" {
		err = errors.New("the answer names no version")
	}
	return v, err
}

// CheckOllama is OllamaVersion for Status: the version, or why Ollama does not answer
// at host, with a hint.
func (s *Service) CheckOllama(ctx context.Context, host string) (version, problem string) {
	v, err := s.OllamaVersion(ctx, host)
	if err == nil {
		return v, ""
	}
	hint := "start it (Start Ollama in Hearth's window, or `ollama serve` in a terminal), or set providers.ollama.host / OLLAMA_HOST if it runs elsewhere"
	if errors.Is(err, context.DeadlineExceeded) {
		hint = "it did not answer within 1.5 s; check the host and that Ollama is not stuck"
	} else if !llm.IsKind(err, llm.KindUnreachable) {
		hint = "is this really an Ollama server? check the host and port"
	}
	return "", fmt.Sprintf("Ollama is not reachable at %s: %v (hint: %s)", host, err, hint)
}
