package mcp

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/backend/config"
	"hearth/backend/tools"
)

func stdioServer(extraEnv map[string]string) config.MCPServer {
	env := map[string]string{serverEnvVar: "stdio"}
	for k, v := range extraEnv {
		env[k] = v
	}
	return config.MCPServer{Command: os.Args[0], Args: []string{"-test.run=^$"}, Env: env}
}

type fixture struct {
	reg *tools.Registry
	m   *Manager
}

func newManager(t *testing.T, servers map[string]config.MCPServer) *fixture {
	t.Helper()
	f := &fixture{reg: tools.NewRegistry(tools.RegistryOptions{})}
	f.m = New(Options{Servers: servers, Registries: []*tools.Registry{f.reg}, Backoff: 20 * time.Millisecond,
		MaxBackoff: 200 * time.Millisecond, ConnectTimeout: 10 * time.Second})
	t.Cleanup(f.m.Close)
	return f
}

// waitFor polls cond for up to 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (f *fixture) status(name string) Status {
	for _, s := range f.m.Statuses() {
		if s.Name == name {
			return s
		}
	}
	return Status{}
}

func (f *fixture) connected(t *testing.T, name string) Status {
	t.Helper()
	waitFor(t, name+" to connect", func() bool { return f.status(name).Connected })
	return f.status(name)
}

func (f *fixture) call(name, args string) tools.Result {
	return f.reg.Call(context.Background(), name, json.RawMessage(args))
}

func TestTransportOf(t *testing.T) {
	cases := []struct {
		c    config.MCPServer
		want string
	}{
		{config.MCPServer{Command: "npx"}, TransportStdio},
		{config.MCPServer{URL: "http://h/sse"}, TransportSSE},
		{config.MCPServer{URL: "http://h/sse/?k=1"}, TransportSSE},
		{config.MCPServer{URL: "http://h/mcp"}, TransportStreamable},
		{config.MCPServer{URL: "http://h/sse", Type: "http"}, TransportStreamable},
		{config.MCPServer{URL: "http://h/mcp", Type: "sse"}, TransportSSE},
		{config.MCPServer{URL: "http://h/mcp", Type: "streamableHttp"}, TransportStreamable},
		{config.MCPServer{Command: "x", URL: "http://h/mcp", Type: "stdio"}, TransportStdio},
	}
	for _, c := range cases {
		if got := TransportOf(c.c); got != c.want {
			t.Errorf("TransportOf(%+v) = %s, want %s", c.c, got, c.want)
		}
	}
	if n := ToolName("my server", "read.file/x"); n != "mcp_my_server_read_file_x" {
		t.Errorf("ToolName = %s", n)
	}
	if n := ToolName("s", strings.Repeat("x", 100)); len(n) != 64 {
		t.Errorf("long name not cut: %d", len(n))
	}
}

