package mcp

import (
	"encoding/json"
	"errors"
	"testing"

	"hearth/backend/i18n"
)

// FuzzParseClaudeDesktop gives the MCP config import (a Claude Desktop config, its
// "mcpServers" block, the map alone or one entry) arbitrary text. It must answer with
// an error or with servers that each pass CheckServer, and what it accepts must read
// back the same from Hearth's own shape. Seeds: testdata/fuzz/FuzzParseClaudeDesktop.
func FuzzParseClaudeDesktop(f *testing.F) {
	for _, s := range []string{
		`{"mcpServers":{"fs":{"command":"npx","args":["-y","@modelcontextprotocol/server-filesystem","/tmp"]}}}`,
		`"fs": {"command": "npx", "env": {"TOKEN": "${GH}"}},`,
		`{"tools":{"mcpServers":{"web":{"url":"https://example.com/mcp","headers":{"Authorization":"Bearer x"}}}}}`,
		`{"a":{"url":"ftp://x"}}`, `{"mcpServers": []}`, `"x": {"type": "sse", "url": "http://h/sse"}`,
		`{"a":{"command":"x","toolTimeout":-1}}`, `{`, `"a": {"command": "x"}, "b": {"url": "http://h"}`,
		`{"a":{"command":"x","Command":"y"}}`, `{"a":{"command":"x","command":"y"}}`, `{"MCPServers":{"a":{"command":"x"}}}`,
		`{"a":{"type":"stdio","command":"x","cwd":"/tmp","envFile":".env","env":{"Path":"1","PATH":"2"}}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, block string) {
		got, err := ParseClaudeDesktop(block)
		if err != nil {
			// Every refusal is worded by the catalog, so the window can say it.
			var e *Error
			if !errors.As(err, &e) || len(e.Problems) == 0 {
				t.Fatalf("%q: refused without a code: %v", block, err)
			}
			for _, p := range e.Problems {
				if !i18n.Has(p.Text.Code) {
					t.Fatalf("%q: code %q is not in the catalog", block, p.Text.Code)
				}
			}
			return
		}
		if len(got) == 0 {
			t.Fatalf("%q: no error and no servers", block)
		}
		for name, c := range got {
			if err := CheckServer(name, c); err != nil {
				t.Fatalf("%q: accepted %s, which CheckServer refuses: %v", block, name, err)
			}
		}
		own, _ := json.Marshal(map[string]any{"tools": map[string]any{"mcpServers": got}})
		again, err := ParseClaudeDesktop(string(own))
		back, _ := json.Marshal(map[string]any{"tools": map[string]any{"mcpServers": again}})
		if err != nil || string(back) != string(own) {
			t.Fatalf("%q: accepted %+v, which reads back as %+v (%v)", block, got, again, err)
		}
	})
}
