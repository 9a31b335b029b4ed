package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hearth/backend/internal/safefile"
	"hearth/backend/internal/safefile/safefiletest"
)

// A config.json that is a named pipe, /dev/zero behind a symlink, a file of more
// than MaxFileBytes or 100 000 nested arrays answers at once with a clear error and
// the defaults (the app still opens and shows the problem).
func TestBadConfigAnswersAtOnce(t *testing.T) {
	dir := t.TempDir()
	bad := safefiletest.Make(t, dir, MaxFileBytes)
	deep := filepath.Join(dir, "deep.json")
	if err := os.WriteFile(deep, []byte(`{"agents":`+strings.Repeat("[", 100000)+strings.Repeat("]", 100000)+`}`), 0o600); err != nil {
		t.Fatal(err)
	}
	bad["deep"] = deep
	for name, p := range bad {
		safefiletest.Answers(t, name, func() {
			cfg, _, err := Load(p, func(string) string { return "" })
			var le *LoadError
			if cfg == nil || !errors.As(err, &le) || le.Hint == "" && !strings.Contains(err.Error(), "hint") {
				t.Errorf("%s: %v", name, err)
			}
			if name == "deep" && !strings.Contains(err.Error(), "nested more than 64") {
				t.Errorf("deep: %v", err)
			}
			if name != "deep" && !errors.Is(err, safefile.ErrNotRegular) && !errors.Is(err, safefile.ErrTooLarge) {
				t.Errorf("%s: %v", name, err)
			}
		})
		safefiletest.Answers(t, name+" (raw)", func() {
			if _, err := ReadRaw(p); err == nil {
				t.Errorf("%s: ReadRaw read it", name)
			}
		})
	}
}
