package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"hearth/backend/config"
	"hearth/backend/tools"
)

// Resource templates are offered as tools whose arguments are the
// template's variables, over each transport.
func TestResourceTemplates(t *testing.T) {
	h := startHTTP(t)
	f := newManager(t, map[string]config.MCPServer{
		"stdio":  stdioServer(nil),
		"sse":    {URL: h.URL + "/sse"},
		"stream": {URL: h.URL + "/mcp"},
	})
	f.m.Start()
	for _, name := range []string{"stdio", "sse", "stream"} {
		t.Run(name, func(t *testing.T) {
			st := f.connected(t, name)
			p := "mcp_" + name + "_"
			for _, n := range []string{"file", "notes", "notes_template", "record"} {
				if !slices.Contains(st.ToolNames, p+n) {
					t.Errorf("%s not offered: %v", p+n, st.ToolNames)
				}
			}
			cases := []struct{ tool, args, want string }{
				// A space and a slash in a simple {var} are percent-encoded.
				{"file", `{"dir": "my docs", "name": "a/b.txt"}`, "read test://files/my%20docs/a%2Fb.txt"},
				{"file", `{"dir": 7, "name": "x"}`, "read test://files/7/x"}, // cast to string
				{"notes_template", `{"id": "n1"}`, "note test://notes/n1"},
				{"notes", `{}`, "Note one"}, // the resource keeps its name
				{"record", `{"id": "bin"}`, "[test://records/bin: binary image/png, 4 bytes]"},
			}
			for _, c := range cases {
				if r := f.call(p+c.tool, c.args); r.IsError || r.Content != c.want {
					t.Errorf("%s %s: %+v, want %q", c.tool, c.args, r, c.want)
				}
			}
			r := f.call(p+"record", `{"id": "42"}`)
			if !r.IsError || !strings.Contains(r.Content, "MCP server "+name) || !strings.Contains(r.Content, "test://records/42") ||
				!strings.Contains(r.Content, "record store offline") {
				t.Errorf("failing read: %+v", r)
			}
			t.Logf("failing read: %s", r.Content)
			r = f.call(p+"file", `{"dir": "d"}`)
			if !r.IsError || !strings.Contains(r.Content, "name: required field is missing") {
				t.Errorf("missing argument: %+v", r)
			}
		})
	}
}

// What the model sees: the template in the description, each variable a
// required string.
func TestTemplateToolShape(t *testing.T) {
	h := startHTTP(t)
	f := newManager(t, map[string]config.MCPServer{"x": {URL: h.URL + "/mcp"}})
	f.m.Start()
	f.connected(t, "x")
	tool, ok := f.reg.Get("mcp_x_file")
	if !ok {
		t.Fatal("mcp_x_file not registered")
	}
	if d := tool.Description(); d != "Read resource test://files/{dir}/{name}. A file by folder and name." {
		t.Errorf("description %q", d)
	}
	b, _ := json.Marshal(tool.Parameters())
	want := `{"type":"object","properties":{"dir":{"type":"string"},"name":{"type":"string"}},"required":["dir","name"]}`
	if string(b) != want {
		t.Errorf("schema %s\nwant   %s", b, want)
	}
	t.Logf("model sees: %s — %s — %s", tool.Name(), tool.Description(), b)
	if tool, _ := f.reg.Get("mcp_x_notes_template"); tool == nil || tool.Description() != "Read resource test://notes/{id}. One note" {
		t.Errorf("title as description: %+v", tool)
	}
	if tool.(tools.Originer).Origin() != tools.OriginMCP {
		t.Error("a template tool is not marked as MCP (approval would not ask)")
	}

	// Expanded directly (not through the Registry's validation), a missing or
	// empty variable is named in the error.
	for _, args := range []map[string]any{{"dir": "d"}, {"dir": "d", "name": ""}} {
		_, err := expand(tool.(*wrapped).tmpl, args)
		if err == nil || !strings.Contains(err.Error(), `missing argument "name" for test://files/{dir}/{name}`) {
			t.Errorf("%v: %v", args, err)
		}
	}
}

func TestTemplatesEnabledTools(t *testing.T) {
	h := startHTTP(t)
	for _, c := range []struct {
		enabled []string
		want    []string
	}{
		{[]string{"file", "mcp_x_notes_template"}, []string{"mcp_x_file", "mcp_x_notes_template"}},
		{[]string{"notes"}, []string{"mcp_x_notes", "mcp_x_notes_template"}},
		{[]string{"echo", "mcp_x_record"}, []string{"mcp_x_echo", "mcp_x_record"}},
	} {
		f := newManager(t, map[string]config.MCPServer{"x": {URL: h.URL + "/mcp", EnabledTools: c.enabled}})
		f.m.Start()
		if st := f.connected(t, "x"); !slices.Equal(st.ToolNames, c.want) {
			t.Errorf("enabledTools %v: tools %v, want %v", c.enabled, st.ToolNames, c.want)
		}
		if r := f.call(c.want[1], `{"id": "1"}`); strings.Contains(r.Content, "unknown tool") {
			t.Errorf("%s: %+v", c.want[1], r)
		}
		f.m.Close()
	}
}

// A server that has resources but answers resources/templates/list with
// "method not found" connects normally, without templates.
func TestTemplatesNotSupported(t *testing.T) {
	srv := newTestServer(nil)
	srv.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "resources/templates/list" {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "method not found"}
			}
			return next(ctx, method, req)
		}
	})
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	f := newManager(t, map[string]config.MCPServer{"old": {URL: ts.URL}})
	f.m.Start()
	st := f.connected(t, "old")
	if st.Tools != 9 || st.LastError != "" || slices.Contains(st.ToolNames, "mcp_old_file") {
		t.Errorf("status %+v", st)
	}
	if r := f.call("mcp_old_notes", `{}`); r.Content != "Note one" {
		t.Errorf("resource: %+v", r)
	}
}
