package mcp

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"hearth/backend/config"
	"hearth/backend/tools"
)

// stableAfter is how long a connection must last for the next reconnect to
// start without backoff (a server that dies at once is not hammered).
const stableAfter = 5 * time.Second

// server is one configured server and its connection loop.
type server struct {
	m    *Manager
	name string
	cfg  config.MCPServer // never changed; Set makes a new server

	ctx    context.Context
	cancel context.CancelFunc
	wake   chan struct{}

	mu         sync.Mutex
	sess       *sdk.ClientSession
	sessCancel context.CancelFunc // ends the session's connection context
	errTail    *tail
	lastErr    string
	since      time.Time
	info       *sdk.Implementation
	changedCh  chan struct{} // closed and replaced on every state change
	// attempts counts the connection attempts that have ended, connected or failed:
	// a call waiting for a reconnect waits for an attempt to end, not for any
	// change (the loss of the old session is a change too, and may be announced
	// after the call began waiting).
	attempts uint64
	running  bool
	stopped  bool
	// givenUp is set when a run waited the full bound for this server's
	// first connection: later runs do not wait for it again (its tools join
	// once it connects).
	givenUp bool
	done    chan struct{}

	applyMu   sync.Mutex
	names     []string // registered wrapped names
	toolNames []string
}

func newServer(m *Manager, name string, c config.MCPServer) *server {
	ctx, cancel := context.WithCancel(context.Background())
	return &server{m: m, name: name, cfg: c, ctx: ctx, cancel: cancel, wake: make(chan struct{}, 1),
		changedCh: make(chan struct{}), done: make(chan struct{})}
}

func (s *server) config() config.MCPServer { return s.cfg }

func (s *server) start() {
	s.mu.Lock()
	if s.running || s.stopped {
		s.mu.Unlock()
		return
	}
	s.running = true
	s.mu.Unlock()
	go s.loop()
}

// stop ends the loop, closes the session and withdraws the tools.
func (s *server) stop() {
	s.mu.Lock()
	s.stopped = true
	running := s.running
	sess := s.sess
	s.sess = nil
	s.mu.Unlock()
	s.cancel() // also ends the session's connection context
	if sess != nil {
		closeSession(sess)
	}
	if running {
		select {
		case <-s.done:
		case <-time.After(2 * time.Second):
			slog.Warn("mcp: server loop did not stop in time", "server", s.name)
		}
	}
	s.applyMu.Lock()
	s.m.unregister(s.names...)
	s.names, s.toolNames = nil, nil
	s.applyMu.Unlock()
	s.notify()
}

func (s *server) loop() {
	defer close(s.done)
	failures := 0
	for {
		if failures > 0 {
			wait := s.m.opts.Backoff << min(failures-1, 16)
			if wait > s.m.opts.MaxBackoff || wait <= 0 {
				wait = s.m.opts.MaxBackoff
			}
			t := time.NewTimer(wait)
			select {
			case <-s.ctx.Done():
				t.Stop()
				return
			case <-s.wake:
			case <-t.C:
			}
			t.Stop()
		}
		if s.ctx.Err() != nil {
			return
		}
		sess, err := s.connectOnce()
		if err != nil {
			if s.ctx.Err() != nil {
				return
			}
			failures++
			s.setErr(err)
			slog.Info("mcp: connect failed", "server", s.name, "attempt", failures, "err", err)
			continue
		}
		connected := time.Now()
		waitErr := make(chan error, 1)
		go func() { waitErr <- sess.Wait() }()
		select {
		case <-s.ctx.Done():
			closeSession(sess)
			return
		case err := <-waitErr:
			if s.ctx.Err() != nil {
				return
			}
			s.lost(sess, err)
		}
		if time.Since(connected) < stableAfter {
			failures++
		} else {
			failures = 0
		}
	}
}

// connectOnce connects, lists and registers the server's tools.
func (s *server) connectOnce() (*sdk.ClientSession, error) {
	// The SSE transport ties its event stream to the context it connects
	// with, so that context lives as long as the session; the attempt's
	// time limit cancels it only while connecting.
	connCtx, connCancel := context.WithCancel(s.ctx)
	timer := time.AfterFunc(s.m.opts.ConnectTimeout, connCancel)
	errTail := &tail{}
	sess, err := s.m.connect(connCtx, s.cfg, errTail, s)
	if err == nil {
		var ws []*wrapped
		if ws, err = s.list(connCtx, sess); err == nil {
			return sess, s.connected(sess, ws, errTail, timer, connCancel)
		}
		_ = sess.Close()
		err = fmt.Errorf("list tools: %w", err)
	}
	timedOut := !timer.Stop()
	connCancel()
	if timedOut && s.ctx.Err() == nil {
		err = fmt.Errorf("%w: %w", err, context.DeadlineExceeded)
	}
	return nil, explain(err, errTail)
}

