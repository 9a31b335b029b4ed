package mcp

import (
	"cmp"
	"fmt"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"hearth/backend/config"
)

// Transports, as Status reports them.
const (
	TransportStdio      = "stdio"
	TransportSSE        = "sse"
	TransportStreamable = "streamableHttp"
)

// TransportOf picks the transport as Claude Desktop configs expect
// (docs/design/extensions.md#mcp-servers): the type if given,
// else a command means stdio, a URL ending in /sse means SSE, any other URL
// streamable HTTP.
func TransportOf(c config.MCPServer) string {
	switch strings.ToLower(c.Type) {
	case "stdio":
		return TransportStdio
	case "sse":
		return TransportSSE
	case "http", "streamablehttp", "streamable-http", "streamable_http":
		return TransportStreamable
	}
	if c.Command != "" {
		return TransportStdio
	}
	if strings.HasSuffix(strings.TrimRight(strings.SplitN(c.URL, "?", 2)[0], "/"), "/sse") {
		return TransportSSE
	}
	return TransportStreamable
}

// baseEnvKeys are passed to a stdio server besides its own env, like Claude
// Desktop does: enough to find programs and a home, no secrets of Hearth's.
var baseEnvKeys = []string{"HOME", "LOGNAME", "USER", "PATH", "SHELL", "TERM", "LANG", "LC_ALL", "TMPDIR",
	"XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "SYSTEMROOT", "APPDATA", "USERPROFILE"}

func serverEnv(getenv func(string) string, extra map[string]string) []string {
	env := []string{}
	for _, k := range baseEnvKeys {
		if _, over := extra[k]; over {
			continue
		}
		if v := getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		env = append(env, k+"="+extra[k])
	}
	return env
}

// headerTransport adds the configured headers to every request.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
}

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range t.headers {
		r.Header.Set(k, v)
	}
	return t.base.RoundTrip(r)
}

// transport builds the SDK transport for one connection attempt; stderr
// collects a stdio server's last output for error messages.
func (m *Manager) transport(c config.MCPServer, stderr *tail) (sdk.Transport, error) {
	switch TransportOf(c) {
	case TransportStdio:
		if c.Command == "" {
			return nil, fmt.Errorf("type is stdio but no command is set (hint: add \"command\")")
		}
		cmd := exec.Command(c.Command, c.Args...)
		cmd.Env = serverEnv(m.opts.Getenv, c.Env)
		cmd.Stderr = stderr
		if m.opts.Dir != "" {
			cmd.Dir = m.opts.Dir
		}
		if m.opts.Sandbox != nil {
			p := m.opts.Policy
			p.Confine = c.Sandbox
			m.opts.Sandbox.Wrap(cmd, p)
		}
		return newStdioTransport(cmd, 2*time.Second), nil
	case TransportSSE:
		if c.URL == "" {
			return nil, fmt.Errorf("type is sse but no url is set")
		}
		return &sdk.SSEClientTransport{Endpoint: c.URL, HTTPClient: m.httpClient(c)}, nil
	default:
		if c.URL == "" {
			return nil, fmt.Errorf("no url is set (hint: give \"command\" for a local server or \"url\" for a remote one)")
		}
		return &sdk.StreamableClientTransport{Endpoint: c.URL, HTTPClient: m.httpClient(c), MaxRetries: 2}, nil
	}
}

func (m *Manager) httpClient(c config.MCPServer) *http.Client {
	base := cmp.Or(m.opts.HTTPTransport, http.DefaultTransport)
	if len(c.Headers) == 0 {
		return &http.Client{Transport: base}
	}
	return &http.Client{Transport: headerTransport{base: base, headers: maps.Clone(c.Headers)}}
}

// tail keeps the last few KB a stdio server wrote to stderr.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailMax = 4096

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailMax {
		t.buf = t.buf[len(t.buf)-tailMax:]
	}
	return len(p), nil
}

// last returns the last non-empty line written.
func (t *tail) last() string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

func osGetenv(k string) string { return os.Getenv(k) }
