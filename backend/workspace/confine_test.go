package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"hearth/backend/internal/confined"
)

// memory/ swapped for a symlink out: onboarding refuses instead of filling
// the other folder with templates.
func TestOnboardStaysInside(t *testing.T) {
	ws, outside := filepath.Join(t.TempDir(), "ws"), t.TempDir()
	if err := os.MkdirAll(ws, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(ws, "memory")); err != nil {
		t.Fatal(err)
	}
	if _, err := Onboard(ws); !errors.Is(err, confined.ErrOutside) {
		t.Errorf("onboard through a symlinked memory/: %v", err)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("templates written outside: %v", ents)
	}
}