// Tools, resources and prompts over each of the three transports.
func TestAllTransports(t *testing.T) {
	h := startHTTP(t)
	t.Setenv("HEARTH_SECRET_LEAK", "sk-should-not-reach-the-server")
	hdr := map[string]string{"Authorization": "Bearer tok-1"}
	servers := map[string]config.MCPServer{
		"stdio":  stdioServer(map[string]string{"MCP_TEST_VALUE": "v1"}),
		"sse":    {URL: h.URL + "/sse", Headers: hdr},
		"stream": {URL: h.URL + "/mcp", Headers: hdr},
	}
	f := newManager(t, servers)
	start := time.Now()
	f.m.Start()
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("Start blocked for %s", d)
	}
	for name, want := range map[string]string{"stdio": TransportStdio, "sse": TransportSSE, "stream": TransportStreamable} {
		t.Run(name, func(t *testing.T) {
			st := f.connected(t, name)
			if st.Transport != want || st.Tools != 12 || st.LastError != "" || st.Server == nil || st.Server.Name != "testsrv" {
				t.Errorf("status %+v", st)
			}
			p := "mcp_" + name + "_"
			for _, c := range []struct{ tool, args, want string }{
				{"echo", `{"text": "hi"}`, "echo: hi"},
				{"add", `{"a": "2", "b": 3}`, "5"}, // "2" cast to the schema's integer
				{"notes", `{}`, "Note one"},
				{"greet", `{"name": "Ann"}`, "[user]\nHello, Ann!"},
			} {
				if r := f.call(p+c.tool, c.args); r.IsError || r.Content != c.want {
					t.Errorf("%s: %+v, want %q", c.tool, r, c.want)
				}
			}
			if r := f.call(p+"fail", `{}`); !r.IsError || r.Content != "Error: it broke" {
				t.Errorf("fail: %+v", r)
			}
			if r := f.call(p+"greet", `{}`); !r.IsError || !strings.Contains(r.Content, "name") {
				t.Errorf("prompt without its required argument: %+v", r)
			}
		})
	}
	if r := f.call("mcp_stdio_env", `{}`); r.Content != "v1|" {
		t.Errorf("stdio env: %q (env must be passed, other variables not)", r.Content)
	}
	if a := h.auth.Load().(string); a != "Bearer tok-1" {
		t.Errorf("headers not sent: %q", a)
	}
	// MCP tools come after built-ins, by name (docs/design/prompt-size.md#stable-order).
	if err := f.reg.Register(tools.Builtins(tools.Options{Policy: tools.Policy{Workspace: t.TempDir()}})...); err != nil {
		t.Fatal(err)
	}
	names := f.reg.Names()
	first := slices.IndexFunc(names, func(n string) bool { return strings.HasPrefix(n, "mcp_") })
	if first < 0 || !slices.IsSorted(names[first:]) || slices.ContainsFunc(names[first:], func(n string) bool { return !strings.HasPrefix(n, "mcp_") }) {
		t.Errorf("order %v", names)
	}
}

func TestEnabledTools(t *testing.T) {
	h := startHTTP(t)
	f := newManager(t, map[string]config.MCPServer{"x": {URL: h.URL + "/mcp", EnabledTools: []string{"echo", "mcp_x_greet"}}})
	f.m.Start()
	st := f.connected(t, "x")
	if !slices.Equal(st.ToolNames, []string{"mcp_x_echo", "mcp_x_greet"}) {
		t.Fatalf("tools %v", st.ToolNames)
	}
	if r := f.call("mcp_x_add", `{"a":1,"b":2}`); !r.IsError || !strings.Contains(r.Content, "unknown tool") {
		t.Errorf("filtered tool callable: %+v", r)
	}
}

// A stdio server that dies in the middle of a call: the call fails with a
// clear message and the next call works on a fresh process.
func TestCrashMidCallAndReconnect(t *testing.T) {
	f := newManager(t, map[string]config.MCPServer{"s": stdioServer(nil)})
	f.m.Start()
	f.connected(t, "s")
	r := f.call("mcp_s_crash", `{}`)
	if !r.IsError || !strings.Contains(r.Content, "MCP server s") {
		t.Fatalf("crash: %+v", r)
	}
	t.Logf("crash result: %s", r.Content)
	r = f.call("mcp_s_echo", `{"text": "again"}`)
	if r.IsError || r.Content != "echo: again" {
		t.Fatalf("after the crash: %+v (status %+v)", r, f.status("s"))
	}
	if st := f.status("s"); !st.Connected || st.Tools != 12 {
		t.Errorf("status after reconnect %+v", st)
	}
}

