package attach

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"hearth/backend/extract"
)

// A drop's paths are checked as the picker's are when sent: a file comes back
// with its name and size; a planted link, a FIFO (without hanging), a device, a
// folder and a file over the limit are refused with a coded problem that says
// what to do; a picture is left to the window; nothing is copied.
func TestDroppedPathsChecked(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data", "attachments")
	s := New(Options{Dir: func() string { return dir }, Limits: extract.Limits{MaxBytes: 1 << 20}})
	src := t.TempDir()
	notes := write(t, src, "notes.md", "# Notes\n")
	secret := write(t, t.TempDir(), "secret.txt", "secret")
	link := filepath.Join(src, "report.pdf")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(src, "pipe.txt")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(src, "huge.log")
	if err := os.WriteFile(huge, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 2<<20); err != nil { // sparse: 2 MB claimed, nothing read
		t.Fatal(err)
	}
	folder := filepath.Join(src, "notes")
	if err := os.Mkdir(folder, 0o700); err != nil {
		t.Fatal(err)
	}
	photo := filepath.Join(src, "Photo.JPG") // not even there: the window reads its bytes
	long := "/" + strings.Repeat("a/", 5000) + "x.txt"
	got := s.Dropped([]string{notes, link, fifo, "/dev/zero", folder, huge, photo, filepath.Join(src, "gone.txt"), "relative.txt", long})
	want := []struct {
		name, code, says string
		bytes            int64
	}{
		{"notes.md", "", "", 8},
		{"report.pdf", CodeLink, "attach the file it points to", 0},
		{"pipe.txt", CodeNotFile, "not a pipe or a device", 0},
		{"zero", CodeNotFile, "not a pipe or a device", 0},
		{"notes", CodeFolder, "Settings › Knowledge", 0},
		{"huge.log", CodeTooBig, "over 1 MB", 0},
		{"Photo.JPG", "", "", 0},
		{"gone.txt", CodeUnreadable, "check that the file exists", 0},
		{"relative.txt", CodeUnreadable, "drop files from the file manager", 0},
		{"x.txt", CodeUnreadable, "too long", 0},
	}
	if len(got) != len(want) {
		t.Fatalf("%d results for %d paths: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Name != w.name || g.Error != w.code || g.Bytes != w.bytes || !strings.Contains(g.Detail, w.says) {
			t.Errorf("%d: %+v, want %+v", i, g, w)
		}
	}
	if got[0].Path != notes || !got[6].Picture || got[0].Picture || got[9].Path != "" {
		t.Errorf("paths and pictures: %+v", got)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a drop copied something: %v", err)
	}
	if b, _ := os.ReadFile(secret); string(b) != "secret" {
		t.Error("the link's target changed")
	}
	// The picker's way, sent: the same refusals with the same codes.
	for i, p := range []string{link, fifo, folder, huge} {
		if a := s.Add("c", []Source{{Path: p}})[0]; a.Mode != "refused" || a.Error != got[[]int{1, 2, 4, 5}[i]].Error {
			t.Errorf("%s sent: %+v", p, a)
		}
	}
}

// A drop of very many paths is checked up to MaxDropped; the rest are refused unopened.
func TestDroppedBounded(t *testing.T) {
	s, _ := newStore(t)
	p := write(t, t.TempDir(), "a.txt", "a")
	paths := make([]string, MaxDropped+5)
	for i := range paths {
		paths[i] = p
	}
	got := s.Dropped(paths)
	if len(got) != len(paths) || got[MaxDropped-1].Error != "" || got[MaxDropped].Error != CodeTooMany {
		t.Fatalf("%+v", got[MaxDropped-1:])
	}
}

// FuzzDropped: any name dropped in a folder with a file, a link, a folder and a
// pipe gives one result, with its path when it may be sent and a problem when not.
func FuzzDropped(f *testing.F) {
	for _, s := range []string{"notes.md", "link.md", "sub", "pipe", "photo.png", "", "..", "a\x00b", strings.Repeat("x", 300)} {
		f.Add(s)
	}
	dir := f.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.md"), []byte("# n\n"), 0o600); err != nil {
		f.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "notes.md"), filepath.Join(dir, "link.md")); err != nil {
		f.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o700); err != nil {
		f.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o600); err != nil {
		f.Fatal(err)
	}
	s, _ := newStore(f)
	f.Fuzz(func(t *testing.T, name string) {
		// Kept inside dir: a fuzzed path must not reach the machine's devices.
		p := filepath.Join(dir, strings.ReplaceAll(strings.ReplaceAll(name, "/", "_"), "..", "_"))
		got := s.Dropped([]string{p})
		if len(got) != 1 {
			t.Fatalf("%d results", len(got))
		}
		d := got[0]
		if d.Error == "" && !d.Picture && d.Path != p {
			t.Fatalf("accepted without its path: %+v", d)
		}
		if d.Error != "" && d.Detail == "" {
			t.Fatalf("refused without words: %+v", d)
		}
	})
}
