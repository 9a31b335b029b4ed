package skills

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// "Open in editor" on a built-in gives the person a copy in the workspace that then
// overrides the built-in; a second click keeps their edits.
func TestCustomizeCopiesABuiltinOnce(t *testing.T) {
	ws := t.TempDir()
	l, _ := loader(t, ws, nil, nil)
	rel, err := l.Customize("summarize")
	if err != nil || rel != "skills/summarize/SKILL.md" {
		t.Fatalf("customize: %q %v", rel, err)
	}
	path := filepath.Join(ws, filepath.FromSlash(rel))
	data, err := os.ReadFile(path)
	want, _ := builtinFS.ReadFile("builtin/summarize/SKILL.md")
	if err != nil || string(data) != string(want) {
		t.Fatalf("the copy is not the built-in's text: %v\n%s", err, data)
	}
	list, _ := l.List()
	for _, s := range list {
		if s.Name == "summarize" && s.Source != SourceWorkspace {
			t.Errorf("the copy does not override the built-in: %+v", s)
		}
	}

	edited := strings.Replace(string(data), "\n---\n", "\n---\nMy own way of summarising.\n", 1)
	write(t, ws, "summarize", edited)
	if rel2, err := l.Customize("summarize"); err != nil || rel2 != rel {
		t.Fatalf("second customize: %q %v", rel2, err)
	}
	if data, _ := os.ReadFile(path); string(data) != edited {
		t.Error("a second click overwrote the person's edits")
	}
}

func TestCustomizeWorkspaceAndUnknown(t *testing.T) {
	ws := t.TempDir()
	l, _ := loader(t, ws, nil, nil)
	write(t, ws, "garden", "---\nname: garden\ndescription: plan planting\n---\nbody\n")
	if rel, err := l.Customize("garden"); err != nil || rel != "skills/garden/SKILL.md" {
		t.Errorf("workspace skill: %q %v", rel, err)
	}
	if _, err := l.Customize("nope"); err == nil || !strings.Contains(err.Error(), "hint") {
		t.Errorf("unknown skill: %v", err)
	}
}
