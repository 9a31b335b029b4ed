// Package extract reads the text out of the files a person hands Hearth
// (attachments, knowledge folders): plain text, Markdown, source code, PDF's text
// layer, Word (.docx), HTML and CSV. It never hangs and never reads without a
// bound: a file over the size limit, an encrypted or scanned PDF (no text layer)
// or a format it does not know is refused with an error that says what to do.
package extract

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"hearth/backend/i18n"
)

// Doc is what was read from one file.
type Doc struct {
	Name  string `json:"name"`  // base name
	Kind  string `json:"kind"`  // "text", "markdown", "code", "pdf", "docx", "html", "csv"
	Bytes int64  `json:"bytes"` // size of the file
	// Pages hold the text in order. A PDF has one per page (N from 1); every other
	// kind has one page (N 0) whose Line is 1. Citations name the page, or the line
	// counted from Line through the text. (A CSV whose quoted fields span lines starts
	// a new page at the next record, so Line stays the file's line.)
	Pages []Page `json:"pages"`
}

// Page is one page of text.
type Page struct {
	N    int    `json:"n"`    // page number (PDF), 0 when the format has none
	Line int    `json:"line"` // line number of the text's first line in the file (1), 0 for a PDF
	Text string `json:"text"`
}

// Pages of a Doc, counted as a person counts them (a PDF's pages, else 0).
func (d *Doc) PageCount() int {
	if len(d.Pages) > 0 && d.Pages[0].N > 0 {
		return len(d.Pages)
	}
	return 0
}

// Limits bound a read.
type Limits struct {
	MaxBytes int64         // the file's size; 0 means DefaultMaxBytes
	MaxText  int           // the text taken out (an inflating .docx); 0 means DefaultMaxText
	Timeout  time.Duration // the PDF reader's run; 0 means DefaultTimeout
}

// Defaults: a 50 MB file and 20 MB of text cover a 1 000-page report; a minute reads
// any PDF that is not built to stall its reader.
const (
	DefaultMaxBytes = 50 << 20
	DefaultMaxText  = 20 << 20
	DefaultTimeout  = 60 * time.Second
)

// Errors a caller tells apart (each comes as an *Error with the file's name and a
// hint; errors.Is finds the kind).
var (
	ErrTooBig      = errors.New("file is too big")
	ErrUnsupported = errors.New("file type is not supported")
	ErrEncrypted   = errors.New("file is encrypted")
	ErrNoText      = errors.New("file has no text layer")
	ErrBadFile     = errors.New("file is damaged or not what its name says")
	ErrNoReader    = errors.New("the reader for this file type is not installed")
)

// Supported reports whether name's extension is a kind Read knows.
func Supported(name string) bool { return kindOf(name) != "" }

