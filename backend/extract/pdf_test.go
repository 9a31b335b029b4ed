package extract

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/backend/internal/testdocs"
)

// needPDF skips where pdftotext is missing, except in CI, where `make test` has
// installed it and its absence is a failure.
func needPDF(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("pdftotext is not installed: scripts/deps.sh installs poppler-utils")
		}
		t.Skip("pdftotext is not installed (apt install poppler-utils)")
	}
}

func TestPDFPages(t *testing.T) {
	needPDF(t)
	d, err := Bytes("r.pdf", testdocs.PDF([]string{"Alpha page text.", "", "Gamma page text."}), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Kind != "pdf" || d.PageCount() != 3 {
		t.Fatalf("got %+v", d)
	}
	for i, want := range []string{"Alpha page text.", "", "Gamma page text."} {
		p := d.Pages[i]
		if p.N != i+1 || p.Line != 0 || strings.TrimSpace(p.Text) != want {
			t.Errorf("page %d = %+v, want %q", i+1, p, want)
		}
	}
}

func TestPDF200PagesFactOnPage150(t *testing.T) {
	needPDF(t)
	const fact = "The harvest festival code word is PERSIMMON-42."
	data := testdocs.NumberedPDF(200, 150, fact)
	start := time.Now()
	d, err := Bytes("long.pdf", data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("200 pages, %d KB, read in %v", len(data)>>10, time.Since(start))
	if d.PageCount() != 200 {
		t.Fatalf("%d pages", d.PageCount())
	}
	for _, p := range d.Pages {
		has := strings.Contains(p.Text, "PERSIMMON-42")
		if has != (p.N == 150) {
			t.Fatalf("page %d has the fact: %v (%q)", p.N, has, p.Text)
		}
		if !strings.Contains(p.Text, "This is page ") {
			t.Fatalf("page %d: %q", p.N, p.Text)
		}
	}
}

func TestPDFRefusals(t *testing.T) {
	needPDF(t)
	_, err := Bytes("locked.pdf", testdocs.EncryptedPDF([]string{"hidden"}, "pw"), Limits{})
	refused(t, err, ErrEncrypted, "extract.encrypted")

	_, err = Bytes("scan.pdf", testdocs.ScannedPDF(2), Limits{})
	refused(t, err, ErrNoText, "extract.noText")

	_, err = Bytes("x.pdf", []byte("%PDF-1.4\nnot a pdf at all"), Limits{})
	refused(t, err, ErrBadFile, "extract.damaged")

	_, err = Bytes("x.pdf", testdocs.Docx([]string{"a zip"}), Limits{})
	refused(t, err, ErrBadFile, "extract.notWhatItSays")

	_, err = Bytes("long.pdf", testdocs.NumberedPDF(30, 0, ""), Limits{MaxText: 500})
	refused(t, err, ErrTooBig, "extract.tooMuchText")
}

func TestPDFTruncatedNeverHangs(t *testing.T) {
	needPDF(t)
	full := testdocs.NumberedPDF(5, 3, "fact")
	for _, n := range []int{len(full) / 4, len(full) / 2, len(full) - 40} {
		d, err := Bytes("cut.pdf", full[:n], Limits{})
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("cut at %d: %v is not a refusal", n, err)
			}
			continue
		}
		if d.PageCount() == 0 {
			t.Fatalf("cut at %d: no pages and no error", n)
		}
	}
}

func TestPDFUnderATextName(t *testing.T) {
	needPDF(t)
	d, err := Bytes("download.txt", testdocs.PDF([]string{"Inside a PDF."}), Limits{})
	if err != nil || d.Kind != "pdf" || strings.TrimSpace(d.Pages[0].Text) != "Inside a PDF." {
		t.Fatalf("got %+v, %v", d, err)
	}
}

// fakeReader puts a pdftotext script first on PATH.
func fakeReader(t *testing.T, script string) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "pdftotext"), []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

func TestPDFReaderThatStallsIsStopped(t *testing.T) {
	fakeReader(t, "exec sleep 600")
	_, err := Bytes("slow.pdf", []byte("%PDF-1.4"), Limits{Timeout: 300 * time.Millisecond})
	refused(t, err, ErrBadFile, "extract.timeout")
}

func TestPDFReaderThatFloodsIsStopped(t *testing.T) {
	fakeReader(t, "exec yes")
	_, err := Bytes("flood.pdf", []byte("%PDF-1.4"), Limits{MaxText: 1 << 20})
	refused(t, err, ErrTooBig, "extract.tooMuchText")
}

func TestPDFWithoutReader(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if CanReadPDF() {
		t.Fatal("CanReadPDF with no pdftotext on PATH")
	}
	_, err := Bytes("x.pdf", []byte("%PDF-1.4"), Limits{})
	refused(t, err, ErrNoReader, "extract.noPDFReader")
}

// A PDF with only an owner password (permissions, no password to open it) is read.
func TestPDFWithOnlyPermissionsIsRead(t *testing.T) {
	needPDF(t)
	d, err := Bytes("perm.pdf", testdocs.EncryptedPDF([]string{"Open to read."}, ""), Limits{})
	if err != nil || strings.TrimSpace(d.Pages[0].Text) != "Open to read." {
		t.Fatalf("got %+v, %v", d, err)
	}
}

// pdftotext's exit status 3 is a copy ban (older poppler honours it).
func TestPDFCopyBan(t *testing.T) {
	fakeReader(t, "cat >/dev/null; echo 'Permission Error: Copying of text from this document is not allowed.' >&2; exit 3")
	_, err := Bytes("ban.pdf", []byte("%PDF-1.4"), Limits{})
	refused(t, err, ErrEncrypted, "extract.copyForbidden")
}
