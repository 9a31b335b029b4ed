package mcp

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/backend/config"
	"hearth/backend/tools"
)

// readyManager is newManager with the wait bound set, started.
func readyManager(t *testing.T, bound time.Duration, servers map[string]config.MCPServer) *fixture {
	t.Helper()
	f := &fixture{reg: tools.NewRegistry(tools.RegistryOptions{})}
	f.m = New(Options{Servers: servers, Registries: []*tools.Registry{f.reg}, Backoff: 20 * time.Millisecond,
		MaxBackoff: 200 * time.Millisecond, ConnectTimeout: time.Minute, ReadyWait: bound})
	t.Cleanup(f.m.Close)
	f.m.Start()
	return f
}

func (f *fixture) mcpTools() []string {
	var out []string
	for _, n := range f.reg.Names() {
		if strings.HasPrefix(n, "mcp_") {
			out = append(out, n)
		}
	}
	return out
}

// A server that takes a while to start is waited for, and its tools are
// registered by the time the wait returns (not a moment later).
func TestWaitReadyWaitsForSlowServer(t *testing.T) {
	f := readyManager(t, time.Minute, map[string]config.MCPServer{
		"slow": stdioServer(map[string]string{delayVar: "600"}),
	})
	var told []string
	start := time.Now()
	rep := f.m.WaitReady(context.Background(), func(names []string) { told = names })
	t.Logf("waited %s", time.Since(start))
	if !slices.Contains(f.mcpTools(), "mcp_slow_echo") {
		t.Fatalf("tools after the wait: %v (report %+v)", f.mcpTools(), rep)
	}
	// The server sleeps 600 ms before it speaks: longer than the quiet spell.
	if !slices.Equal(told, []string{"slow"}) || !slices.Equal(rep.Waited, []string{"slow"}) || rep.Late != nil || rep.Failed != nil {
		t.Errorf("told %v, report %+v", told, rep)
	}
	if rep := f.m.WaitReady(context.Background(), nil); rep.Waited != nil || rep.Late != nil {
		t.Errorf("a connected server was waited for again: %+v", rep)
	}
}

// A server that never answers initialize holds a wait for the bound only,
// once: the next wait does not wait for it again.
func TestWaitReadyHangingServerIsBounded(t *testing.T) {
	const bound = time.Second
	f := readyManager(t, bound, map[string]config.MCPServer{
		"stuck": stdioServer(map[string]string{serverEnvVar: "hang"}),
	})
	var told []string
	start := time.Now()
	rep := f.m.WaitReady(context.Background(), func(names []string) { told = names })
	took := time.Since(start)
	if !slices.Equal(rep.Late, []string{"stuck"}) || !slices.Contains(told, "stuck") || rep.Bound != bound {
		t.Errorf("told %v, report %+v", told, rep)
	}
	if took > bound+20*time.Second { // generous: only "bounded", never "fast"
		t.Errorf("the wait took %s with a bound of %s", took, bound)
	}
	if rep := f.m.WaitReady(context.Background(), nil); rep.Waited != nil || rep.Late != nil {
		t.Errorf("the hanging server was waited for again: %+v", rep)
	}
	if st := f.status("stuck"); st.Connected {
		t.Errorf("status %+v", st)
	}
}

// A server that fails while waited for is reported with its error; a failed
// server is not waited for by the next run (its retries go on unwaited).
func TestWaitReadyFailedServer(t *testing.T) {
	f := readyManager(t, time.Minute, map[string]config.MCPServer{
		"broken": stdioServer(map[string]string{serverEnvVar: "fail", delayVar: "600"}),
	})
	rep := f.m.WaitReady(context.Background(), nil)
	if !slices.Equal(rep.Waited, []string{"broken"}) || !strings.Contains(rep.Failed["broken"], "cannot open the database") || rep.Late != nil {
		t.Fatalf("report %+v", rep)
	}
	if rep := f.m.WaitReady(context.Background(), nil); rep.Waited != nil || rep.Late != nil || rep.Failed != nil {
		t.Errorf("the failed server was waited for again: %+v", rep)
	}
}

// No servers, or a cancelled run: no wait.
func TestWaitReadyNothingToWaitFor(t *testing.T) {
	f := readyManager(t, time.Minute, nil)
	if rep := f.m.WaitReady(context.Background(), func([]string) { t.Error("told about nothing") }); rep.Waited != nil {
		t.Errorf("report %+v", rep)
	}
	g := readyManager(t, time.Minute, map[string]config.MCPServer{"stuck": stdioServer(map[string]string{serverEnvVar: "hang"})})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if rep := g.m.WaitReady(ctx, nil); rep.Late != nil {
		t.Errorf("a cancelled wait gave up on the server: %+v", rep)
	}
	// Not started: nothing is connecting yet, so nothing is waited for.
	h := New(Options{Servers: map[string]config.MCPServer{"x": stdioServer(nil)}})
	defer h.Close()
	if rep := h.WaitReady(context.Background(), nil); rep.Waited != nil {
		t.Errorf("report %+v", rep)
	}
}
