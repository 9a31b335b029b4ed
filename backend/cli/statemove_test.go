package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An old .hearth/memory.git that is a link (a command planted it) is not
// moved: hearth memory log says so, and hearth status names the state folder.
func TestMemoryLogSaysAnOldHistoryWasLeft(t *testing.T) {
	startChat(t)
	p := workspaceFile(t, "memory/MEMORY.md", "- Lives in Porto.\n")
	hearth := filepath.Join(filepath.Dir(filepath.Dir(p)), ".hearth")
	if err := os.MkdirAll(hearth, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(t.TempDir(), filepath.Join(hearth, "memory.git")); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runIn(t, "", "memory", "log")
	if code != 0 || !strings.Contains(errOut, "did not move memory.git") || !strings.Contains(out, "Hearth") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	_, out, _ = runIn(t, "", "status")
	if !strings.Contains(out, "Memory history, inbox and Dream's state: ") || !strings.Contains(out, "did not move memory.git") {
		t.Errorf("status:\n%s", out)
	}
}