// connected makes sess the live session and registers its tools.
func (s *server) connected(sess *sdk.ClientSession, ws []*wrapped, errTail *tail, timer *time.Timer, cancel context.CancelFunc) error {
	if !timer.Stop() {
		_ = sess.Close()
		cancel()
		return fmt.Errorf("no answer within %s: %w", s.m.opts.ConnectTimeout, context.DeadlineExceeded)
	}
	// The tools are registered before the session counts as connected: a run
	// waiting for this server (Manager.WaitReady) goes on as soon as it sees
	// the session, and its request must already offer them. A stop racing
	// this withdraws them (it unregisters after the loop has ended).
	s.apply(ws)
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		_ = sess.Close()
		cancel()
		return context.Canceled
	}
	s.sess, s.sessCancel, s.errTail, s.lastErr, s.since = sess, cancel, errTail, "", time.Now()
	s.attempts++
	if ir := sess.InitializeResult(); ir != nil {
		s.info = ir.ServerInfo
	}
	s.mu.Unlock()
	s.notify()
	return nil
}

// list reads the server's tools, resources and prompts as wrapped tools,
// filtered by enabledTools. Names are unique: a resource, prompt or resource
// template whose name is already taken gets a _resource / _prompt / _template
// suffix.
func (s *server) list(ctx context.Context, sess *sdk.ClientSession) ([]*wrapped, error) {
	var caps *sdk.ServerCapabilities
	if ir := sess.InitializeResult(); ir != nil {
		caps = ir.Capabilities
	}
	if caps == nil {
		caps = &sdk.ServerCapabilities{}
	}
	var out []*wrapped
	seen := map[string]bool{}
	add := func(w *wrapped, remoteName, suffix string) {
		alt := ToolName(s.name, remoteName+suffix)
		// enabledTools may name the suffixed form it saw in the status.
		byAlt := suffix != "" && !enabled(s.cfg, remoteName, w.name) && slices.Contains(s.cfg.EnabledTools, alt)
		if !byAlt && !enabled(s.cfg, remoteName, w.name) {
			return
		}
		if byAlt || seen[w.name] {
			w.name = alt
			if seen[w.name] {
				return
			}
		}
		seen[w.name] = true
		out = append(out, w)
	}
	if caps.Tools != nil {
		for t, err := range sess.Tools(ctx, nil) {
			if err != nil {
				return nil, err
			}
			add(&wrapped{srv: s, kind: kindTool, name: ToolName(s.name, t.Name), remote: t.Name,
				desc: describe(t.Description, "MCP tool "+t.Name+" of "+s.name), params: schemaOf(t.InputSchema)}, t.Name, "")
		}
	}
	if caps.Resources != nil {
		for r, err := range sess.Resources(ctx, nil) {
			if err != nil {
				return nil, fmt.Errorf("list resources: %w", err)
			}
			name := r.Name
			name = cmp.Or(name, r.URI)
			add(&wrapped{srv: s, kind: kindResource, name: ToolName(s.name, name), remote: r.URI,
				desc:   describe("Read resource "+r.URI+". "+r.Description, ""),
				params: &jsonschema.Schema{Type: "object"}}, name, "_resource")
		}
	}
	if caps.Prompts != nil {
		for p, err := range sess.Prompts(ctx, nil) {
			if err != nil {
				return nil, fmt.Errorf("list prompts: %w", err)
			}
			add(&wrapped{srv: s, kind: kindPrompt, name: ToolName(s.name, p.Name), remote: p.Name,
				desc: describe("Get prompt "+p.Name+". "+p.Description, ""), params: promptSchema(p)}, p.Name, "_prompt")
		}
	}
	// Templates come last so that adding them renames nothing offered before.
	if caps.Resources != nil {
		for t, err := range templates(ctx, sess) {
			if err != nil {
				return nil, err
			}
			if w, name := s.templateTool(t); w != nil {
				add(w, name, "_template")
			}
		}
	}
	return out, nil
}

// apply registers ws and withdraws tools that are gone.
func (s *server) apply(ws []*wrapped) {
	s.applyMu.Lock()
	defer s.applyMu.Unlock()
	if s.ctx.Err() != nil {
		return
	}
	keep := map[string]bool{}
	names := make([]string, 0, len(ws))
	ts := make([]tools.Tool, 0, len(ws))
	for _, w := range ws {
		keep[w.name] = true
		names = append(names, w.name)
		ts = append(ts, w)
	}
	var gone []string
	for _, n := range s.names {
		if !keep[n] {
			gone = append(gone, n)
		}
	}
	s.m.unregister(gone...)
	s.m.register(ts...)
	s.names = names
	s.toolNames = append([]string(nil), names...)
}

