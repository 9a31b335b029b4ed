package attach

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"hearth/backend/extract"
)

func TestAddCopiesRecordsAndIndexes(t *testing.T) {
	s, dir := newStore(t)
	src := write(t, t.TempDir(), "notes.md", "# Notes\n\nThe key is under the blue pot.\n")
	got := s.Add("chat1", []Source{{Path: src}, {Name: "pasted.txt", Data: []byte("hello there")}})
	if len(got) != 2 {
		t.Fatalf("records: %+v", got)
	}
	a := got[0]
	if a.Name != "notes.md" || a.Kind != "markdown" || a.Mode != "whole" || a.File != "notes.md" || a.Bytes != 40 || a.Passages != 1 {
		t.Errorf("record: %+v", a)
	}
	b, err := os.ReadFile(filepath.Join(dir, "chat1", "notes.md"))
	if err != nil || !strings.Contains(string(b), "blue pot") {
		t.Fatalf("copy: %q %v", b, err)
	}
	// The source moves away: the chat still has its copy and its passages.
	if err := os.Remove(src); err != nil {
		t.Fatal(err)
	}
	if files := s.Files("chat1"); len(files) != 2 || files[0] != "notes.md" || files[1] != "pasted.txt" {
		t.Errorf("files: %v", files)
	}
	if p := s.Path("chat1", "notes.md"); p != filepath.Join(dir, "chat1", "notes.md") {
		t.Errorf("path: %q", p)
	}
	for _, bad := range []string{"", "../x", ".notes.md.passages.json", "a/b"} {
		if p := s.Path("chat1", bad); p != "" {
			t.Errorf("path of %q: %q", bad, p)
		}
	}
	// The same name again gets a number.
	again := s.Add("chat1", []Source{{Name: "notes.md", Data: []byte("other")}})
	if again[0].File != "notes-2.md" {
		t.Errorf("second copy: %+v", again[0])
	}
}

func TestRefusedFilesSayWhyAndTheRestGoesOn(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "attachments")
	s := New(Options{Dir: func() string { return dir }, Limits: extract.Limits{MaxBytes: 100}})
	src := t.TempDir()
	got := s.Add("c", []Source{
		{Path: write(t, src, "big.txt", strings.Repeat("x", 101))},
		{Path: write(t, src, "photo.bin", "abc")},
		{Name: "latin1.txt", Data: []byte{'a', 0xe9, 't', 0xe9}}, // Latin-1 "été": not UTF-8, no BOM
		{Path: filepath.Join(src, "missing.txt")},
		{Path: write(t, src, "ok.txt", "fine")},
	})
	want := []string{CodeTooBig, CodeUnsupported, CodeBadFile, CodeUnreadable, ""}
	for i, a := range got {
		if a.Error != want[i] {
			t.Errorf("%d %s: error %q, want %q (%+v)", i, a.Name, a.Error, want[i], a)
		}
		if want[i] != "" && (a.Mode != "refused" || a.Detail == "" || !strings.Contains(a.Detail, "hint")) {
			t.Errorf("%d: %+v", i, a)
		}
	}
	if got[4].Mode != "whole" || got[4].File != "ok.txt" {
		t.Errorf("the good file: %+v", got[4])
	}
	if _, err := os.Stat(filepath.Join(dir, "c", "big.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused file was copied: %v", err)
	}
}

func TestBigFileIsSearched(t *testing.T) {
	s, _ := newStore(t)
	name, data := pagedDoc(200)
	a := s.Add("c", []Source{{Name: name, Data: data}})[0]
	if a.Mode != "searched" || a.Passages < 200 {
		t.Errorf("record: %+v", a)
	}
}

// Attacker's tests: what a source or the attachments folder may hold.

func TestSourceLinkFIFOAndDeviceRefused(t *testing.T) {
	s, _ := newStore(t)
	src := t.TempDir()
	target := write(t, src, "secret.txt", "secret")
	link := filepath.Join(src, "link.txt")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(src, "pipe.txt")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{link: CodeLink, fifo: CodeNotFile, "/dev/zero": CodeNotFile, src: CodeFolder} {
		a := s.Add("c", []Source{{Path: p}})[0] // a FIFO must not hang here
		if a.Mode != "refused" || a.Error != want || !strings.Contains(a.Detail, "hint:") {
			t.Errorf("%s: %+v, want %s", p, a, want)
		}
	}
}

func TestFileThatInflatesWhileReadIsRefused(t *testing.T) {
	// A /proc file says it is empty and reads as more: a file growing while it
	// is copied looks the same to the reader.
	dir := filepath.Join(t.TempDir(), "attachments")
	s := New(Options{Dir: func() string { return dir }, Limits: extract.Limits{MaxBytes: 64}})
	a := s.Add("c", []Source{{Path: "/proc/self/maps"}})[0]
	if a.Error != CodeTooBig {
		t.Errorf("record: %+v", a)
	}
}

