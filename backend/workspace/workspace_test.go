package workspace

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestFilesAndTemplates(t *testing.T) {
	want := []string{"AGENTS.md", "HEARTBEAT.md", "SOUL.md", "TOOLS.md", "USER.md", "memory/HISTORY.md", "memory/MEMORY.md"}
	if got := Files(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Files() = %v, want %v", got, want)
	}
	total := 0
	for _, f := range want {
		b, err := Template(f)
		if err != nil || len(b) == 0 {
			t.Fatalf("Template(%s): %v", f, err)
		}
		total += len(b)
	}
	// They all go into a small local model's system prompt.
	if total > 2500 {
		t.Errorf("templates total %d chars, budget 2500", total)
	}
}

// The heartbeat template must have no active task: only headings, comments and blanks.
func TestHeartbeatTemplateHasNoTasks(t *testing.T) {
	b, _ := Template("HEARTBEAT.md")
	inComment := false
	for _, line := range strings.Split(string(b), "\n") {
		s := strings.TrimSpace(line)
		if strings.HasPrefix(s, "<!--") {
			inComment = true
		}
		if !inComment && s != "" && !strings.HasPrefix(s, "#") {
			t.Errorf("active content in HEARTBEAT.md: %q", line)
		}
		if strings.Contains(s, "-->") {
			inComment = false
		}
	}
}

func TestOnboard(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ws")
	created, err := Onboard(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := append([]string{"memory/", "skills/"}, Files()...)
	if !reflect.DeepEqual(created, want) {
		t.Errorf("created = %v, want %v", created, want)
	}
	for _, f := range Files() {
		p := filepath.Join(dir, filepath.FromSlash(f))
		got, err := os.ReadFile(p)
		tmpl, _ := Template(f)
		if err != nil || string(got) != string(tmpl) {
			t.Errorf("%s: %v, content %q", f, err, got)
		}
		if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %o", f, st.Mode().Perm())
		}
	}
	if st, err := os.Stat(filepath.Join(dir, "skills")); err != nil || !st.IsDir() {
		t.Errorf("skills/ missing: %v", err)
	}

	// Edit one file, delete another: a second run restores only the deleted one and
	// leaves the edited file byte-identical.
	edited := filepath.Join(dir, "SOUL.md")
	mine := []byte("# My own soul\n\nno trailing newline")
	if err := os.WriteFile(edited, mine, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(edited, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "memory", "HISTORY.md")); err != nil {
		t.Fatal(err)
	}
	created, err = Onboard(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(created, []string{"memory/HISTORY.md"}) {
		t.Errorf("second run created %v", created)
	}
	if got, _ := os.ReadFile(edited); string(got) != string(mine) {
		t.Errorf("edited file changed: %q", got)
	}
	if st, _ := os.Stat(edited); st.Mode().Perm() != 0o644 {
		t.Errorf("edited file mode changed to %o", st.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temp file left: %s", e.Name())
		}
	}
	// A third run creates nothing.
	if created, err := Onboard(dir); err != nil || len(created) != 0 {
		t.Errorf("third run: %v %v", created, err)
	}
}

func TestOnboardErrors(t *testing.T) {
	if _, err := Onboard(""); err == nil {
		t.Error("empty dir accepted")
	}
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Onboard(filepath.Join(f, "ws")); err == nil || !strings.Contains(err.Error(), "hint") {
		t.Errorf("workspace under a file: %v", err)
	}
}
