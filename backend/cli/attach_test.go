package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hearth/backend/extract"
	"hearth/backend/internal/testdocs"
)

// --file attaches files to -m's message: each is told on stderr (kept or refused,
// with the code), the text reaches the model, and a refused one does not stop
// the message.
func TestAgentFileAttaches(t *testing.T) {
	fake := startChat(t)
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.md")
	if err := os.WriteFile(notes, []byte("# Notes\n\nThe spare key is under the blue pot.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "photo.bin")
	if err := os.WriteFile(bin, []byte{0, 1, 2}, 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runIn(t, "", "agent", "-m", "where is the key?", "--file", notes, "--file", bin)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(errOut, "attached: notes.md (46 bytes, whole)") || !strings.Contains(errOut, "not attached: Hearth cannot read photo.bin") ||
		!strings.Contains(errOut, "(attach.unsupported)") || !strings.Contains(errOut, "Note: notes.md: whole") {
		t.Errorf("stderr %q", errOut)
	}
	msgs := fake.ChatRequests()[0].Messages
	if last := msgs[len(msgs)-1].Content; !strings.Contains(last, "blue pot") || !strings.Contains(last, "where is the key?") {
		t.Errorf("the file did not reach the model: %q", last)
	}
	if code, _, errOut := runIn(t, "", "agent", "--file", notes); code != ExitUsage || !strings.Contains(errOut, "--file needs a message") ||
		!strings.Contains(errOut, "echo") {
		t.Errorf("--file alone, nothing piped: exit %d %q", code, errOut)
	}
}

// Each kind of document Hearth reads, attached with --file: its text reaches the
// model and stderr says it was attached whole.
func TestAgentFileEachFormat(t *testing.T) {
	if !extract.CanReadPDF() && os.Getenv("CI") == "" {
		t.Skip("pdftotext (poppler-utils) is not installed; make test installs it")
	}
	fake := startChat(t)
	dir := t.TempDir()
	args := []string{"agent", "-m", "what do the samples keep?"}
	samples := testdocs.Samples()
	for name, data := range samples {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		args = append(args, "--file", p)
	}
	code, _, errOut := runIn(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	msgs := fake.ChatRequests()[0].Messages
	last := msgs[len(msgs)-1].Content
	for name := range samples {
		ext := strings.TrimPrefix(filepath.Ext(name), ".")
		if !strings.Contains(errOut, "attached: "+name+" (") {
			t.Errorf("%s: not told attached: %q", name, errOut)
		}
		if !strings.Contains(last, testdocs.Fact(ext)) {
			t.Errorf("%s: its text did not reach the model: %.2000q", name, last)
		}
	}
}
