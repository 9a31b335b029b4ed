package memrepo

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkCommit is one remember on a history of ten files: what every
// change of a memory file costs in the history (guardFS's walks included).
func BenchmarkCommit(b *testing.B) {
	r := New(filepath.Join(b.TempDir(), "memory.git"), nil)
	files := map[string][]byte{}
	for i := range 10 {
		files[fmt.Sprintf("memory/2026-11-%02d.md", i+1)] = []byte(strings.Repeat("a note line\n", 200))
	}
	if _, err := r.Commit(Change{Files: files, Author: "Hearth", Message: "onboarding"}); err != nil {
		b.Fatal(err)
	}
	mem := "# Memory\n"
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		mem += fmt.Sprintf("- fact %d\n", i)
		if _, err := r.Commit(Change{Files: map[string][]byte{"memory/MEMORY.md": []byte(mem)}, Author: "agent", Message: "remember"}); err != nil {
			b.Fatal(err)
		}
	}
}
