// Package egress is the one door Hearth's network traffic goes out through: every
// HTTP client of Hearth's services (the model providers, web tools, MCP over HTTP,
// the Ollama check) dials through a Guard. The Guard refuses, in local-only mode,
// every connection that is not to this machine or to the configured Ollama host,
// and records every connection it was asked for in the egress log, so "what you
// say stays here" can be checked rather than trusted.
package egress

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Code is the error code a refused connection carries (event.ErrorData.Code and
// the window's translations).
const Code = "local_only"

// ErrLocalOnly is what a refused connection's error wraps.
var ErrLocalOnly = errors.New("local-only mode refuses connections that leave this machine")

// Refused is the error of a connection local-only mode refused.
type Refused struct {
	Host    string // host:port
	Purpose string
}

func (r *Refused) Error() string {
	return fmt.Sprintf("%s (%s to %s) (hint: turn off local-only mode in Settings, or set \"localOnly\": false in config.json, to allow it)",
		ErrLocalOnly, r.Purpose, r.Host)
}

func (r *Refused) Unwrap() error { return ErrLocalOnly }

// Entry is one line of the egress log: a connection Hearth opened or was refused.
type Entry struct {
	Time time.Time `json:"time"`
	Host string    `json:"host"` // host:port as asked for: the destination, also when a proxy carried it
	// Via is the proxy (host:port) the request went through, if one did.
	Via     string `json:"via,omitempty"`
	Purpose string `json:"purpose"` // what it was for: "model provider openai", "web_fetch", "mcp server x"
	// Local is set for connections to this machine (loopback) or the configured
	// Ollama host, which local-only mode allows.
	Local   bool   `json:"local,omitempty"`
	Refused bool   `json:"refused,omitempty"`
	Error   string `json:"error,omitempty"` // the dial's error, when it failed
}

// Options configure a Guard.
type Options struct {
	// LocalOnly says whether local-only mode is on (read at every dial, so a
	// change in Settings applies to the next connection).
	LocalOnly func() bool
	// OllamaHost is the configured Ollama URL or host[:port]; its host is
	// allowed in local-only mode (it may live on another machine of the LAN).
	OllamaHost func() string
	// Dir is where the log is kept (one JSONL file per day); nil or "" keeps it
	// in memory only.
	Dir func() string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Proxy picks the proxy for a request outside local-only mode; nil reads
	// HTTP_PROXY, HTTPS_PROXY and NO_PROXY from the environment at every request.
	Proxy ProxyFunc
	// Resolver looks names up for the Guard's dialer; nil means the system's.
	// Names under .localhost never reach it.
	Resolver *net.Resolver
}

// keep bounds the in-memory log the Activity view reads.
const keep = 500

// Guard decides and records outbound connections. It is safe for concurrent use;
// the zero value is not: use New.
type Guard struct {
	opts   Options
	dialer net.Dialer

	mu         sync.Mutex
	ring       []Entry
	transports map[string]*http.Transport
	proxies    map[string]bool // purpose + " " + proxy host:port requests went through
}

// New returns a Guard.
func New(opts Options) *Guard {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Guard{opts: opts, dialer: net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second, Resolver: opts.Resolver}}
}

// DialFunc is the shape of http.Transport.DialContext.
type DialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// Dial is the Guard's own dialer for purpose.
func (g *Guard) Dial(purpose string) DialFunc { return g.Wrap(purpose, g.dialHost) }

// Wrap puts the Guard in front of another dialer (web_fetch's, which refuses
// private addresses on its own).
func (g *Guard) Wrap(purpose string, dial DialFunc) DialFunc {
	if g == nil {
		return dial
	}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		e := Entry{Time: g.opts.Now(), Host: addr, Purpose: purpose, Local: g.local(addr)}
		if !e.Local && g.opts.LocalOnly != nil && g.opts.LocalOnly() {
			e.Refused = true
			g.record(e)
			return nil, &Refused{Host: addr, Purpose: purpose}
		}
		c, err := dial(ctx, network, addr)
		if err != nil {
			e.Error = err.Error()
		} else if g.viaProxy(purpose, addr) {
			// The proxy's connection: the requests it carries are logged under
			// their destinations (proxy.go); a failed dial is still logged here.
			return c, nil
		}
		g.record(e)
		return c, err
	}
}