// refresh re-lists after a list_changed notification.
func (s *server) refresh() {
	s.mu.Lock()
	sess := s.sess
	s.mu.Unlock()
	if sess == nil {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, s.m.opts.ConnectTimeout)
	defer cancel()
	ws, err := s.list(ctx, sess)
	if err != nil {
		slog.Warn("mcp: refresh after list_changed", "server", s.name, "err", err)
		return
	}
	s.apply(ws)
	s.notify()
}

// waitSession returns the live session. When there is none it asks the loop
// to try now and waits for an attempt to end (within ctx, the call's timeout):
// it fails with the attempt's error only when an attempt that ended after it
// asked did not connect.
func (s *server) waitSession(ctx context.Context) (*sdk.ClientSession, error) {
	poked := false
	var asked uint64
	for {
		s.mu.Lock()
		sess, ch, lastErr, stopped, ended := s.sess, s.changedCh, s.lastErr, s.stopped, s.attempts
		s.mu.Unlock()
		if sess != nil {
			return sess, nil
		}
		if stopped {
			return nil, fmt.Errorf("MCP server %s was removed or Hearth is closing", s.name)
		}
		if poked && ended > asked && lastErr != "" {
			return nil, fmt.Errorf("MCP server %s is not connected: %s (Hearth keeps retrying in the background)", s.name, lastErr)
		}
		if !poked {
			asked = ended
			select {
			case s.wake <- struct{}{}:
			default:
			}
			poked = true
		}
		select {
		case <-ch:
		case <-ctx.Done():
			why := lastErr
			why = cmp.Or(why, "still connecting")
			return nil, fmt.Errorf("MCP server %s is not connected (%s); Hearth keeps retrying in the background", s.name, why)
		}
	}
}

// drop closes a session a call found broken; the loop reconnects.
func (s *server) drop(sess *sdk.ClientSession, err error) {
	s.lost(sess, err)
	closeSession(sess)
}

// closeSession closes sess but waits at most a second: a server stuck in a
// call must not hold up a shutdown or a reconnect (a stdio server's process
// is still ended by the transport in the background).
func closeSession(sess *sdk.ClientSession) {
	done := make(chan struct{})
	go func() {
		_ = sess.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Second):
	}
}

func (s *server) lost(sess *sdk.ClientSession, err error) {
	s.mu.Lock()
	if s.sess != sess {
		s.mu.Unlock()
		return
	}
	s.sess = nil
	if s.sessCancel != nil {
		s.sessCancel()
		s.sessCancel = nil
	}
	msg := "connection lost"
	if err != nil {
		msg += ": " + err.Error()
	}
	if last := s.errTail.last(); last != "" {
		msg += " (server said: " + last + ")"
	}
	s.lastErr, s.since = msg, time.Now()
	s.mu.Unlock()
	slog.Info("mcp: connection lost", "server", s.name, "err", err)
	s.notify()
}

func (s *server) why(err error) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if last := s.errTail.last(); last != "" {
		return err.Error() + "; server said: " + last
	}
	return err.Error()
}

// setErr records a failed connection attempt.
func (s *server) setErr(err error) {
	s.mu.Lock()
	s.lastErr, s.since = err.Error(), time.Now()
	s.attempts++
	s.mu.Unlock()
	s.notify()
}

func (s *server) notify() {
	s.mu.Lock()
	close(s.changedCh)
	s.changedCh = make(chan struct{})
	s.mu.Unlock()
	s.m.changed(s.name)
}

// connecting reports a server on its first connection attempt that no run
// has given up waiting for. A server that failed (or lost its connection)
// has lastErr set and is not waited for: its retries run in the background.
func (s *server) connecting() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running && !s.stopped && s.sess == nil && s.lastErr == "" && !s.givenUp
}

func (s *server) giveUp() {
	s.mu.Lock()
	s.givenUp = true
	s.mu.Unlock()
}

// outcome is what became of a server a run waited for.
func (s *server) outcome() (connected bool, lastErr string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sess != nil, s.lastErr
}

func (s *server) status() Status {
	s.applyMu.Lock()
	names := append([]string{}, s.toolNames...)
	s.applyMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	return Status{Name: s.name, Config: s.cfg, Transport: TransportOf(s.cfg), Connected: s.sess != nil,
		Tools: len(names), ToolNames: names, LastError: s.lastErr, Since: s.since, Server: s.info}
}
