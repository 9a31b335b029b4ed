package attach

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func newStore(t testing.TB) (*Store, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "data", "attachments")
	return New(Options{Dir: func() string { return dir }}), dir
}

func write(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// pagedDoc is a document of n page-sized sections; page 150 (when there is one)
// says where the harbour toll is paid. Tests take their document from here so a
// PDF generator can stand in for it.
func pagedDoc(n int) (name string, data []byte) {
	var b strings.Builder
	for p := 1; p <= n; p++ {
		fmt.Fprintf(&b, "Section %d\n\n", p)
		for l := 0; l < 12; l++ {
			fmt.Fprintf(&b, "Page %d line %d tells of the river, the mills and the weather of the valley in spring.\n", p, l)
		}
		if p == 150 {
			b.WriteString("The harbour toll is paid in amber tokens at the lighthouse gate.\n")
		}
		b.WriteString("\n")
	}
	return "ledger.txt", []byte(b.String())
}
