package mcp

import (
	"errors"
	"maps"
	"slices"
	"testing"

	"hearth/backend/config"
	"hearth/backend/i18n"
)

// userMessage is what the window's error formatter looks for (userError in app_memory.go).
type userMessage interface{ UserMessage() i18n.Message }

// Each refusal of the import says in English what the command line has always printed,
// and carries the catalog code, its arguments and its hint, so the window words it in
// Chinese too.
func TestParseClaudeDesktopRefusalsCarryCodes(t *testing.T) {
	for _, c := range []struct {
		in, english, code string
		args              map[string]string
		hint              string
		chinese           string
	}{
		{"  ", `nothing to import (hint: paste the "mcpServers" block of a Claude Desktop config)`,
			"mcp.import.empty", nil, "mcp.import.empty.hint", "没有可导入的内容"},
		{"{", `not valid JSON: unexpected EOF (hint: paste the whole "mcpServers": {…} block)`,
			"mcp.import.notJSON", map[string]string{"error": "unexpected EOF"}, "mcp.import.notJSON.hint", "粘贴的内容不是有效的 JSON：unexpected EOF"},
		{`{"mcpServers": []}`, `"mcpServers" is not an object: json: cannot unmarshal array into Go value of type map[string]json.RawMessage`,
			"mcp.import.notObject", map[string]string{"error": "json: cannot unmarshal array into Go value of type map[string]json.RawMessage"}, "", ""},
		{`{"mcpServers": {}}`, `no servers found (hint: paste the "mcpServers" block of a Claude Desktop config)`,
			"mcp.import.noServers", nil, "mcp.import.noServers.hint", "没有找到任何服务器"},
		{`{"mcpServers": {"fs": {"command": "a"}, "fs": {"url": "x"}}}`,
			`"fs" is given twice (hint: keep one of the two in the pasted block and import again; nothing was imported)`,
			"mcp.key.twice", map[string]string{"key": `"fs"`}, "mcp.key.twice.hint", `"fs" 出现了两次`},
		{`{"MCPServers": {"fs": {"command": "npx"}}}`,
			`key "MCPServers" should be spelled "mcpServers": keys are case-sensitive (hint: rename "MCPServers" to "mcpServers" in the pasted block and import again; nothing was imported)`,
			"mcp.key.case", map[string]string{"key": `"MCPServers"`, "want": `"mcpServers"`}, "mcp.key.case.hint", `键 "MCPServers" 应写作 "mcpServers"：键名区分大小写`},
		{`{"tools": {"McpServers": {"fs": {"command": "npx"}}}}`,
			`tools: key "McpServers" should be spelled "mcpServers": keys are case-sensitive (hint: rename "McpServers" to "mcpServers" in the pasted block and import again; nothing was imported)`,
			"mcp.key.caseIn", map[string]string{"where": "tools", "key": `"McpServers"`, "want": `"mcpServers"`}, "mcp.key.caseIn.hint", `tools：键 "McpServers" 应写作 "mcpServers"：键名区分大小写`},
	} {
		_, err := ParseClaudeDesktop(c.in)
		if err == nil || err.Error() != c.english {
			t.Errorf("%s: %v\nwant %s", c.in, err, c.english)
			continue
		}
		var e *Error
		var um userMessage
		if !errors.As(err, &e) || len(e.Problems) != 1 || !errors.As(err, &um) {
			t.Errorf("%s: not one coded problem: %#v", c.in, err)
			continue
		}
		p := e.Problems[0]
		if um.UserMessage().Code != c.code || p.Text.Code != c.code || !maps.Equal(p.Text.Args, c.args) {
			t.Errorf("%s: %+v, want %s %v", c.in, p.Text, c.code, c.args)
		}
		if (c.hint == "") != (len(p.Hint) == 0) || c.hint != "" && p.Hint[0].Code != c.hint {
			t.Errorf("%s: hint %+v, want %q", c.in, p.Hint, c.hint)
		}
		if c.chinese != "" && p.Text.In(i18n.Chinese) != c.chinese {
			t.Errorf("%s: in Chinese %q, want %q", c.in, p.Text.In(i18n.Chinese), c.chinese)
		}
	}
}

// The problems of several servers in one block are kept apart, each coded, and the
// English joins them as it always did.
func TestParseClaudeDesktopCollectsCodedProblems(t *testing.T) {
	_, err := ParseClaudeDesktop(`{"a": {"Command": "x"}, "b": {"args": "x"}, "c": {}, "d": {"command": "x"}, "e": {"url": "ftp://h"}}`)
	want := `cannot import: a: key "Command" should be spelled "command": keys are case-sensitive ` +
		`(hint: rename "Command" to "command" in the pasted block and import again; nothing was imported); ` +
		`b: json: cannot unmarshal string into Go struct field MCPServer.args of type []string; ` +
		`c: give "command" (a local program) or "url" (a remote server); e: url "ftp://h" is not http(s)`
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("not coded: %#v", err)
	}
	var codes []string
	for _, p := range e.Problems {
		codes = append(codes, p.Text.Code)
	}
	if want := []string{"mcp.key.caseIn", "mcp.server.unreadable", "mcp.server.noTarget", "mcp.server.badURL"}; !slices.Equal(codes, want) {
		t.Errorf("codes %v, want %v", codes, want)
	}
	if got := e.Problems[3].Text.In(i18n.Chinese); got != `e：地址 "ftp://h" 不是 http(s) 地址` {
		t.Errorf("in Chinese: %q", got)
	}
}

// CheckServer, which the editor's Save and Test reach too, says each of its refusals with
// a code and the server's name.
func TestCheckServerCodes(t *testing.T) {
	for _, c := range []struct {
		name    string
		server  config.MCPServer
		english string
		code    string
		args    map[string]string
	}{
		{" ", config.MCPServer{Command: "x"}, "a server needs a name", "mcp.server.noName", nil},
		{"fs", config.MCPServer{}, `fs: give "command" (a local program) or "url" (a remote server)`, "mcp.server.noTarget", map[string]string{"name": "fs"}},
		{"web", config.MCPServer{URL: "ws://h"}, `web: url "ws://h" is not http(s)`, "mcp.server.badURL", map[string]string{"name": "web", "url": `"ws://h"`}},
		{"fs", config.MCPServer{Command: "x", ToolTimeout: -1}, "fs: toolTimeout must not be negative", "mcp.server.negativeTimeout", map[string]string{"name": "fs"}},
		{"fs", config.MCPServer{Command: "x", Type: "grpc"}, `fs: type "grpc" is not stdio, sse, http or streamableHttp`, "mcp.server.badType", map[string]string{"name": "fs", "type": `"grpc"`}},
	} {
		err := CheckServer(c.name, c.server)
		var um userMessage
		if err == nil || err.Error() != c.english || !errors.As(err, &um) {
			t.Errorf("%q %+v: %v, want %s", c.name, c.server, err, c.english)
			continue
		}
		if m := um.UserMessage(); m.Code != c.code || !maps.Equal(m.Args, c.args) {
			t.Errorf("%q: %+v, want %s %v", c.name, m, c.code, c.args)
		}
		if zh := um.UserMessage().In(i18n.Chinese); zh == um.UserMessage().String() {
			t.Errorf("%q: not translated: %q", c.name, zh)
		}
	}
	if err := CheckServer("fs", config.MCPServer{Command: "x"}); err != nil {
		t.Errorf("a good entry: %v", err)
	}
}
