//go:build !headless

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"hearth/backend/i18n"
	"hearth/backend/mcp"
	"hearth/backend/memory"
)

// A binding's error that says what went wrong as a catalog message reaches the window
// as the JSON text of {message, code, args} (worded there in the UI language); any other
// as its text.
func TestUserErrorCarriesTheCode(t *testing.T) {
	err := fmt.Errorf("restore: %w", &memory.Error{Msg: i18n.M("memory.rev.unknown", "rev", "zz")})
	got := decodeUserError(t, err)
	if got.Code != "memory.rev.unknown" || got.Args["rev"] != "zz" || !strings.HasPrefix(got.Message, "restore: zz: no such revision") || got.Problems != nil {
		t.Errorf("coded error: %#v", got)
	}
	if got := userError(errors.New("plain")); got != "plain" {
		t.Errorf("plain error: %#v", got)
	}
}

type wireError struct {
	Message  string
	Code     string
	Args     map[string]string
	Problems []i18n.Problem
}

// decodeUserError reads userError's JSON text as the window does.
func decodeUserError(t *testing.T, err error) wireError {
	t.Helper()
	text, ok := userError(err).(string)
	var got wireError
	if !ok || json.Unmarshal([]byte(text), &got) != nil {
		t.Fatalf("not JSON text: %#v", userError(err))
	}
	return got
}

// An error listing several problems (an MCP import that several servers of the block
// fail) reaches the window with each problem's code and hint, beside the English.
func TestUserErrorCarriesTheProblems(t *testing.T) {
	_, err := mcp.ParseClaudeDesktop(`{"fs": {"Command": "npx"}, "web": {"url": "ftp://h"}}`)
	got := decodeUserError(t, fmt.Errorf("import: %w", err))
	ps := got.Problems
	if len(ps) != 2 || ps[0].Text.Code != "mcp.key.caseIn" || len(ps[0].Hint) != 1 || ps[0].Hint[0].Code != "mcp.key.caseIn.hint" ||
		ps[1].Text.Code != "mcp.server.badURL" || ps[1].Text.Args["url"] != `"ftp://h"` || ps[1].Hint != nil {
		t.Errorf("problems: %#v", ps)
	}
	if got.Code != "mcp.key.caseIn" || !strings.HasPrefix(got.Message, `import: cannot import: fs: key "Command"`) {
		t.Errorf("coded error: %#v", got)
	}
}
