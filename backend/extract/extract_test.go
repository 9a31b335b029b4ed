package extract

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"hearth/backend/i18n"
)

// refused checks that err is an *Error of kind with the problem code.
func refused(t *testing.T, err error, kind error, code string) {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Fatalf("err = %v, want %v", err, kind)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err %v is not an *extract.Error", err)
	}
	if p := Problem(err); p.Text.Code != code || len(p.Hint) == 0 || p.Hint[0].Code != code+".hint" {
		t.Fatalf("problem = %+v, want code %s with its hint", p, code)
	}
	if !strings.Contains(err.Error(), "hint:") {
		t.Fatalf("error %q says no hint", err)
	}
}

func TestText(t *testing.T) {
	d, err := Bytes("notes.md", []byte("# Title\nbody\n"), Limits{})
	if err != nil || d.Kind != "markdown" || len(d.Pages) != 1 || d.Pages[0].Line != 1 || d.Pages[0].Text != "# Title\nbody\n" {
		t.Fatalf("got %+v, %v", d, err)
	}
	if d.PageCount() != 0 {
		t.Fatalf("PageCount of text = %d", d.PageCount())
	}
	if ext := Extensions(); len(ext) < 20 || !slices.Contains(ext, ".pdf") || !slices.IsSorted(ext) {
		t.Fatalf("Extensions = %v", ext)
	}
	for _, n := range []string{"a.rst", "b.org", "c.go", "d.txt", "e.LOG", "f.PDF", "g.docx", "h.htm", "i.tsv"} {
		if !Supported(n) {
			t.Errorf("%s not supported", n)
		}
	}
	_, err = Bytes("x.txt", []byte("text\x00\x01binary"), Limits{})
	refused(t, err, ErrBadFile, "extract.binary")
	_, err = Bytes("x.txt", []byte("caf\xe9"), Limits{})
	refused(t, err, ErrBadFile, "extract.notUTF8")
	_, err = Bytes("x.exe", []byte("MZ"), Limits{})
	refused(t, err, ErrUnsupported, "extract.unsupported")
	_, err = Bytes("x.txt", []byte(strings.Repeat("a", 2000)), Limits{MaxText: 1000})
	refused(t, err, ErrTooBig, "extract.tooMuchText")
	_, err = Bytes("x.txt", []byte(strings.Repeat("a", 2000)), Limits{MaxBytes: 1000})
	refused(t, err, ErrTooBig, "extract.tooBig")
}

func TestFileRefusesWhatIsNotAPlainFile(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret.txt")
	if err := os.WriteFile(secret, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "planted.txt")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	_, err := File(link, Limits{})
	refused(t, err, ErrUnsupported, "extract.notRegular")

	// A FIFO with no writer: opening it for a plain read would wait for ever.
	fifo := filepath.Join(dir, "pipe.txt")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = File(fifo, Limits{})
	refused(t, err, ErrUnsupported, "extract.notRegular")

	_, err = File(dir, Limits{})
	refused(t, err, ErrUnsupported, "extract.notRegular")

	big := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(big, make([]byte, 4096), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = File(big, Limits{MaxBytes: 1024})
	refused(t, err, ErrTooBig, "extract.tooBig")

	_, err = File(filepath.Join(dir, "gone.txt"), Limits{})
	if p := Problem(err); p.Text.Code != "extract.notFound" {
		t.Fatalf("missing file: %+v (%v)", p, err)
	}
	if p := Problem(errors.New("odd")); p.Text.Code != "extract.cantRead" {
		t.Fatalf("other error: %+v", p)
	}

	d, err := File(secret, Limits{})
	if err != nil || d.Name != "secret.txt" || d.Pages[0].Text != "secret" || d.Bytes != 6 {
		t.Fatalf("plain file: %+v, %v", d, err)
	}
}

func TestProblemsAreInTheCatalog(t *testing.T) {
	// Every code this package makes has English and Chinese words (the i18n tests
	// check the literal calls; this checks what a refusal carries end to end).
	_, err := Bytes("x.exe", nil, Limits{})
	p := Problem(err)
	for _, l := range i18n.Locales() {
		if s := p.Text.In(l); s == "" || s == p.Text.Code {
			t.Fatalf("%s: %q", l, s)
		}
	}
}

func TestOtherEncodings(t *testing.T) {
	// Notepad's "Unicode": UTF-16 little-endian with a byte-order mark.
	utf16 := []byte{0xff, 0xfe}
	for _, r := range "héllo\n" {
		utf16 = append(utf16, byte(r), byte(r>>8))
	}
	d, err := Bytes("n.txt", utf16, Limits{})
	if err != nil || d.Pages[0].Text != "héllo\n" {
		t.Fatalf("UTF-16: %+v, %v", d, err)
	}
	d, err = Bytes("bom.md", []byte("\xef\xbb\xbf# x\n"), Limits{})
	if err != nil || d.Pages[0].Text != "# x\n" {
		t.Fatalf("BOM: %+v, %v", d, err)
	}
	latin := []byte(`<html><head><meta charset="windows-1252"><title>Caf` + "\xe9" + `</title></head><body><p>na` + "\xef" + `ve</p></body></html>`)
	d, err = Bytes("old.html", latin, Limits{})
	if err != nil || d.Pages[0].Text != "Café\n\nnaïve\n" {
		t.Fatalf("windows-1252 page: %+v, %v", d, err)
	}
}
