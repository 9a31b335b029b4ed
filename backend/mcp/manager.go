// Package mcp connects Hearth to MCP servers (docs/design/extensions.md#mcp-servers) with the official Go SDK:
// stdio, SSE and streamable HTTP, configured in the Claude-Desktop shape. A
// server's tools, resources and prompts are offered to the model as tools
// named mcp_<server>_<name>. Connections are made in the background from
// Start (the desktop calls it when it opens, the CLI when the agent is
// built) and retried with backoff; a run waits a bounded time for servers
// still connecting (WaitReady), so a broken or slow server never blocks
// startup or chat for long; a tools/list_changed notification refreshes the
// offered tools.
package mcp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hearth/backend/sandbox"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"sort"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/tools"
)

// Options configure a Manager.
type Options struct {
	// Servers are tools.mcpServers.
	Servers map[string]config.MCPServer
	// Registries receive the wrapped tools (the main agent's and the
	// subagents').
	Registries []*tools.Registry
	// Getenv reads the environment passed on to stdio servers; nil means
	// os.Getenv.
	Getenv func(string) string
	// Dir is the working directory of stdio servers (the workspace).
	Dir string
	// ConnectTimeout bounds one connection attempt (default 30 s).
	ConnectTimeout time.Duration
	// Backoff is the first wait after a failed attempt (default 1 s); it
	// doubles up to MaxBackoff (default 2 min).
	Backoff, MaxBackoff time.Duration
	// HTTPTransport is the base of SSE / streamable HTTP clients.
	HTTPTransport http.RoundTripper
	// News hears when a server's state or tools changed (the MCP view reloads).
	News *event.Broker[event.MCPChanged]
	// Version is sent to servers as the client version.
	Version string
	// ReadyWait bounds WaitReady (default ReadyWait).
	ReadyWait time.Duration
	// Sandbox runs stdio servers under its reaper (nothing they start outlives them) and,
	// for servers with "sandbox": true, confined by Policy; nil starts them directly.
	Sandbox *sandbox.Sandbox
	// Policy is what a sandboxed server may do (the exec tool's rules).
	Policy sandbox.Policy
}

// Status is a server as the Settings view shows it.
type Status struct {
	Name      string              `json:"name"`
	Config    config.MCPServer    `json:"config"`
	Transport string              `json:"transport"`
	Connected bool                `json:"connected"`
	Tools     int                 `json:"tools"` // offered tools, resources and prompts
	ToolNames []string            `json:"toolNames"`
	LastError string              `json:"lastError,omitempty"`
	Since     time.Time           `json:"since,omitzero"` // connected at / last state change
	Server    *sdk.Implementation `json:"server,omitempty"`
}

// Manager owns the server connections. It is safe for concurrent use.
type Manager struct {
	opts Options

	mu      sync.Mutex
	servers map[string]*server
	started bool
	closed  bool

	stateMu sync.Mutex
	stateCh chan struct{} // closed and replaced when any server changes (WaitReady)
}

// New returns a Manager; nothing connects before Start.
func New(opts Options) *Manager {
	if opts.Getenv == nil {
		opts.Getenv = osGetenv
	}
	if opts.ConnectTimeout <= 0 {
		opts.ConnectTimeout = 30 * time.Second
	}
	if opts.Backoff <= 0 {
		opts.Backoff = time.Second
	}
	if opts.MaxBackoff <= 0 {
		opts.MaxBackoff = 2 * time.Minute
	}
	opts.Version = cmp.Or(opts.Version, "dev")
	if opts.ReadyWait <= 0 {
		opts.ReadyWait = ReadyWait
	}
	m := &Manager{opts: opts, servers: map[string]*server{}, stateCh: make(chan struct{})}
	for name, c := range opts.Servers {
		m.servers[name] = newServer(m, name, c)
	}
	return m
}

// Start connects every server in the background and returns at once;
// calling it again does nothing.
func (m *Manager) Start() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.started || m.closed {
		return
	}
	m.started = true
	for _, s := range m.servers {
		s.start()
	}
}

// Set adds or replaces a server; a running one is reconnected with the new
// settings (its tools are re-registered).
func (m *Manager) Set(name string, c config.MCPServer) {
	m.mu.Lock()
	old := m.servers[name]
	s := newServer(m, name, c)
	m.servers[name] = s
	started := m.started && !m.closed
	m.mu.Unlock()
	if old != nil {
		old.stop()
	}
	if started {
		s.start()
	}
	m.changed(name)
}

