package fakeollama

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// goldenPath holds the real server's shapes, one case a line ("name<TAB>shape"):
// the fake is held to them even where no real server runs. Regenerate with
// HEARTH_TEST_OLLAMA set and `go test ./backend/internal/fakeollama -run
// TestContractReal -update-contract`.
var goldenPath = filepath.Join("testdata", "contract.golden")

var updateContract = flag.Bool("update-contract", false, "rewrite testdata/contract.golden from the real Ollama")

func readGolden(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatalf("read %s: %v (regenerate it with -update-contract)", goldenPath, err)
	}
	out := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		name, shape, ok := strings.Cut(l, "\t")
		if !ok {
			t.Fatalf("%s: bad line %q", goldenPath, l)
		}
		out[name] = shape
	}
	return out
}

func writeGolden(t *testing.T, shapes map[string]string) {
	t.Helper()
	var b strings.Builder
	for _, c := range contractCases {
		b.WriteString(c.name + "\t" + shapes[c.name] + "\n")
	}
	if err := os.MkdirAll(filepath.Dir(goldenPath), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(goldenPath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkGolden compares who's shapes with the real server's, case by case.
func checkGolden(t *testing.T, who string, got map[string]string) {
	t.Helper()
	want := readGolden(t)
	for _, c := range contractCases {
		if _, ok := want[c.name]; !ok {
			t.Errorf("case %q is not in %s: regenerate it from the real server (-update-contract)", c.name, goldenPath)
			continue
		}
		if got[c.name] != want[c.name] {
			t.Errorf("%s differs from the real Ollama on %q:\n%s: %s\nreal: %s", who, c.name, who, got[c.name], want[c.name])
		}
	}
	for name := range want {
		if !slices.ContainsFunc(contractCases, func(c contractCase) bool { return c.name == name }) {
			t.Errorf("%s has case %q the table no longer has", goldenPath, name)
		}
	}
}
