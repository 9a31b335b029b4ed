package cli

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// hearth memory log / diff / restore over the workspace's history: an edit made
// while no Hearth ran is committed by the next command; restore brings the old
// text back.
func TestMemoryLogDiffRestore(t *testing.T) {
	startChat(t)
	p := workspaceFile(t, "memory/MEMORY.md", "- Lives in Porto.\n")
	code, out, errOut := runIn(t, "", "memory", "log", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var revs []struct {
		Rev     string    `json:"rev"`
		Time    time.Time `json:"time"`
		Author  string    `json:"author"`
		Message string    `json:"message"`
		Files   []string  `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &revs); err != nil || len(revs) != 1 || revs[0].Author != "Hearth" ||
		revs[0].Time.IsZero() || !strings.Contains(strings.Join(revs[0].Files, ","), "memory/MEMORY.md") {
		t.Fatalf("first log: %v\n%s", err, out)
	}
	workspaceFile(t, "memory/MEMORY.md", "- Lives in Lisbon.\n")
	code, out, _ = runIn(t, "", "memory", "log", "MEMORY.md")
	if code != 0 || !strings.Contains(strings.Split(out, "\n")[0], "outside Hearth") {
		t.Fatalf("log after an outside edit (%d):\n%s", code, out)
	}
	rev := strings.Fields(out)[0]
	code, out, _ = runIn(t, "", "memory", "diff", rev, "MEMORY.md")
	if code != 0 || !strings.Contains(out, "-- Lives in Porto.") || !strings.Contains(out, "+- Lives in Lisbon.") {
		t.Fatalf("diff (%d):\n%s", code, out)
	}
	code, out, errOut = runIn(t, "", "memory", "restore", rev+"^", "MEMORY.md")
	if code != 0 || !strings.Contains(out, "Restored memory/MEMORY.md") {
		t.Fatalf("restore (%d): %s %s", code, out, errOut)
	}
	if got := readFile(t, p); got != "- Lives in Porto.\n" {
		t.Errorf("restored %q", got)
	}
	if code, _, errOut = runIn(t, "", "memory", "restore", "zzzz"); code == 0 || !strings.Contains(errOut, "hearth memory log") {
		t.Errorf("a bad revision: exit %d %s", code, errOut)
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
