package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"hearth/backend/internal/fakeollama"
	"hearth/backend/mcp"
)

// The test binary doubles as a stdio MCP server: with mcpModeVar set to
// "stdio" TestMain serves one tool (echo) on stdin/stdout after sleeping
// mcpDelayVar milliseconds, as a server that takes a moment to start; with
// "hang" it reads stdin and never answers initialize.
const (
	mcpModeVar  = "HEARTH_CLI_TEST_MCP"
	mcpDelayVar = "HEARTH_CLI_TEST_MCP_DELAY_MS"
)

func TestMain(m *testing.M) {
	if os.Getenv(mainModeVar) != "" { // the test binary as `hearth` itself (serve_test.go)
		os.Exit(Main(os.Args[1:], testInfo, nil, os.Stdout, os.Stderr))
	}
	switch os.Getenv(mcpModeVar) {
	case "":
		os.Exit(m.Run())
	case "hang":
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}
	if ms, err := strconv.Atoi(os.Getenv(mcpDelayVar)); err == nil {
		time.Sleep(time.Duration(ms) * time.Millisecond)
	}
	srv := sdk.NewServer(&sdk.Implementation{Name: "clitest", Version: "1"}, nil)
	type in struct {
		Text string `json:"text"`
	}
	sdk.AddTool(srv, &sdk.Tool{Name: "echo", Description: "Echo the text back."},
		func(_ context.Context, _ *sdk.CallToolRequest, a in) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: " + a.Text}}}, nil, nil
		})
	if err := srv.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "test MCP server:", err)
		os.Exit(1)
	}
}

// mcpConfig is a config.json with one stdio server, name, run by this test binary.
func mcpConfig(name, mode string, delayMS int) string {
	c := map[string]any{"tools": map[string]any{"mcpServers": map[string]any{name: map[string]any{
		"command": os.Args[0], "args": []string{"-test.run=^$"},
		"env": map[string]string{mcpModeVar: mode, mcpDelayVar: strconv.Itoa(delayMS)},
	}}}}
	b, _ := json.Marshal(c)
	return string(b)
}

func offeredTools(t *testing.T, req fakeollama.ChatRequest) []string {
	t.Helper()
	var out []string
	for _, raw := range req.Tools {
		var d struct {
			Function struct{ Name string } `json:"function"`
		}
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatal(err)
		}
		out = append(out, d.Function.Name)
	}
	return out
}

// `hearth agent -m` with a stdio MCP server configured offers the server's
// tools in its very first model request, every time (each run starts the
// server afresh, as each command does).
func TestAgentFirstRequestOffersMCPTools(t *testing.T) {
	fake, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()},
		Default: &fakeollama.Reply{Content: "ok"}})
	setup(t, url)
	writeConfig(t, mcpConfig("notes", "stdio", 100))
	const runs = 20
	for i := range runs {
		before := len(fake.ChatRequests())
		code, out, errOut := runIn(t, "", "agent", "-m", "hello")
		if code != 0 || out != "ok\n" {
			t.Fatalf("run %d: exit %d, stdout %q, stderr %q", i+1, code, out, errOut)
		}
		reqs := fake.ChatRequests()
		if len(reqs) <= before {
			t.Fatalf("run %d made no model request", i+1)
		}
		if got := offeredTools(t, reqs[before]); !slices.Contains(got, "mcp_notes_echo") {
			t.Fatalf("run %d: the first request offers %v, without the MCP tool (stderr %q)", i+1, got, errOut)
		}
	}
}

// A server that never answers holds the run up for the bound at most; the
// run then answers, having said which server it waited for.
func TestAgentHangingMCPServerIsBounded(t *testing.T) {
	fake, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()},
		Default: &fakeollama.Reply{Content: "ok"}})
	setup(t, url)
	writeConfig(t, mcpConfig("stuck", "hang", 0))
	start := time.Now()
	code, out, errOut := runIn(t, "", "agent", "-m", "hello")
	took := time.Since(start)
	if code != 0 || out != "ok\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, want := range []string{"Note: Waiting for MCP server stuck to connect (up to 5 s)", "Note: MCP server stuck did not connect within 5 s"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	// Generous slack: this says "bounded", not "fast" (the command also
	// stops the server before it exits).
	if took > mcp.ReadyWait+20*time.Second {
		t.Errorf("the command took %s; the wait is bounded by %s", took, mcp.ReadyWait)
	}
	if reqs := fake.ChatRequests(); len(reqs) != 1 || slices.ContainsFunc(offeredTools(t, reqs[0]), func(n string) bool { return strings.HasPrefix(n, "mcp_") }) {
		t.Errorf("requests %d", len(reqs))
	}
}
