package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every command gets its page, dated by the commit and naming the version, and nothing
// in them changes from one run to the next.
func TestWritePages(t *testing.T) {
	dir := t.TempDir()
	if err := write(dir, "1.2.3", 1767225600); err != nil { // 2026-01-01
		t.Fatal(err)
	}
	root, err := os.ReadFile(filepath.Join(dir, "hearth.1"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`.TH "HEARTH" "1" "Jan 2026" "Hearth 1.2.3" "Hearth Manual"`, "hearth-status(1)", "--config"} {
		if !strings.Contains(string(root), want) {
			t.Errorf("hearth.1 lacks %q:\n%s", want, root)
		}
	}
	for _, page := range []string{"hearth-status.1", "hearth-cron-add.1", "hearth-memory-search.1"} {
		if _, err := os.Stat(filepath.Join(dir, page)); err != nil {
			t.Errorf("no page for a command: %v", err)
		}
	}
	again := t.TempDir()
	if err := write(again, "1.2.3", 1767225600); err != nil {
		t.Fatal(err)
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "*.1"))
	for _, p := range pages {
		a, _ := os.ReadFile(p)
		b, _ := os.ReadFile(filepath.Join(again, filepath.Base(p)))
		if string(a) != string(b) {
			t.Errorf("%s differs between two runs", filepath.Base(p))
		}
	}
}