// A server that never answers a call: the call ends at toolTimeout and the
// connection stays usable.
func TestHangTimesOut(t *testing.T) {
	h := startHTTP(t)
	f := newManager(t, map[string]config.MCPServer{
		"h": {URL: h.URL + "/mcp", ToolTimeout: 1},
		"s": func() config.MCPServer { c := stdioServer(nil); c.ToolTimeout = 1; return c }(),
	})
	f.m.Start()
	for _, name := range []string{"h", "s"} {
		f.connected(t, name)
		start := time.Now()
		r := f.call("mcp_"+name+"_hang", `{}`)
		d := time.Since(start)
		if !r.IsError || !strings.Contains(r.Content, "timed out after 1s") || d > 2500*time.Millisecond {
			t.Errorf("%s hang: %+v after %s", name, r, d)
		}
		if r := f.call("mcp_"+name+"_echo", `{"text": "still here"}`); r.Content != "echo: still here" {
			t.Errorf("%s after the hang: %+v", name, r)
		}
	}
}

// A server that is down at start is retried with backoff in the
// background; it connects once it is up, and a call meanwhile says why it
// cannot run.
func TestReconnectWithBackoff(t *testing.T) {
	h := startHTTP(t)
	h.down.Store(true)
	f := newManager(t, map[string]config.MCPServer{"late": {URL: h.URL + "/mcp"}})
	f.m.Start()
	waitFor(t, "a failed attempt", func() bool { return f.status("late").LastError != "" })
	st := f.status("late")
	if st.Connected || !strings.Contains(st.LastError, "503") && !strings.Contains(st.LastError, "Service Unavailable") {
		t.Errorf("status while down %+v", st)
	}
	h.down.Store(false)
	st = f.connected(t, "late")
	if st.LastError != "" || st.Tools != 12 {
		t.Errorf("status after recovery %+v", st)
	}
	if r := f.call("mcp_late_echo", `{"text": "up"}`); r.Content != "echo: up" {
		t.Errorf("call %+v", r)
	}
}

// A broken command and a server that never answers the handshake block
// neither Start nor other tools; their status says what is wrong.
func TestBrokenServerNeverBlocks(t *testing.T) {
	h := startHTTP(t)
	f := newManager(t, map[string]config.MCPServer{
		"missing": {Command: "/nonexistent/hearth-mcp-server"},
		"good":    {URL: h.URL + "/mcp"},
	})
	f.m.opts.ConnectTimeout = 500 * time.Millisecond
	start := time.Now()
	f.m.Start()
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("Start blocked for %s", d)
	}
	f.connected(t, "good")
	waitFor(t, "the error", func() bool { return f.status("missing").LastError != "" })
	if st := f.status("missing"); st.Connected || !strings.Contains(st.LastError, "no such file") {
		t.Errorf("missing: %+v", st)
	}
	if r := f.call("mcp_good_echo", `{"text": "ok"}`); r.Content != "echo: ok" {
		t.Errorf("good server: %+v", r)
	}
	res, err := f.m.Test(context.Background(), "missing", config.MCPServer{Command: "/nonexistent/hearth-mcp-server"})
	if err == nil || !strings.Contains(err.Error(), "MCP server missing") {
		t.Errorf("Test of a broken server: %+v %v", res, err)
	}
}

// notifications/tools/list_changed refreshes the offered tools.
func TestListChanged(t *testing.T) {
	h := startHTTP(t)
	f := newManager(t, map[string]config.MCPServer{"s": stdioServer(nil), "h": {URL: h.URL + "/mcp"}})
	f.m.Start()
	for _, name := range []string{"s", "h"} {
		f.connected(t, name)
		if r := f.call("mcp_"+name+"_grow", `{}`); r.Content != "grown" {
			t.Fatalf("%s grow: %+v", name, r)
		}
		waitFor(t, name+" to offer the late tool", func() bool { _, ok := f.reg.Get("mcp_" + name + "_late"); return ok })
		if r := f.call("mcp_"+name+"_late", `{}`); r.Content != "late tool here" {
			t.Errorf("%s late: %+v", name, r)
		}
		// The template added with it arrives with resources/list_changed.
		waitFor(t, name+" to offer the late template", func() bool { _, ok := f.reg.Get("mcp_" + name + "_later"); return ok })
		if r := f.call("mcp_"+name+"_later", `{"x": "1"}`); r.Content != "later test://later/1" {
			t.Errorf("%s later: %+v", name, r)
		}
		if st := f.status(name); st.Tools != 14 {
			t.Errorf("%s tools after refresh: %d", name, st.Tools)
		}
	}
}

