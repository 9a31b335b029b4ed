package main

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A small database in WordNet's format: flu/influenza (counted through
// "flu"), a disease above it, and an irregular form.
var testDict = map[string]string{
	"data.noun": "  1 This software and database is being provided to you\n" +
		"14122497 26 n 03 influenza 0 flu 0 grippe 0 001 @ 14070360 n 0000 | an acute febrile highly contagious viral disease\n" +
		"14070360 26 n 02 infectious_disease 0 contagion 0 001 ~ 14122497 n 0000 | a disease\n" +
		"00000001 26 n 01 Paris 0 000 | a name\n",
	"data.verb":   "",
	"data.adj":    "01 00 s 01 sweet(a) 0 000 | pleasing\n",
	"data.adv":    "",
	"cntlist.rev": "flu%1:26:00:: 1 2\ninfectious_disease%1:26:00:: 1 3\nsweet%5:00:00:pleasing:00 1 4\n",
	"noun.exc":    "flus flu\n",
	"verb.exc":    "", "adj.exc": "", "adv.exc": "",
}

func writeDict(t *testing.T, files map[string]string) string {
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestBuild(t *testing.T) {
	db, err := load(writeDict(t, testDict))
	if err != nil {
		t.Fatal(err)
	}
	tb := db.build()
	var out bytes.Buffer
	if err := tb.write(&out); err != nil {
		t.Fatal(err)
	}
	body, err := inflate(out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	src := string(body)
	for _, want := range []string{"influenza;", "flu,influenza,grippe;", "infectious disease,contagion;", "flus flu;"} {
		if !strings.Contains(src, want) {
			t.Errorf("the table lacks %q:\n%s", want, src)
		}
	}
	if strings.Contains(src, "paris") || strings.Contains(src, "Paris") || strings.Contains(src, "sweet") {
		t.Errorf("a name, or a word alone in its synset with nothing near, is in the table:\n%s", src)
	}
}

// A missing file says what to install; a line past the scanner's limit is
// an error, not a silent cut.
func TestLoadBadInput(t *testing.T) {
	if _, err := load(t.TempDir()); err == nil || !strings.Contains(err.Error(), "wordnet-base") {
		t.Fatalf("an empty directory: %v", err)
	}
	huge := map[string]string{}
	for k, v := range testDict {
		huge[k] = v
	}
	huge["data.noun"] += strings.Repeat("x", 2<<20) + "\n"
	if _, err := load(writeDict(t, huge)); err == nil {
		t.Fatal("a 2 MB line was read without an error")
	}
	bad := map[string]string{}
	for k, v := range testDict {
		bad[k] = v
	}
	bad["data.noun"] = "14122497 26 n ff flu 0\n"
	if _, err := load(writeDict(t, bad)); err == nil || !strings.Contains(err.Error(), "word count") {
		t.Fatalf("a synset claiming 255 words: %v", err)
	}
}

// A symlink where a data file should be is followed (the directory is the
// developer's own WordNet); one that leads nowhere is an error.
func TestLoadDanglingSymlink(t *testing.T) {
	dir := writeDict(t, testDict)
	os.Remove(filepath.Join(dir, "data.verb"))
	if err := os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "data.verb")); err != nil {
		t.Skip(err)
	}
	if _, err := load(dir); err == nil {
		t.Fatal("a dangling data.verb was read without an error")
	}
}

func FuzzParseSynset(f *testing.F) {
	for _, l := range strings.Split(testDict["data.noun"]+testDict["data.adj"], "\n") {
		f.Add(l)
	}
	f.Add("00086835 29 v 04 immunize 0 immunise 0 inoculate 0 vaccinate 0 002 @ 00086320 v 0000 + 14364306 n 0401 02 + 02 00 | x")
	f.Fuzz(func(t *testing.T, l string) {
		s, err := parseSynset(l)
		if err == nil && s != nil && (len(s.words) == 0 || s.id == "") {
			t.Fatalf("%q parsed to %+v", l, s)
		}
	})
}

func FuzzParseCount(f *testing.F) {
	f.Add("flu%1:26:00:: 1 2")
	f.Add("sweet%5:00:00:pleasing:00 1 4")
	f.Fuzz(func(t *testing.T, l string) {
		if k, n, ok := parseCount(l); ok && (n < 0 || k.lemma == "") {
			t.Fatalf("%q parsed to %+v %d", l, k, n)
		}
	})
}

// The committed table is what this command makes of WordNet 3.0, when the
// machine has it (Debian: wordnet-base; WORDNET_DICT names another copy).
func TestCommittedTable(t *testing.T) {
	dict := os.Getenv("WORDNET_DICT")
	if dict == "" {
		dict = "/usr/share/wordnet"
	}
	if _, err := os.Stat(filepath.Join(dict, "data.noun")); err != nil {
		t.Skip("WordNet 3.0 is not installed here:", err)
	}
	db, err := load(dict)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := db.build().write(&out); err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile("../../backend/recall/wordnet.bin")
	if err != nil {
		t.Fatal(err)
	}
	// The tables, not the compressed bytes: another Go's compressor may
	// write the same table otherwise.
	want, err := inflate(out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if got, err := inflate(committed); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("backend/recall/wordnet.bin is not what scripts/wordnet makes (%v): go run ./scripts/wordnet", err)
	}
}

// inflate is the file's sections, after its header.
func inflate(file []byte) ([]byte, error) {
	head := binary.LittleEndian.AppendUint32([]byte(fileMagic), fileVersion)
	if !bytes.HasPrefix(file, head) {
		return nil, errors.New("no header")
	}
	z, err := zlib.NewReader(bytes.NewReader(file[len(head):]))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(z)
}