// Transport is an HTTP transport whose connections all go through the Guard. In
// local-only mode no proxy is used, so every request is judged by its own host; a
// proxy from the environment is honoured otherwise, and the log names the
// destination and the proxy (proxy.go).
//
// It is one transport per purpose, shared: a model list or check asked for again
// reuses the idle connection of the last one instead of opening another, and
// transports that are dropped do not keep idle connections whose timeouts wake the
// app at rest long after start-up (docs/performance.md).
func (g *Guard) Transport(purpose string) *http.Transport {
	g.mu.Lock()
	defer g.mu.Unlock()
	if t, ok := g.transports[purpose]; ok {
		return t
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = g.Dial(purpose)
	t.Proxy = g.proxy(purpose)
	if g.transports == nil {
		g.transports = map[string]*http.Transport{}
	}
	g.transports[purpose] = t
	return t
}

// CloseIdle closes the idle keep-alive connections of every transport. The app calls it
// once it rests after work: net/http would close them 90 s after their last request,
// waking the app then for nothing; the next request opens a connection again.
func (g *Guard) CloseIdle() {
	if g == nil {
		return
	}
	g.mu.Lock()
	ts := make([]*http.Transport, 0, len(g.transports))
	for _, t := range g.transports {
		ts = append(ts, t)
	}
	g.mu.Unlock()
	for _, t := range ts {
		t.CloseIdleConnections()
	}
}

// Client is an HTTP client over Transport(purpose).
func (g *Guard) Client(purpose string, timeout time.Duration) *http.Client {
	return &http.Client{Transport: g.Transport(purpose), Timeout: timeout}
}

// Refuse records a connection refused before it was dialled (a tool that knows
// the host is not local: no DNS lookup leaves the machine either) and returns
// its error.
func (g *Guard) Refuse(purpose, host string) error {
	g.record(Entry{Time: g.opts.Now(), Host: host, Purpose: purpose, Refused: true})
	return &Refused{Host: host, Purpose: purpose}
}

// Allows reports whether a connection to host (a name or host:port) would be let
// through: always outside local-only mode; in it, only to this machine or the Ollama host.
func (g *Guard) Allows(host string) bool { return !g.LocalOnly() || g.local(host) }

// LocalOnly reports whether local-only mode is on.
func (g *Guard) LocalOnly() bool { return g != nil && g.opts.LocalOnly != nil && g.opts.LocalOnly() }

// local reports whether addr is this machine or the configured Ollama host.
func (g *Guard) local(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if Loopback(host) {
		return true
	}
	if g.opts.OllamaHost != nil {
		if oh := hostOf(g.opts.OllamaHost()); oh != "" && strings.EqualFold(oh, host) {
			return true
		}
	}
	return false
}

// Loopback reports whether host names this machine: "localhost" (and names
// under .localhost, which resolvers keep on the machine) or a loopback address.
func Loopback(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// hostOf is the host of a URL or host[:port] ("http://box:11434" → "box").
func hostOf(v string) string {
	v = strings.TrimSpace(v)
	if i := strings.Index(v, "://"); i >= 0 {
		v = v[i+3:]
	}
	v, _, _ = strings.Cut(v, "/")
	if h, _, err := net.SplitHostPort(v); err == nil {
		return strings.Trim(h, "[]")
	}
	return strings.Trim(v, "[]")
}

// record keeps e in memory and appends it to today's file.
func (g *Guard) record(e Entry) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.ring = append(g.ring, e)
	if len(g.ring) > keep {
		g.ring = append(g.ring[:0:0], g.ring[len(g.ring)-keep:]...)
	}
	dir := ""
	if g.opts.Dir != nil {
		dir = g.opts.Dir()
	}
	if dir == "" {
		return
	}
	line, err := json.Marshal(e)
	if err != nil {
		return
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return
	}
	f, err := os.OpenFile(filepath.Join(dir, e.Time.UTC().Format("2006-01-02")+".jsonl"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	_, _ = f.Write(append(line, '\n'))
	_ = f.Close()
}

// Recent returns the newest entries first, at most n (n <= 0: all kept).
func (g *Guard) Recent(n int) []Entry {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if n <= 0 || n > len(g.ring) {
		n = len(g.ring)
	}
	out := make([]Entry, 0, n)
	for i := len(g.ring) - 1; i >= 0 && len(out) < n; i-- {
		out = append(out, g.ring[i])
	}
	return out
}