func TestSetRemoveAndTest(t *testing.T) {
	h := startHTTP(t)
	f := newManager(t, map[string]config.MCPServer{})
	f.m.Start()
	res, err := f.m.Test(context.Background(), "x", config.MCPServer{URL: h.URL + "/sse"})
	if err != nil || res.Transport != TransportSSE || !slices.Contains(res.Tools, "mcp_x_echo") || res.Server.Name != "testsrv" {
		t.Fatalf("Test: %+v %v", res, err)
	}
	if _, ok := f.reg.Get("mcp_x_echo"); ok {
		t.Error("Test registered tools")
	}
	f.m.Set("x", config.MCPServer{URL: h.URL + "/mcp", EnabledTools: []string{"echo"}})
	f.connected(t, "x")
	if r := f.call("mcp_x_echo", `{"text":"a"}`); r.Content != "echo: a" {
		t.Errorf("after Set: %+v", r)
	}
	f.m.Set("x", config.MCPServer{URL: h.URL + "/mcp", EnabledTools: []string{"add"}})
	waitFor(t, "the new tool set", func() bool { _, ok := f.reg.Get("mcp_x_add"); return ok })
	if _, ok := f.reg.Get("mcp_x_echo"); ok {
		t.Error("the old tool stayed after Set")
	}
	f.m.Remove("x")
	if len(f.reg.Names()) != 0 || len(f.m.Statuses()) != 0 {
		t.Errorf("after Remove: %v %v", f.reg.Names(), f.m.Statuses())
	}
}

func TestParseClaudeDesktop(t *testing.T) {
	full := `{"mcpServers": {
	  "filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me"]},
	  "remote": {"url": "https://mcp.example.com/sse", "headers": {"Authorization": "Bearer ${TOKEN}"}}
	}, "globalShortcut": "Ctrl+Space"}`
	for _, in := range []string{
		full,
		`{"filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me"]}, "remote": {"url": "https://mcp.example.com/sse", "headers": {"Authorization": "Bearer ${TOKEN}"}}}`,
		`"mcpServers": {"filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me"]}, "remote": {"url": "https://mcp.example.com/sse", "headers": {"Authorization": "Bearer ${TOKEN}"}}},`,
		`{"tools": {"mcpServers": {"filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me"]}, "remote": {"url": "https://mcp.example.com/sse", "headers": {"Authorization": "Bearer ${TOKEN}"}}}}}`,
	} {
		got, err := ParseClaudeDesktop(in)
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if len(got) != 2 || got["filesystem"].Command != "npx" || len(got["filesystem"].Args) != 3 ||
			got["remote"].Headers["Authorization"] != "Bearer ${TOKEN}" || TransportOf(got["remote"]) != TransportSSE {
			t.Errorf("%s: %+v", in, got)
		}
	}
	one, err := ParseClaudeDesktop(`"git": {"command": "uvx", "args": ["mcp-server-git"]}`)
	if err != nil || one["git"].Command != "uvx" {
		t.Errorf("fragment: %+v %v", one, err)
	}
	for in, want := range map[string]string{
		"":                          "nothing to import",
		"{not json":                 "not valid JSON",
		`{"mcpServers": {"x": {}}}`: `x: give "command"`,
		`{"mcpServers": {"x": {"url": "ftp://a"}}}`:               "not http(s)",
		`{"mcpServers": {}}`:                                      "no servers found",
		`{"mcpServers": {"x": {"command": "a", "type": "grpc"}}}`: "type \"grpc\"",
	} {
		if _, err := ParseClaudeDesktop(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}
