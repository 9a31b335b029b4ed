package nofollow

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func mk(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A link at any level below the trusted folder is refused, never entered.
func TestNoLinkAtAnyLevel(t *testing.T) {
	base, out := t.TempDir(), t.TempDir()
	mk(t, filepath.Join(out, "b", "f"), "outside")
	mk(t, filepath.Join(base, "a", "b", "f"), "inside")
	if b, err := ReadFile(base, "a/b/f", 0); err != nil || string(b) != "inside" {
		t.Fatalf("plain read: %q %v", b, err)
	}
	for _, level := range []string{"a", "a/b", "a/b/f"} {
		t.Run(level, func(t *testing.T) {
			base := t.TempDir()
			mk(t, filepath.Join(base, "a", "b", "f"), "inside")
			p := filepath.Join(base, level)
			if err := os.RemoveAll(p); err != nil {
				t.Fatal(err)
			}
			target := filepath.Join(out, strings.TrimPrefix(level, "a"))
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			if b, err := ReadFile(base, "a/b/f", 0); !errors.Is(err, ErrLink) {
				t.Errorf("read through a link at %s: %q %v", level, b, err)
			}
			if level != "a/b/f" {
				if d, err := MkdirAll(base, "a/b/c", 0o700); err == nil {
					d.Close()
					t.Errorf("mkdir through a link at %s", level)
				}
			}
		})
	}
	if ents, _ := os.ReadDir(filepath.Join(out, "b")); len(ents) != 1 {
		t.Errorf("outside changed: %v", ents)
	}
}

// Pipes, devices and big files are refused at once.
func TestSpecialAndBigFilesRefused(t *testing.T) {
	base := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(base, "fifo"), 0o600); err != nil {
		t.Skip("no named pipes:", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(base, "zero")); err != nil {
		t.Fatal(err)
	}
	mk(t, filepath.Join(base, "big"), strings.Repeat("x", 100))
	if _, err := ReadFile(base, "fifo", 10); !errors.Is(err, ErrSpecial) {
		t.Errorf("fifo: %v", err)
	}
	if _, err := ReadFile(base, "zero", 10); !errors.Is(err, ErrLink) {
		t.Errorf("/dev/zero link: %v", err)
	}
	if _, err := ReadFile(base, "big", 10); !errors.Is(err, ErrTooBig) {
		t.Errorf("big: %v", err)
	}
}

// Writes replace a link instead of following it; removals of regular files
// only leave links alone.
func TestWriteAndRemoveNeverFollow(t *testing.T) {
	base, out := t.TempDir(), t.TempDir()
	mk(t, filepath.Join(out, "secret"), "keep")
	if err := os.Symlink(filepath.Join(out, "secret"), filepath.Join(base, "f")); err != nil {
		t.Fatal(err)
	}
	d, err := OpenDir(base, "")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := RemoveRegular(d, "f"); !errors.Is(err, ErrSpecial) {
		t.Errorf("remove of a link: %v", err)
	}
	if err := WriteFileIn(d, "f", []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "secret")); string(b) != "keep" {
		t.Errorf("written through the link: %q", b)
	}
	if fi, err := os.Lstat(filepath.Join(base, "f")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("the link was not replaced by a file: %v", err)
	}
	if f, err := OpenIn(d, "g", os.O_RDWR|os.O_CREATE, 0o600); err != nil {
		t.Fatal(err)
	} else {
		f.Close()
	}
	if err := RemoveRegular(d, "g"); err != nil {
		t.Errorf("remove of a regular file: %v", err)
	}
}

// CopyTree copies folders and regular files and lists, never follows, the rest.
func TestCopyTreeSkipsLinks(t *testing.T) {
	base, out := t.TempDir(), t.TempDir()
	mk(t, filepath.Join(out, "secret"), "secret")
	mk(t, filepath.Join(base, "src", "a", "f"), "f")
	if err := os.Symlink(out, filepath.Join(base, "src", "a", "l")); err != nil {
		t.Fatal(err)
	}
	src, err := OpenDir(base, "src")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst := filepath.Join(t.TempDir(), "dst")
	c, err := CopyTree(src, dst, 0, 0)
	if err != nil || c.Files != 1 || len(c.Skipped) != 1 || c.Skipped[0] != "a/l" {
		t.Fatalf("copied %+v %v", c, err)
	}
	if _, err := os.Lstat(filepath.Join(dst, "a", "l")); !os.IsNotExist(err) {
		t.Errorf("link copied: %v", err)
	}
}
