package tools

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	osbox "hearth/backend/sandbox"
)

// A command cannot write into a knowledge folder, neither one inside the workspace
// (the sandbox keeps it read-only there) nor one outside (it is a root to read, not
// to write) — with the command guard off, so the sandbox alone is what refuses. The
// rest of the workspace stays writable.
func TestExecKnowledgeFoldersStayReadOnly(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	ws, outside := filepath.Join(root, "ws"), filepath.Join(root, "notes")
	inside := filepath.Join(ws, "kb")
	for _, d := range []string{inside, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "a.md"), []byte("keep"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"HOME": root, "PATH": "/usr/bin:/bin"}
	box := osbox.New(osbox.Options{Tmp: t.TempDir()})
	ex := NewExec(&Policy{Workspace: ws, Home: root, Knowledge: []string{inside, outside}}, ExecOptions{
		Sandbox: box, Guard: &ExecGuard{off: true}, TempDir: root,
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
	})
	p := ex.SandboxPolicy()
	if slices.Contains(p.Writable, outside) || slices.Contains(p.Writable, inside) {
		t.Errorf("a knowledge folder is writable: %v", p.Writable)
	}
	if !slices.Equal(p.ReadOnly, []string{inside, outside}) {
		t.Errorf("read-only folders %v, want both knowledge folders", p.ReadOnly)
	}
	if st := box.Status(); st.Mode == osbox.ModeNone {
		t.Skipf("no sandbox here: %s", st.Warning)
	}
	for _, c := range []string{"echo x > kb/a.md", "touch kb/new.md", "rm kb/a.md", "echo x > " + outside + "/a.md", "rm " + outside + "/a.md"} {
		if r := invoke(context.Background(), ex, execJSON(c, 20)); !r.IsError {
			t.Errorf("%q succeeded: %s", c, r.Content)
		}
	}
	for _, d := range []string{inside, outside} {
		if b, err := os.ReadFile(filepath.Join(d, "a.md")); err != nil || string(b) != "keep" {
			t.Errorf("%s changed: %q %v", d, b, err)
		}
	}
	if _, err := os.Stat(filepath.Join(inside, "new.md")); err == nil {
		t.Error("a file was made in the knowledge folder")
	}
	if r := invoke(context.Background(), ex, execJSON("mkdir -p src && echo ok > src/ok.txt && cat src/ok.txt", 20)); r.IsError {
		t.Errorf("writing elsewhere in the workspace: %s", r.Content)
	}
}
