package cleanpages

import (
	"crypto/sha256"
	"encoding/json"
	"os"
	"os/user"
	"strconv"
	"strings"
	"testing"
)

// TestDropKeepsTheProgramWhole drops the test binary's pages, then every library's, and
// runs code that was not resident before (hashing, JSON, a call into the C library where
// the build links one) after each: a wrong drop of patched pages would crash here.
func TestDropKeepsTheProgramWhole(t *testing.T) {
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		t.Fatal(err)
	}
	isExe := func(p string) bool { return p == exe }
	patched := privatePages(readSmaps(t), isExe)
	fileBefore := rssFile(t)
	if n := DropBinary(); n <= 0 {
		t.Fatalf("DropBinary released %d bytes of the test binary", n)
	}
	if after := rssFile(t); after >= fileBefore {
		t.Errorf("RssFile %d kB after DropBinary, %d kB before", after, fileBefore)
	}
	// A dropped private page would read back as the file's bytes: its count would fall.
	keptPrivate(t, patched, isExe)

	work(t)
	// With -race the test binary links the C library, whose RELRO pages ld.so patched.
	patched = privatePages(readSmaps(t), regularFile)
	if n := DropAll(); n <= 0 {
		t.Fatalf("DropAll released %d bytes", n)
	}
	keptPrivate(t, patched, regularFile)
	work(t)
}

// keptPrivate fails for a mapping of patched (read-only mappings with private pages) that
// has fewer private pages now: a drop would have turned them back into the file's bytes.
func keptPrivate(t *testing.T, patched map[string]int, keep func(string) bool) {
	t.Helper()
	now := privatePages(readSmaps(t), keep)
	for mapping, kb := range patched {
		if now[mapping] < kb {
			t.Errorf("read-only mapping %s lost private pages: %d kB, was %d", mapping, now[mapping], kb)
		}
	}
}

func work(t *testing.T) {
	t.Helper()
	sum := sha256.Sum256([]byte("after the drop"))
	b, err := json.Marshal(map[string]any{"sum": sum[:4], "n": 1})
	if err != nil || !strings.Contains(string(b), `"n":1`) {
		t.Fatalf("json after Drop: %s %v", b, err)
	}
	if _, err := user.Current(); err != nil {
		t.Logf("user.Current: %v (not needed for the check)", err)
	}
}

func readSmaps(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// privatePages gives the anonymous kB of each read-only mapping of a file keep accepts
// that has any, by its address range.
func privatePages(smaps []byte, keep func(string) bool) map[string]int {
	out := map[string]int{}
	var cur string
	for line := range strings.Lines(string(smaps)) {
		if isHeader(line) {
			s, path, ok := mappingOf(line)
			cur = ""
			if ok && keep(path) {
				cur = strconv.FormatUint(uint64(s.start), 16)
			}
			continue
		}
		if v, ok := strings.CutPrefix(line, "Anonymous:"); ok && cur != "" {
			if kb, _ := strconv.Atoi(strings.Fields(v)[0]); kb > 0 {
				out[cur] = kb
			}
		}
	}
	return out
}

func rssFile(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "RssFile:"); ok {
			kb, _ := strconv.Atoi(strings.Fields(v)[0])
			return kb
		}
	}
	t.Fatal("no RssFile in /proc/self/status")
	return 0
}
