package mcp

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The test binary doubles as a stdio MCP server: with this variable set,
// TestMain serves MCP on stdin/stdout instead of running the tests.
const serverEnvVar = "HEARTH_MCP_TEST_SERVER"

// With these set, the stdio test server first starts `sh -c $childCmdVar` and writes the
// child's pid to the file named by childPIDFileVar.
const (
	childPIDFileVar = "HEARTH_MCP_TEST_CHILD_PIDFILE"
	childCmdVar     = "HEARTH_MCP_TEST_CHILD_CMD"
)

// probeVar makes the stdio test server try, as it starts, to write the file it names
// and to read the file probeReadVar names, and say on stderr what happened: a
// sandboxed server may do neither outside its writable folders and Hearth's folders.
const (
	probeVar     = "HEARTH_MCP_TEST_PROBE_WRITE"
	probeReadVar = "HEARTH_MCP_TEST_PROBE_READ"
)

// delayVar makes the stdio test server ("stdio" or "fail") sleep this many
// milliseconds first, as a server that is slow to start.
const delayVar = "HEARTH_MCP_TEST_DELAY_MS"

func TestMain(m *testing.M) {
	mode := os.Getenv(serverEnvVar)
	if ms, err := strconv.Atoi(os.Getenv(delayVar)); err == nil && mode != "" {
		time.Sleep(time.Duration(ms) * time.Millisecond)
	}
	switch mode {
	case "hang": // started, but never answers initialize
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	case "fail":
		fmt.Fprintln(os.Stderr, "cannot open the database")
		os.Exit(2)
	}
	if mode == "stdio" {
		if p := os.Getenv(probeVar); p != "" {
			fmt.Fprintln(os.Stderr, "probe write:", os.WriteFile(p, []byte("escaped"), 0o600))
		}
		if p := os.Getenv(probeReadVar); p != "" {
			_, err := os.ReadFile(p)
			fmt.Fprintln(os.Stderr, "probe read:", err)
			if err == nil {
				_ = os.WriteFile(os.Getenv(probeVar)+".read", []byte("read"), 0o600)
			}
		}
		// Like `npx some-server`: the process Hearth starts has a child of its own.
		if pidFile := os.Getenv(childPIDFileVar); pidFile != "" {
			child := exec.Command("sh", "-c", os.Getenv(childCmdVar))
			if err := child.Start(); err != nil {
				fmt.Fprintln(os.Stderr, "test server child:", err)
				os.Exit(1)
			}
			_ = os.WriteFile(pidFile, []byte(strconv.Itoa(child.Process.Pid)), 0o600)
		}
		srv := newTestServer(nil)
		if err := srv.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "test server:", err)
			os.Exit(1)
		}
		return
	}
	os.Exit(m.Run())
}

type textIn struct {
	Text string `json:"text" jsonschema:"the text to echo"`
}
type addIn struct {
	A int `json:"a"`
	B int `json:"b"`
}
type noIn struct{}

func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

