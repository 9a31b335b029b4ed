package knowledge

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"hearth/backend/config"
)

// openRig lists folders (without indexing them) and records what the viewer
// was asked to open.
func openRig(t testing.TB, folders ...string) (*Service, *[]string) {
	t.Helper()
	var opened []string
	set := &fakeSettings{cfg: config.Default()}
	for _, f := range folders {
		set.cfg.Knowledge.Folders = append(set.cfg.Knowledge.Folders, config.KnowledgeFolder{Path: f, Mode: config.KnowledgeAlways})
	}
	s := New(Options{Settings: set, Open: func(p string) error { opened = append(opened, p); return nil }})
	return s, &opened
}

func code(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Msg.Code
	}
	return ""
}

func TestOpenCitation(t *testing.T) {
	root := filepath.Join(t.TempDir(), "Manuals")
	want := write(t, root, "kilns/kiln.md", "# Kiln\n\nFire at 1240 degrees.\n")
	write(t, root, "guide.pdf", "not really a pdf")
	s, opened := openRig(t, root)
	for _, c := range []string{"Manuals/kilns/kiln.md line 3", "Manuals/kilns/kiln.md", " Manuals/kilns/kiln.md p. 2 "} {
		if err := s.Open(c); err != nil {
			t.Fatalf("Open(%q): %v", c, err)
		}
	}
	if err := s.Open("Manuals/guide.pdf p. 4"); err != nil {
		t.Fatal(err)
	}
	if len(*opened) != 4 || (*opened)[0] != want || (*opened)[3] != filepath.Join(root, "guide.pdf") {
		t.Fatalf("opened %q", *opened)
	}
}

func TestOpenTriesEachFolderOfTheName(t *testing.T) {
	a, b := filepath.Join(t.TempDir(), "Notes"), filepath.Join(t.TempDir(), "Notes")
	write(t, a, "one.md", "one")
	want := write(t, b, "two.md", "two")
	s, opened := openRig(t, a, b)
	if err := s.Open("Notes/two.md line 1"); err != nil || len(*opened) != 1 || (*opened)[0] != want {
		t.Fatalf("err %v, opened %q", err, *opened)
	}
}

// TestOpenRefusesAttackers: a citation is model output; none of these may
// reach the viewer.
func TestOpenRefusesAttackers(t *testing.T) {
	tmp := t.TempDir()
	root := filepath.Join(tmp, "Notes")
	write(t, root, "ok.md", "fine")
	secret := write(t, tmp, "secret.md", "outside the folder")
	write(t, root, ".git/config", "hidden")
	if err := os.Symlink(secret, filepath.Join(root, "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(tmp, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.md"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A second name for a file outside the folder: a PDF's citation opens in the
	// system's viewer, so Open must refuse it as View does.
	if err := os.Link(write(t, tmp, "secret.pdf", "%PDF-1.4"), filepath.Join(root, "hard.pdf")); err != nil {
		t.Fatal(err)
	}
	s, opened := openRig(t, root)
	for c, want := range map[string]string{
		"Notes/../secret.md":              "knowledge.openBad",
		"Notes/sub/../../secret.md":       "knowledge.openBad",
		secret:                            "knowledge.openBad", // absolute
		"/" + "Notes/ok.md":               "knowledge.openBad",
		"Notes/":                          "knowledge.openBad",
		"Notes/.git/config":               "knowledge.openBad",
		`Notes/..\secret.md`:              "knowledge.openBad",
		"Notes/link.md line 1":            "knowledge.openLink",
		"Notes/out/secret.md":             "knowledge.openLink",
		"Notes/pipe.md":                   "knowledge.openSpecial",
		"Notes/sub":                       "knowledge.openSpecial",
		"Notes/hard.pdf p. 2":             "knowledge.openHardLink",
		"Notes/gone.md":                   "knowledge.openMissing",
		"Other/ok.md":                     "knowledge.openNoFolder",
		filepath.Base(tmp) + "/secret.md": "knowledge.openNoFolder", // the folder above a listed one
	} {
		if got := code(s.Open(c)); got != want {
			t.Errorf("Open(%q): code %q, want %q", c, got, want)
		}
	}
	if len(*opened) != 0 {
		t.Fatalf("the viewer was asked to open %q", *opened)
	}
}

func TestOpenWithoutViewer(t *testing.T) {
	root := filepath.Join(t.TempDir(), "Notes")
	write(t, root, "ok.md", "fine")
	set := &fakeSettings{cfg: config.Default()}
	set.cfg.Knowledge.Folders = []config.KnowledgeFolder{{Path: root, Mode: config.KnowledgeAsk}}
	if got := code(New(Options{Settings: set}).Open("Notes/ok.md")); got != "knowledge.openNoViewer" {
		t.Fatalf("code %q", got)
	}
}

// FuzzOpen: whatever the citation, the viewer only ever gets a path inside the
// listed folder.
func FuzzOpen(f *testing.F) {
	for _, c := range []string{"Notes/ok.md line 3", "Notes/../x", "/etc/passwd", "Notes/a/b.md p. 2", "Notes//ok.md", "Notes/ok.md line 99999999999999999999"} {
		f.Add(c)
	}
	root := filepath.Join(f.TempDir(), "Notes")
	if err := os.MkdirAll(root, 0o755); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "ok.md"), []byte("fine"), 0o644); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, c string) {
		s, opened := openRig(t, root)
		_ = s.Open(c)
		for _, p := range *opened {
			if !strings.HasPrefix(p, root+string(filepath.Separator)) {
				t.Fatalf("Open(%q) opened %q", c, p)
			}
		}
	})
}
