package skills

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hearth/backend/internal/safefile/safefiletest"
)

// A SKILL.md that is a named pipe, /dev/zero behind a symlink, or larger than
// MaxSkillBytes (an "always" skill of 10 MB would go into every prompt) is skipped
// with a warning at once; the other skills still load.
func TestBadSkillFilesSkippedAtOnce(t *testing.T) {
	ws := t.TempDir()
	write := func(name, body string) {
		if err := os.MkdirAll(filepath.Join(ws, "skills", name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(ws, "skills", name, "SKILL.md"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("good", "---\nname: good\ndescription: A good skill.\n---\nDo good things.\n")
	for name, p := range safefiletest.Make(t, t.TempDir(), MaxSkillBytes) {
		if name == "folder" {
			continue
		}
		if err := os.MkdirAll(filepath.Join(ws, "skills", name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(p, filepath.Join(ws, "skills", name, "SKILL.md")); err != nil {
			t.Fatal(err)
		}
	}
	write("big", "---\nname: big\ndescription: Too big.\nalways: true\n---\n"+strings.Repeat("x", MaxSkillBytes))
	l, warned := loader(t, ws, nil, nil)
	safefiletest.Answers(t, "skills", func() {
		list, _ := l.List()
		got := byName(list)
		if _, ok := got["good"]; !ok {
			t.Errorf("good skill missing: %+v", list)
		}
		for _, n := range []string{"fifo", "zero", "huge", "big"} {
			if s, ok := got[n]; ok && s.Problem == "" {
				t.Errorf("%s loaded: %+v", n, s)
			}
		}
		always, _ := l.Prompt()
		if strings.Contains(strings.Join(always, ""), "xxxx") {
			t.Error("the oversized skill is in the prompt")
		}
	})
	if w := strings.Join(*warned, "\n"); !strings.Contains(w, "fifo") || !strings.Contains(w, "big") {
		t.Errorf("warnings:\n%s", w)
	}
}