func TestPlantedLinksAreNeverFollowed(t *testing.T) {
	s, dir := newStore(t)
	outside := t.TempDir()
	victim := write(t, outside, "victim.txt", "keep me")
	// A link where the copy would go, and one where its passages would go.
	if err := os.MkdirAll(filepath.Join(dir, "c"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, "c", "notes.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, "c", ".notes-2.txt.passages.json")); err != nil {
		t.Fatal(err)
	}
	a := s.Add("c", []Source{{Name: "notes.txt", Data: []byte("new text")}})[0]
	if a.Mode == "refused" || a.File != "notes-3.txt" {
		t.Errorf("record: %+v", a)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me" {
		t.Fatalf("the link was written through: %q", b)
	}
	// The chat's folder itself a link to elsewhere: nothing is written there.
	if err := os.Symlink(outside, filepath.Join(dir, "d")); err != nil {
		t.Fatal(err)
	}
	if a := s.Add("d", []Source{{Name: "x.txt", Data: []byte("x")}})[0]; a.Mode != "refused" {
		t.Errorf("through a linked folder: %+v", a)
	}
	if _, err := os.Stat(filepath.Join(outside, "x.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("written through the linked folder: %v", err)
	}
	// Removing the chat whose folder is a link leaves the target alone.
	if err := s.Remove("d"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(victim); err != nil {
		t.Errorf("remove followed the link: %v", err)
	}
}

func TestHugeAndTraversingNames(t *testing.T) {
	s, dir := newStore(t)
	huge := strings.Repeat("ä", 300) + ".txt"
	got := s.Add("c", []Source{{Name: huge, Data: []byte("a")}, {Name: "../../etc/passwd.txt", Data: []byte("b")},
		{Name: "..", Data: []byte("c")}, {Name: "a\x00b\nc.txt", Data: []byte("d")}})
	if len(got[0].File) > maxNameBytes || !strings.HasSuffix(got[0].File, ".txt") {
		t.Errorf("huge name: %d bytes %q", len(got[0].File), got[0].File)
	}
	if got[1].File != "passwd.txt" {
		t.Errorf("traversing name: %+v", got[1])
	}
	if got[2].Mode != "refused" || got[2].Name != "file" {
		t.Errorf("dot-dot: %+v", got[2]) // no extension: not a kind Hearth reads
	}
	if got[3].File != "abc.txt" {
		t.Errorf("control characters: %+v", got[3])
	}
	ents, _ := os.ReadDir(filepath.Dir(dir))
	if len(ents) != 1 {
		t.Errorf("something was written beside the attachments folder: %v", ents)
	}
}

func TestRemoveDeletesTheChatsFolder(t *testing.T) {
	s, dir := newStore(t)
	s.Add("c", []Source{{Name: "a.txt", Data: []byte("alpha beta")}})
	s.Add("other", []Source{{Name: "b.txt", Data: []byte("gamma")}})
	if err := s.Remove("c"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "c")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("folder left: %v", err)
	}
	if len(s.Files("c")) != 0 || len(s.Files("other")) != 1 {
		t.Errorf("files after remove: %v %v", s.Files("c"), s.Files("other"))
	}
	if err := s.Remove("never"); err != nil {
		t.Errorf("a chat without attachments: %v", err)
	}
}

func TestOpenOnlyTheChatsOwnFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "attachments")
	var opened []string
	s := New(Options{Dir: func() string { return dir }, Open: func(p string) error { opened = append(opened, p); return nil }})
	s.Add("c", []Source{{Name: "a.txt", Data: []byte("alpha")}})
	if err := s.Open("c", "a.txt"); err != nil || len(opened) != 1 || opened[0] != filepath.Join(dir, "c", "a.txt") {
		t.Fatalf("open: %v %v", err, opened)
	}
	for _, bad := range []string{"../c/a.txt", ".a.txt.passages.json", "missing.txt"} {
		if err := s.Open("c", bad); err == nil || !strings.Contains(err.Error(), "hint") {
			t.Errorf("open %q: %v", bad, err)
		}
	}
	if err := s.Open("other", "a.txt"); err == nil {
		t.Error("another chat's file opened")
	}
	if len(opened) != 1 {
		t.Errorf("opened: %v", opened)
	}
}

// Another process (the CLI) attaching a file to a chat the window has read: the
// next search sees it.
func TestAnotherStoreAddingIsSeen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "attachments")
	window := New(Options{Dir: func() string { return dir }})
	cli := New(Options{Dir: func() string { return dir }})
	window.Add("c", []Source{{Name: "a.txt", Data: []byte("alpha")}})
	if got := window.Files("c"); len(got) != 1 {
		t.Fatalf("files: %v", got)
	}
	cli.Add("c", []Source{{Name: "b.txt", Data: []byte("beta")}})
	if got := window.Files("c"); len(got) != 2 {
		t.Errorf("files after the other store added one: %v", got)
	}
}