// newTestServer builds the server every transport serves. release, when
// set, ends a hanging call (in-process servers must not leak goroutines);
// the stdio server's hang lasts until its process is killed.
func newTestServer(release chan struct{}) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "testsrv", Version: "1.0.0"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echo the text back."},
		func(_ context.Context, _ *sdk.CallToolRequest, in textIn) (*sdk.CallToolResult, any, error) {
			return text("echo: " + in.Text), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "add", Description: "Add two numbers."},
		func(_ context.Context, _ *sdk.CallToolRequest, in addIn) (*sdk.CallToolResult, any, error) {
			return text(fmt.Sprint(in.A + in.B)), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "env", Description: "Show two environment variables."},
		func(_ context.Context, _ *sdk.CallToolRequest, _ noIn) (*sdk.CallToolResult, any, error) {
			return text(os.Getenv("MCP_TEST_VALUE") + "|" + os.Getenv("HEARTH_SECRET_LEAK")), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "fail", Description: "Always fails."},
		func(_ context.Context, _ *sdk.CallToolRequest, _ noIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "it broke"}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "crash", Description: "Exit the server process mid-call."},
		func(_ context.Context, _ *sdk.CallToolRequest, _ noIn) (*sdk.CallToolResult, any, error) {
			fmt.Fprintln(os.Stderr, "crashing on purpose")
			os.Exit(3)
			return nil, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "hang", Description: "Never answer."},
		func(_ context.Context, _ *sdk.CallToolRequest, _ noIn) (*sdk.CallToolResult, any, error) {
			if release == nil {
				time.Sleep(time.Hour) // ignores cancellation, like a stuck server
			} else {
				<-release
			}
			return text("too late"), nil, nil
		})
	var grew sync.Once
	sdk.AddTool(s, &sdk.Tool{Name: "grow", Description: "Add the tool late."},
		func(_ context.Context, _ *sdk.CallToolRequest, _ noIn) (*sdk.CallToolResult, any, error) {
			grew.Do(func() {
				s.AddResourceTemplate(&sdk.ResourceTemplate{Name: "later", URITemplate: "test://later/{x}"},
					func(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
						return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, Text: "later " + req.Params.URI}}}, nil
					})
				sdk.AddTool(s, &sdk.Tool{Name: "late", Description: "Added later."},
					func(_ context.Context, _ *sdk.CallToolRequest, _ noIn) (*sdk.CallToolResult, any, error) {
						return text("late tool here"), nil, nil
					})
			})
			return text("grown"), nil, nil
		})
	s.AddResource(&sdk.Resource{Name: "notes", URI: "test://notes", Description: "The notes.", MIMEType: "text/plain"},
		func(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, Text: "Note one"}}}, nil
		})
	// Resource templates: "file" echoes the URI it was asked for, "notes"
	// clashes with the resource of that name, "record" fails or is binary.
	s.AddResourceTemplate(&sdk.ResourceTemplate{Name: "file", URITemplate: "test://files/{dir}/{name}",
		Title: "File", Description: "A file by folder and name.", MIMEType: "text/plain"},
		func(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, Text: "read " + req.Params.URI}}}, nil
		})
	s.AddResourceTemplate(&sdk.ResourceTemplate{Name: "notes", URITemplate: "test://notes/{id}", Title: "One note"},
		func(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, Text: "note " + req.Params.URI}}}, nil
		})
	s.AddResourceTemplate(&sdk.ResourceTemplate{Name: "record", URITemplate: "test://records/{id}"},
		func(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			if req.Params.URI == "test://records/bin" {
				return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, MIMEType: "image/png", Blob: []byte{0x89, 'P', 'N', 'G'}}}}, nil
			}
			return nil, fmt.Errorf("record store offline")
		})
	s.AddPrompt(&sdk.Prompt{Name: "greet", Description: "A greeting.", Arguments: []*sdk.PromptArgument{{Name: "name", Required: true}}},
		func(_ context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{{Role: "user",
				Content: &sdk.TextContent{Text: "Hello, " + req.Params.Arguments["name"] + "!"}}}}, nil
		})
	return s
}

// httpServer serves the test server over SSE (/sse) and streamable HTTP
// (/mcp). While down is set every request gets 503; auth records the last
// Authorization header.
type httpServer struct {
	*httptest.Server
	down atomic.Bool
	auth atomic.Value
}

func startHTTP(t *testing.T) *httpServer {
	t.Helper()
	release := make(chan struct{})
	srv := newTestServer(release)
	get := func(*http.Request) *sdk.Server { return srv }
	mux := http.NewServeMux()
	mux.Handle("/sse", sdk.NewSSEHandler(get, nil))
	mux.Handle("/mcp", sdk.NewStreamableHTTPHandler(get, nil))
	h := &httpServer{}
	h.auth.Store("")
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h.down.Load() {
			http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
			return
		}
		h.auth.Store(r.Header.Get("Authorization"))
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		close(release)
		h.Server.CloseClientConnections()
		h.Server.Close()
	})
	return h
}
