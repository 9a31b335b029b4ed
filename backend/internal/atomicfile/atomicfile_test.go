package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplacesWholeAndKeepsMode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	if err := Write(p, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(data) != "two" || fi.Mode().Perm() != 0o640 {
		t.Errorf("got %q mode %v, want \"two\" 0640 (existing mode kept)", data, fi.Mode().Perm())
	}
	if err := WriteExact(p, []byte("three"), 0o600); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("static mode: %v", fi.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestPendingLeavesNothingWhenAbandoned(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "export.md")
	f, err := Pending(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("half"); err != nil {
		t.Fatal(err)
	}
	if err := f.Cleanup(); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("an abandoned write left %v", entries)
	}
}

func TestWriteIntoMissingFolderFails(t *testing.T) {
	if err := Write(filepath.Join(t.TempDir(), "no", "such", "f"), []byte("x"), 0o600); err == nil {
		t.Error("no error for a missing folder")
	}
}

// WriteIn stays in its folder: the temporary file and the rename happen in
// dir, a symlink at name is replaced (never followed), the mode is exact.
func TestWriteInStaysInItsFolder(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	target := filepath.Join(outside, "target")
	if err := os.WriteFile(target, []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := WriteIn(r, "link", []byte("new"), 0o640); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "outside" {
		t.Errorf("the write followed the symlink: %q", b)
	}
	fi, err := os.Lstat(filepath.Join(dir, "link"))
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o640 {
		t.Errorf("replaced file: %v %v", fi, err)
	}
	for _, bad := range []string{"", ".", "..", "a/b", "../x"} {
		if err := WriteIn(r, bad, nil, 0o600); err == nil {
			t.Errorf("WriteIn(%q) accepted", bad)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("temporary files left: %v", ents)
	}
}

func TestWriteJSONMakesTheFolderAndEndsWithANewline(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a", "b", "s.json")
	if err := WriteJSON(p, map[string]int{"n": 1}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "{\n  \"n\": 1\n}\n" {
		t.Fatalf("content %q", got)
	}
	fi, _ := os.Stat(p)
	di, _ := os.Stat(filepath.Dir(p))
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Fatalf("modes file %v folder %v, want 0600 and 0700", fi.Mode().Perm(), di.Mode().Perm())
	}
	if err := WriteJSON(p, func() {}); err == nil {
		t.Fatal("a value JSON cannot hold was written")
	}
}
