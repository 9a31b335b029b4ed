package skills

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A SKILL.md that is a symlink out of the workspace is not loaded: always-on
// skills go into every prompt, so it would carry any file to the model.
func TestSkillSymlinkOutIsNotLoaded(t *testing.T) {
	ws, outside := t.TempDir(), t.TempDir()
	secret := filepath.Join(outside, "SKILL.md")
	if err := os.WriteFile(secret, []byte("---\nname: leak\ndescription: x\nalways: true\n---\nsk-never-in-prompt\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(ws, "skills", "leak"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(ws, "skills", "leak", "SKILL.md")); err != nil {
		t.Fatal(err)
	}
	l, warned := loader(t, ws, nil, nil)
	list, _ := l.List()
	for _, s := range list {
		if s.Name == "leak" {
			t.Errorf("loaded: %+v", s)
		}
	}
	always, _ := l.Prompt()
	if strings.Contains(strings.Join(always, "\n"), "sk-never") {
		t.Error("the outside file reached the prompt")
	}
	if len(*warned) == 0 || !strings.Contains(strings.Join(*warned, "\n"), "outside") {
		t.Errorf("no warning says why: %v", *warned)
	}
}