// File reads the file at path: a regular file, not followed through a link at its
// last element, never waited on (a FIFO is refused, not opened for a writer).
func File(path string, lim Limits) (*Doc, error) {
	lim = lim.withDefaults()
	name := filepath.Base(path)
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
	if err != nil {
		if errors.Is(err, unix.ELOOP) {
			return nil, refuse(name, ErrUnsupported, i18n.P("extract.notRegular", "name", name))
		}
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, refuse(name, ErrUnsupported, i18n.P("extract.notRegular", "name", name))
	}
	if fi.Size() > lim.MaxBytes {
		return nil, tooBig(name, fi.Size(), lim)
	}
	// The size is read again through a bound: a file that grows while read is cut at
	// the limit and refused, not read without end.
	data, err := io.ReadAll(io.LimitReader(f, lim.MaxBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > lim.MaxBytes {
		return nil, tooBig(name, int64(len(data)), lim)
	}
	return Bytes(name, data, lim)
}

// Bytes reads a file's content given its name. The extension picks the kind; the
// content overrules it where it is plainly a PDF (a download saved as .txt), and a PDF or Word
// name on other content is refused as not what it says.
func Bytes(name string, data []byte, lim Limits) (*Doc, error) {
	lim = lim.withDefaults()
	if int64(len(data)) > lim.MaxBytes {
		return nil, tooBig(name, int64(len(data)), lim)
	}
	kind, err := sniff(name, data)
	if err != nil {
		return nil, err
	}
	d := &Doc{Name: name, Kind: kind, Bytes: int64(len(data))}
	switch kind {
	case "text", "markdown", "code", "html", "csv":
		text, err := toUTF8(name, kind, data, lim)
		if err != nil {
			return nil, err
		}
		switch kind {
		case "html":
			d.Pages, err = readHTML(name, text, lim)
		case "csv":
			d.Pages, err = readCSV(name, text, kindComma(name), lim)
		default:
			if len(text) > lim.MaxText {
				return nil, tooMuchText(name, lim)
			}
			d.Pages = []Page{{Line: 1, Text: string(text)}}
		}
		if err != nil {
			return nil, err
		}
	case "pdf":
		d.Pages, err = readPDF(name, data, lim)
	case "docx":
		d.Pages, err = readDocx(name, data, lim)
	default:
		return nil, refuse(name, ErrUnsupported, i18n.P("extract.unsupported", "name", name))
	}
	if err != nil {
		return nil, err
	}
	return d, nil
}

// sniff settles the kind from the name and the first bytes.
func sniff(name string, data []byte) (string, error) {
	kind := kindOf(name)
	isPDF := bytes.Contains(data[:min(len(data), 1024)], []byte("%PDF-"))
	isZip := bytes.HasPrefix(data, []byte("PK\x03\x04"))
	isOLE := bytes.HasPrefix(data, []byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"))
	switch {
	case kind == "pdf" && !isPDF:
		return "", refuse(name, ErrBadFile, i18n.P("extract.notWhatItSays", "name", name, "kind", "PDF"))
	case kind == "docx" && isOLE:
		// An encrypted Office file is a compound file holding "EncryptedPackage";
		// any other compound file is the old .doc format.
		if bytes.Contains(data, utf16le("EncryptedPackage")) {
			return "", refuse(name, ErrEncrypted, i18n.P("extract.encrypted", "name", name))
		}
		return "", refuse(name, ErrUnsupported, i18n.P("extract.oldWord", "name", name))
	case kind == "docx" && !isZip:
		return "", refuse(name, ErrBadFile, i18n.P("extract.notWhatItSays", "name", name, "kind", "Word (.docx)"))
	case kind != "pdf" && kind != "docx" && isPDF && bytes.HasPrefix(data, []byte("%PDF-")):
		return "pdf", nil // a PDF saved under a text name (or none) is read as the PDF it is
	case kind == "":
		return "", refuse(name, ErrUnsupported, i18n.P("extract.unsupported", "name", name))
	}
	return kind, nil
}

func utf16le(s string) []byte {
	b := make([]byte, 0, 2*len(s))
	for _, r := range s {
		b = append(b, byte(r), 0)
	}
	return b
}

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxText <= 0 {
		l.MaxText = DefaultMaxText
	}
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	return l
}

// kinds maps the extensions Hearth reads to their kind.
var kinds = func() map[string]string {
	m := map[string]string{}
	for kind, exts := range map[string][]string{
		"text":     {".txt", ".text", ".log", ".rst", ".org", ".adoc", ".tex", ".ini", ".cfg", ".conf", ".env"},
		"markdown": {".md", ".markdown", ".mdx"},
		"code": {".go", ".py", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".java", ".kt", ".swift", ".c", ".h",
			".cc", ".cpp", ".hpp", ".cs", ".rs", ".rb", ".php", ".pl", ".lua", ".r", ".scala", ".sh", ".bash", ".zsh",
			".json", ".jsonl", ".yaml", ".yml", ".toml", ".xml", ".sql", ".svelte", ".vue", ".css", ".scss"},
		"pdf":  {".pdf"},
		"docx": {".docx"},
		"html": {".html", ".htm", ".xhtml"},
		"csv":  {".csv", ".tsv"},
	} {
		for _, e := range exts {
			m[e] = kind
		}
	}
	return m
}()

// Extensions lists the extensions Supported accepts ("." first, lower case, sorted):
// the file picker's filter.
func Extensions() []string {
	out := make([]string, 0, len(kinds))
	for e := range kinds {
		out = append(out, e)
	}
	slices.Sort(out)
	return out
}

// kindOf maps an extension to a kind ("" when unknown).
func kindOf(name string) string { return kinds[strings.ToLower(filepath.Ext(name))] }

// kindComma is a CSV file's separator: a tab for .tsv.
func kindComma(name string) rune {
	if strings.EqualFold(filepath.Ext(name), ".tsv") {
		return '\t'
	}
	return ','
}

func mb(n int64) string { return strconv.FormatInt((n+(1<<20)-1)>>20, 10) }

func tooBig(name string, size int64, lim Limits) error {
	return refuse(name, ErrTooBig, i18n.P("extract.tooBig", "name", name, "size", mb(size), "limit", mb(lim.MaxBytes)))
}

func tooMuchText(name string, lim Limits) error {
	return refuse(name, ErrTooBig, i18n.P("extract.tooMuchText", "name", name, "limit", mb(int64(lim.MaxText))))
}

func damaged(name string, err error) error {
	return refuse(name, ErrBadFile, i18n.P("extract.damaged", "name", name, "error", fmt.Sprint(err)))
}