// Remove disconnects a server and withdraws its tools.
func (m *Manager) Remove(name string) {
	m.mu.Lock()
	s := m.servers[name]
	delete(m.servers, name)
	m.mu.Unlock()
	if s != nil {
		s.stop()
		m.changed(name)
	}
}

// Statuses lists every configured server by name.
func (m *Manager) Statuses() []Status {
	m.mu.Lock()
	list := slices.Collect(maps.Values(m.servers))
	m.mu.Unlock()
	out := make([]Status, len(list))
	for i, s := range list {
		out[i] = s.status()
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Close disconnects every server and withdraws their tools.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	list := slices.Collect(maps.Values(m.servers))
	m.mu.Unlock()
	for _, s := range list {
		s.stop()
	}
}

// TestResult is what a connection test found.
type TestResult struct {
	Transport string              `json:"transport"`
	Server    *sdk.Implementation `json:"server,omitempty"`
	Tools     []string            `json:"tools"` // the names offered to the model
	Duration  time.Duration       `json:"durationMs"`
}

// Test connects to c once (apart from any running connection), lists what it
// would offer and disconnects.
func (m *Manager) Test(ctx context.Context, name string, c config.MCPServer) (TestResult, error) {
	res := TestResult{Transport: TransportOf(c)}
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, m.opts.ConnectTimeout)
	defer cancel()
	errTail := &tail{}
	sess, err := m.connect(ctx, c, errTail, nil)
	if err != nil {
		return res, fmt.Errorf("MCP server %s: %w", name, explain(err, errTail))
	}
	defer sess.Close()
	if ir := sess.InitializeResult(); ir != nil {
		res.Server = ir.ServerInfo
	}
	probe := &server{m: m, name: name, cfg: c}
	ws, err := probe.list(ctx, sess)
	if err != nil {
		return res, fmt.Errorf("MCP server %s: list tools: %w", name, err)
	}
	for _, w := range ws {
		res.Tools = append(res.Tools, w.name)
	}
	res.Duration = time.Since(start)
	return res, nil
}

// connect opens one session; handlers (list_changed) go to s when given.
func (m *Manager) connect(ctx context.Context, c config.MCPServer, errTail *tail, s *server) (*sdk.ClientSession, error) {
	t, err := m.transport(c, errTail)
	if err != nil {
		return nil, err
	}
	opts := &sdk.ClientOptions{Capabilities: &sdk.ClientCapabilities{}}
	if s != nil {
		refresh := func() { go s.refresh() }
		opts.ToolListChangedHandler = func(context.Context, *sdk.ToolListChangedRequest) { refresh() }
		opts.PromptListChangedHandler = func(context.Context, *sdk.PromptListChangedRequest) { refresh() }
		opts.ResourceListChangedHandler = func(context.Context, *sdk.ResourceListChangedRequest) { refresh() }
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "hearth", Version: m.opts.Version}, opts)
	return client.Connect(ctx, t, nil)
}

func (m *Manager) changed(name string) {
	m.stateMu.Lock()
	close(m.stateCh)
	m.stateCh = make(chan struct{})
	m.stateMu.Unlock()
	if m.opts.News != nil {
		m.opts.News.Publish(event.MCPChanged{Server: name})
	}
}

func (m *Manager) register(ts ...tools.Tool) {
	for _, r := range m.opts.Registries {
		if err := r.Register(ts...); err != nil {
			slog.Warn("mcp: register tools", "err", err)
		}
	}
}

func (m *Manager) unregister(names ...string) {
	for _, r := range m.opts.Registries {
		for _, n := range names {
			r.Unregister(n)
		}
	}
}

// explain turns a connection error into one line, with the stdio server's
// last stderr line and a hint for the common cases.
func explain(err error, errTail *tail) error {
	if errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("no answer in time: %w (hint: check that the server starts and speaks MCP)", err)
	}
	if last := errTail.last(); last != "" {
		return fmt.Errorf("%w (server said: %s)", err, last)
	}
	return err
}

func enabled(c config.MCPServer, remote, wrapped string) bool {
	if len(c.EnabledTools) == 0 {
		return true
	}
	return slices.Contains(c.EnabledTools, "*") || slices.Contains(c.EnabledTools, remote) ||
		slices.Contains(c.EnabledTools, wrapped)
}
