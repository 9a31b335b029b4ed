package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hearth/backend/internal/safefile/safefiletest"
)

func TestBadFilesRefusedAtOnce(t *testing.T) {
	dir := t.TempDir()
	for name, p := range safefiletest.Make(t, dir, 1<<20) {
		_, err := ReadFile(p, 1<<20)
		want := ErrNotRegular
		if name == "huge" {
			want = ErrTooLarge
		}
		if !errors.Is(err, want) || !strings.Contains(err.Error(), "hint:") {
			t.Errorf("%s: %v", name, err)
		}
	}
	ok := filepath.Join(dir, "ok")
	if err := os.WriteFile(ok, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(ok, 5); err != nil || string(b) != "hello" {
		t.Errorf("plain file: %q %v", b, err)
	}
	if _, err := ReadFile(ok, 4); !errors.Is(err, ErrTooLarge) {
		t.Errorf("bound: %v", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), 4); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
}
