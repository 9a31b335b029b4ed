// Package extract reads the text out of the files a person hands Hearth
// (attachments, knowledge folders): plain text, Markdown, source code, PDF's text
// layer, Word (.docx), HTML and CSV. It never hangs and never reads without a
// bound: a file over the size limit, an encrypted or scanned PDF (no text layer)
// or a format it does not know is refused with an error that says what to do.
package extract

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Doc is what was read from one file.
type Doc struct {
	Name  string `json:"name"`  // base name
	Kind  string `json:"kind"`  // "text", "markdown", "code", "pdf", "docx", "html", "csv"
	Bytes int64  `json:"bytes"` // size of the file
	// Pages hold the text in order. A PDF has one per page (N from 1); every other
	// kind has one page (N 0) whose Line is 1. Citations name the page, or the line
	// counted from Line through the text.
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
	MaxBytes int64 // the file's size; 0 means DefaultMaxBytes
	MaxText  int   // the text taken out (an inflating .docx); 0 means DefaultMaxText
}

// Defaults: a 50 MB file and 20 MB of text cover a 1 000-page report.
const (
	DefaultMaxBytes = 50 << 20
	DefaultMaxText  = 20 << 20
)

// Errors a caller tells apart (each wrapped with the file's name and a hint).
var (
	ErrTooBig      = errors.New("file is too big")
	ErrUnsupported = errors.New("file type is not supported")
	ErrEncrypted   = errors.New("file is encrypted")
	ErrNoText      = errors.New("file has no text layer")
	ErrBadFile     = errors.New("file is damaged or not what its name says")
)

// Supported reports whether name's extension is a kind Read knows.
func Supported(name string) bool { return kindOf(name) != "" }

// File reads the file at path (a regular file, not followed through a link at
// its last element).
func File(path string, lim Limits) (*Doc, error) {
	lim = lim.withDefaults()
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file: %w (hint: attach the file itself, not a link or a device)", filepath.Base(path), ErrUnsupported)
	}
	if fi.Size() > lim.MaxBytes {
		return nil, fmt.Errorf("%s is %d MB: %w (hint: the limit is %d MB; split it or attach the part you need)", filepath.Base(path), fi.Size()>>20, ErrTooBig, lim.MaxBytes>>20)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Bytes(filepath.Base(path), data, lim)
}

// Bytes reads a file's content given its name (the extension picks the kind).
func Bytes(name string, data []byte, lim Limits) (*Doc, error) {
	lim = lim.withDefaults()
	if int64(len(data)) > lim.MaxBytes {
		return nil, fmt.Errorf("%s is %d MB: %w (hint: the limit is %d MB; split it or attach the part you need)", name, len(data)>>20, ErrTooBig, lim.MaxBytes>>20)
	}
	kind := kindOf(name)
	d := &Doc{Name: name, Kind: kind, Bytes: int64(len(data))}
	switch kind {
	case "text", "markdown", "code":
		if !utf8.Valid(data) {
			return nil, fmt.Errorf("%s is not UTF-8 text: %w (hint: save it as UTF-8 and attach it again)", name, ErrBadFile)
		}
		d.Pages = []Page{{Line: 1, Text: string(data)}}
		return d, nil
	}
	return nil, fmt.Errorf("%s: %w (hint: attach text, Markdown, source code, PDF, Word .docx, HTML or CSV)", name, ErrUnsupported)
}

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxText <= 0 {
		l.MaxText = DefaultMaxText
	}
	return l
}

// kindOf maps an extension to a kind ("" when unknown).
func kindOf(name string) string {
	ext := strings.ToLower(filepath.Ext(name))
	switch ext {
	case ".txt", ".text", ".log":
		return "text"
	case ".md", ".markdown":
		return "markdown"
	case ".go", ".py", ".js", ".ts", ".java", ".c", ".h", ".cpp", ".rs", ".rb", ".sh", ".json", ".yaml", ".yml", ".toml", ".sql", ".svelte":
		return "code"
	}
	return ""
}
