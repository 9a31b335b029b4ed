package memory

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Restore's preview is what restoring would do to the file as it is now — current text
// to that version — not the change the version made; it writes and records nothing.
func TestRestorePreviewIsCurrentToVersion(t *testing.T) {
	f := newConsFixture(t, 1)
	s := serviceOver(t, f, nil)
	if err := s.SyncHistory(); err != nil {
		t.Fatal(err)
	}
	save := func(text string) {
		t.Helper()
		cur, _ := s.Store().Read(MemoryFile)
		if _, err := s.Store().Save(MemoryFile, text, cur.Hash); err != nil {
			t.Fatal(err)
		}
	}
	save("# Memory\n\n- Lives in Porto\n- Bakes sourdough\n")
	save("# Memory\n\n- Lives in Lisbon\n- Bakes sourdough\n- Has a cat\n")
	revs, err := s.History(MemoryFile, 0)
	if err != nil || len(revs) != 3 {
		t.Fatalf("%+v %v", revs, err)
	}
	p, err := s.RestorePreview(revs[1].Rev, MemoryFile)
	if err != nil {
		t.Fatal(err)
	}
	want := "@@ -1,5 +1,4 @@\n # Memory\n \n-- Lives in Lisbon\n+- Lives in Porto\n - Bakes sourdough\n-- Has a cat\n"
	if p != want {
		t.Errorf("preview\n%s\nwant\n%s", p, want)
	}
	// The change revs[1] made was the other way round (onboarding → Porto): not shown.
	if own, _ := s.Diff(revs[1].Rev, MemoryFile); own == p {
		t.Error("the preview is the version's own change")
	}
	// Nothing written, nothing recorded.
	if again, _ := s.History(MemoryFile, 0); len(again) != 3 || !strings.Contains(f.read(t, MemoryFile), "Lisbon") {
		t.Errorf("the preview changed something: %+v", again)
	}
	// The newest version: restoring it changes nothing.
	if p, err := s.RestorePreview(revs[0].Rev, "MEMORY.md"); err != nil || p != "" {
		t.Errorf("preview of the current version %q %v", p, err)
	}
	// Bad requests say what went wrong.
	var ue *Error
	if _, err := s.RestorePreview("abcdef12", MemoryFile); !errors.As(err, &ue) || ue.Msg.Code != "memory.rev.unknown" {
		t.Errorf("unknown rev: %v", err)
	}
	if _, err := s.RestorePreview(revs[0].Rev, ""); err == nil {
		t.Error("a preview of every file at once")
	}
	if _, err := s.RestorePreview(revs[0].Rev, "memory/2026-01-01.md"); !errors.As(err, &ue) || ue.Msg.Code != "memory.restore.absent" {
		t.Errorf("a file not there at rev: %v", err)
	}
	if _, err := s.RestorePreview(revs[0].Rev, "../config.json"); err == nil {
		t.Error("a path outside memory")
	}
}

// A symlink planted where the current file is read: the preview refuses rather than
// show (and so leak) the outside file's text.
func TestRestorePreviewRefusesSymlink(t *testing.T) {
	f := newConsFixture(t, 1)
	s := serviceOver(t, f, nil)
	if err := s.SyncHistory(); err != nil {
		t.Fatal(err)
	}
	revs, _ := s.History(MemoryFile, 0)
	secret := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(secret, []byte("sk-never-shown\n"), 0o600)
	p := filepath.Join(f.ws, filepath.FromSlash(MemoryFile))
	os.Remove(p)
	if err := os.Symlink(secret, p); err != nil {
		t.Fatal(err)
	}
	out, err := s.RestorePreview(revs[0].Rev, MemoryFile)
	if strings.Contains(out, "sk-never-shown") {
		t.Fatalf("the preview showed the link's target: %q %v", out, err)
	}
}

func TestUnifiedDiff(t *testing.T) {
	many := func(n int, tag string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(tag + string(rune('a'+i%26)) + "\n")
		}
		return b.String()
	}
	for name, c := range map[string]struct{ a, b, want string }{
		"same":         {"x\n", "x\n", ""},
		"from nothing": {"", "a\nb\n", "@@ -0,0 +1,2 @@\n+a\n+b\n"},
		"to nothing":   {"a\n", "", "@@ -1,1 +0,0 @@\n-a\n"},
		"no newline":   {"a", "b", "@@ -1,1 +1,1 @@\n-a\n+b\n"},
		"two hunks": {many(10, "") + "X\n" + many(10, "y"), many(10, "") + many(10, "y") + "Z\n",
			"@@ -8,7 +8,6 @@\n h\n i\n j\n-X\n ya\n yb\n yc\n@@ -19,3 +18,4 @@\n yh\n yi\n yj\n+Z\n"},
	} {
		if got := unifiedDiff(c.a, c.b, 3); got != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", name, got, c.want)
		}
	}
}

// FuzzUnifiedDiff: for any two texts the preview's lines rebuild both sides — what it
// shows as kept and removed is the current text, kept and added the restored one.
func FuzzUnifiedDiff(f *testing.F) {
	f.Add("# Memory\n- a\n", "# Memory\n- b\n- c\n")
	f.Add("", "x")
	f.Add("a\n\n\nb", "\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		d := unifiedDiff(a, b, 1<<20) // one hunk holding every line
		if (d == "") != (a == b) && strings.TrimSuffix(a, "\n") != strings.TrimSuffix(b, "\n") {
			t.Fatalf("empty diff for different texts %q %q", a, b)
		}
		if d == "" {
			return
		}
		var old, cur []string
		for i, l := range strings.Split(strings.TrimSuffix(d, "\n"), "\n") {
			if i == 0 {
				if !strings.HasPrefix(l, "@@ ") {
					t.Fatalf("no header: %q", d)
				}
				continue
			}
			switch l[0] {
			case ' ':
				old, cur = append(old, l[1:]), append(cur, l[1:])
			case '-':
				old = append(old, l[1:])
			case '+':
				cur = append(cur, l[1:])
			default:
				t.Fatalf("line %q in %q", l, d)
			}
		}
		if lines(a) != strings.Join(old, "\n") || lines(b) != strings.Join(cur, "\n") {
			t.Fatalf("%q %q → %q", a, b, d)
		}
	})
}

// lines is text as the preview shows it: a final newline is not a line of its own.
func lines(s string) string { return strings.TrimSuffix(s, "\n") }
