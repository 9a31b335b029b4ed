package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSkillsAndMCPCommands(t *testing.T) {
	root := setup(t, fakeOllama(t))
	code, out, errOut := run(t, nil, "skills", "list")
	if code != 0 || !strings.Contains(out, "memory") || !strings.Contains(out, "builtin") || !strings.Contains(out, "available") {
		t.Fatalf("skills list: %d %q %q", code, out, errOut)
	}
	if code, out, _ := run(t, nil, "skills", "disable", "summarize"); code != 0 || out != "summarize disabled.\n" {
		t.Errorf("disable: %d %q", code, out)
	}
	if _, out, _ := run(t, nil, "skills", "list"); !strings.Contains(out, "(disabled)") {
		t.Errorf("not shown disabled:\n%s", out)
	}
	if code, _, errOut := run(t, nil, "skills", "disable", "nope"); code != 1 || !strings.Contains(errOut, "no skill named") {
		t.Errorf("unknown skill: %d %q", code, errOut)
	}

	if code, out, _ := run(t, nil, "mcp", "list"); code != 0 || !strings.Contains(out, "No MCP servers") {
		t.Errorf("empty mcp list: %d %q", code, out)
	}
	file := filepath.Join(root, "claude.json")
	if err := os.WriteFile(file, []byte(`{"mcpServers": {"gone": {"command": "/nonexistent/mcp-server"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := run(t, nil, "mcp", "import", file); code != 0 || out != "Imported gone.\n" {
		t.Fatalf("import: %d %q %q", code, out, errOut)
	}
	code, out, _ = run(t, nil, "mcp", "list", "--wait", "5s")
	if code != 0 || !strings.Contains(out, "gone") || !strings.Contains(out, "not connected:") || !strings.Contains(out, "no such file") {
		t.Errorf("mcp list: %d %q", code, out)
	}
	if code, _, errOut := run(t, nil, "mcp", "test", "gone"); code != 1 || !strings.Contains(errOut, "MCP server gone") {
		t.Errorf("mcp test: %d %q", code, errOut)
	}
	if code, out, _ := run(t, nil, "mcp", "remove", "gone"); code != 0 || out != "Removed gone.\n" {
		t.Errorf("remove: %d %q", code, out)
	}
	if code, _, _ := run(t, nil, "mcp", "import"); code != 2 {
		t.Errorf("import without a file: exit %d, want 2", code)
	}
}
