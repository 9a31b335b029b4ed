package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	"hearth/backend/config"
)

// A key that differs from Hearth's only in case, or a key given twice, is refused with
// the key, the expected spelling and what to do: encoding/json alone would take it (the
// last of two winning) where Claude Desktop, VS Code and config.json read keys exactly.
func TestParseClaudeDesktopKeySpelling(t *testing.T) {
	for in, want := range map[string][]string{
		`{"mcpServers": {"fs": {"Command": "npx"}}}`:                   {`fs: key "Command" should be spelled "command"`, `rename "Command" to "command"`, "nothing was imported"},
		`"fs": {"COMMAND": "npx", "args": ["-y"]}`:                     {`key "COMMAND" should be spelled "command"`},
		`{"fs": {"command": "npx", "Command": "rm"}}`:                  {`key "Command" should be spelled "command"`},
		`{"fs": {"command": "npx", "command": "rm"}}`:                  {`fs: "command" is given twice`, "keep one of the two"},
		`{"fs": {"command": "npx", "Args": ["-y"]}}`:                   {`key "Args" should be spelled "args"`},
		`{"fs": {"command": "npx", "Env": {"A": "1"}}}`:                {`key "Env" should be spelled "env"`},
		`{"web": {"URL": "https://h/mcp"}}`:                            {`key "URL" should be spelled "url"`},
		`{"web": {"url": "https://h/mcp", "Headers": {"A": "b"}}}`:     {`key "Headers" should be spelled "headers"`},
		`{"web": {"url": "https://h/mcp", "Type": "sse"}}`:             {`key "Type" should be spelled "type"`},
		`{"fs": {"command": "x", "enabledtools": ["a"]}}`:              {`key "enabledtools" should be spelled "enabledTools"`},
		`{"fs": {"command": "x", "ToolTimeout": 5}}`:                   {`key "ToolTimeout" should be spelled "toolTimeout"`},
		`{"fs": {"command": "x", "SANDBOX": true}}`:                    {`key "SANDBOX" should be spelled "sandbox"`},
		"{\"fs\": {\"command\": \"x\", \"arg\u017f\": [\"a\"]}}":       {"key \"arg\u017f\" should be spelled \"args\""}, // long s folds to s
		`{"MCPServers": {"fs": {"command": "npx"}}}`:                   {`key "MCPServers" should be spelled "mcpServers"`},
		`"mcpservers": {"fs": {"command": "npx"}},`:                    {`key "mcpservers" should be spelled "mcpServers"`},
		`{"tools": {"McpServers": {"fs": {"command": "npx"}}}}`:        {`tools: key "McpServers" should be spelled "mcpServers"`},
		`{"mcpServers": {"fs": {"command": "a"}, "fs": {"url": "x"}}}`: {`"fs" is given twice`},
	} {
		got, err := ParseClaudeDesktop(in)
		if err == nil {
			t.Errorf("%s: accepted %+v", in, got)
			continue
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v\nwant it to say %q", in, err, w)
			}
		}
	}
}

// The spellings other MCP clients write keep working: their shared keys are Hearth's,
// their own (cwd, envFile, disabled, autoApprove …) are left out as before, and the keys
// inside env and headers are names, not settings: their case is kept as written.
func TestParseClaudeDesktopOtherClients(t *testing.T) {
	in := `{"mcpServers": {
	  "vscode": {"type": "stdio", "command": "npx", "args": ["-y", "srv"], "env": {"Path": "/a", "PATH": "/b"}, "envFile": "x.env", "cwd": "/tmp"},
	  "remote": {"type": "http", "url": "https://h/mcp", "headers": {"Authorization": "Bearer x", "authorization": "y"}},
	  "cline": {"command": "uvx", "args": ["srv"], "disabled": false, "autoApprove": [], "timeout": 60}
	}}`
	got, err := ParseClaudeDesktop(in)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]config.MCPServer{
		"vscode": {Type: "stdio", Command: "npx", Args: []string{"-y", "srv"}, Env: map[string]string{"Path": "/a", "PATH": "/b"}},
		"remote": {Type: "http", URL: "https://h/mcp", Headers: map[string]string{"Authorization": "Bearer x", "authorization": "y"}},
		"cline":  {Command: "uvx", Args: []string{"srv"}},
	}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("got  %s\nwant %s", g, w)
	}
}
