package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hearth/backend/internal/fakeollama"
)

// writeNotes writes a small Markdown file to attach.
func writeNotes(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "notes.md")
	if err := os.WriteFile(p, []byte("# Notes\n\nThe spare key is under the blue pot.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// `echo "…" | hearth agent --file X`: the piped text is the message the file goes with.
func TestAgentFileMessageFromStdin(t *testing.T) {
	fake := startChat(t, fakeollama.Reply{Content: "Under the blue pot."})
	notes := writeNotes(t)
	code, out, errOut := runIn(t, "where is the key?\n", "agent", "--file", notes)
	if code != 0 || out != "Under the blue pot.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "attached: notes.md (46 bytes, whole)") {
		t.Errorf("stderr %q", errOut)
	}
	reqs := fake.ChatRequests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want one (a single message, not a REPL)", len(reqs))
	}
	last := reqs[0].Messages[len(reqs[0].Messages)-1].Content
	if !strings.Contains(last, "where is the key?") || !strings.Contains(last, "blue pot") {
		t.Errorf("the piped message and the file did not reach the model: %q", last)
	}
}

// Piped input that holds nothing but blanks, or more than a message may be, is a
// coded usage error and no turn starts.
func TestAgentFileNoMessage(t *testing.T) {
	fake := startChat(t)
	notes := writeNotes(t)
	for name, stdin := range map[string]string{"empty": "", "blank": " \n\t\n"} {
		code, _, errOut := runIn(t, stdin, "agent", "--file", notes)
		if code != ExitUsage || !strings.Contains(errOut, "--file needs a message") || !strings.Contains(errOut, "hint:") {
			t.Errorf("%s: exit %d %q", name, code, errOut)
		}
	}
	huge := strings.Repeat("a", maxStdinMessage+1)
	if code, _, errOut := runIn(t, huge, "agent", "--file", notes); code != ExitUsage || !strings.Contains(errOut, "over 4 MB") {
		t.Errorf("huge stdin: exit %d %.300q", code, errOut)
	}
	if code, _, errOut := runIn(t, "", "agent", "-s", "x", "--continue", "--file", notes); code != ExitUsage || !strings.Contains(errOut, "--continue") {
		t.Errorf("--continue with --file: exit %d %q", code, errOut)
	}
	if n := len(fake.ChatRequests()); n != 0 {
		t.Errorf("%d model requests for refused calls", n)
	}
}

// At a terminal, `hearth agent --file X` opens the REPL and the first message typed
// takes the files (a slash command before it does not); later messages carry none.
// Leaving before any message says the files were not sent.
func TestAgentFileREPLFirstMessage(t *testing.T) {
	fake := startChat(t, fakeollama.Reply{Content: "Under the blue pot."}, fakeollama.Reply{Content: "You are welcome."})
	notes := writeNotes(t)
	repl := func(stdin string, args ...string) (int, string) {
		var out, errb bytes.Buffer
		e := &env{info: testInfo, stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: os.Getenv,
			typing: func() bool { return true }}
		return mainEnv(e, args), errb.String()
	}
	code, errOut := repl("/help\nwhere is the key?\nthanks\n", "agent", "-s", "keys", "--file", notes)
	if code != 0 || !strings.Contains(errOut, "1 file(s) will be attached to your first message") ||
		strings.Count(errOut, "attached: notes.md (46 bytes, whole)") != 1 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	reqs := fake.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	first := reqs[0].Messages[len(reqs[0].Messages)-1].Content
	if !strings.Contains(first, "where is the key?") || !strings.Contains(first, "blue pot") {
		t.Errorf("the first message did not take the file: %q", first)
	}
	if code, errOut := repl("/help\n", "agent", "--file", notes); code != ExitUsage || !strings.Contains(errOut, "--file needs a message") {
		t.Errorf("no message typed: exit %d %q", code, errOut)
	}
}

// `hearth agent --file X </dev/null`: /dev/null is a character device but no
// terminal, so it means no input — the coded usage error at once, no REPL opened
// and no turn started.
func TestAgentFileDevNullIsNoInput(t *testing.T) {
	fake := startChat(t)
	notes := writeNotes(t)
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	var out, errb bytes.Buffer
	code := mainEnv(&env{info: testInfo, stdin: null, stdout: &out, stderr: &errb, getenv: os.Getenv}, []string{"agent", "--file", notes})
	if code != ExitUsage || !strings.Contains(errb.String(), "--file needs a message") || strings.Contains(errb.String(), "will be attached to your first message") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	if n := len(fake.ChatRequests()); n != 0 {
		t.Errorf("%d model requests", n)
	}
}
