package tools

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // image.DecodeConfig for read_file's image summary
	_ "image/jpeg"
	_ "image/png"
	"io"
	"io/fs"
	"net/http"
	"strings"
	"unicode/utf8"
)

const (
	defaultReadLimit = 2000 // lines per page unless limit says otherwise
	maxLineChars     = 2000 // longer lines are cut (at most half a page) so one line cannot fill a page
	sniffLen         = 8000
)

type readFileArgs struct {
	Path   string `json:"path"`
	Offset int    `json:"offset,omitempty" min:"1"`
	Limit  int    `json:"limit,omitempty" jsonschema:"max lines" min:"1"`
}

func readFileTool(b fsBase) Tool {
	return New(Def[readFileArgs]{Name: "read_file", Short: "Read a text file as numbered lines.", ReadOnly: true, Run: b.readFile,
		Description: "Read a text file as numbered lines (line<TAB>text), paged; offset is the 1-based first line. Images are described, not shown."})
}

func (t fsBase) readFile(ctx context.Context, a readFileArgs) (Result, error) {
	path := a.Path
	acc := t.policy.access()
	defer acc.close()
	f, st, abs, err := acc.open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Result{}, fmt.Errorf("read_file %s: %w; check the name with list_dir or glob", path, err)
	}
	if err != nil {
		return Result{}, fmt.Errorf("read_file: %w", err)
	}
	defer f.Close()
	if st.IsDir() {
		return Result{}, fmt.Errorf("read_file %s: is a directory; use list_dir", path)
	}

	head := make([]byte, sniffLen)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if desc, ok := describeImage(head, st.Size()); ok {
		return Result{Content: fmt.Sprintf("%s is an image (%s); its bytes are not shown. Attach it in the chat if the model can see images.", path, desc),
			Meta: map[string]string{MetaPath: abs}}, nil
	}
	if isBinary(head) {
		return Result{}, fmt.Errorf("read_file %s: binary file (%s, %s); not shown as text", path, http.DetectContentType(head), sizeWords(st.Size()))
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return Result{}, fmt.Errorf("read_file %s: %w", path, err)
	}
	offset := cmp.Or(a.Offset, 1)
	limit := cmp.Or(a.Limit, defaultReadLimit)
	page, err := readPage(ctx, bufio.NewReaderSize(f, 64*1024), offset, limit, t.maxChars)
	if err != nil {
		return Result{}, fmt.Errorf("read_file %s: %w", path, err)
	}
	return Result{Content: page.render(path), Meta: map[string]string{MetaPath: abs}}, nil
}

type page struct {
	body       strings.Builder
	first      int // first line shown (1-based)
	last       int // last line shown; first-1 when none
	total      int // lines in the file
	cutByChars bool
}

// readPage numbers lines offset..offset+limit-1, stopping early so the page and
// its footer stay under maxChars, and counts the remaining lines for the footer.
func readPage(ctx context.Context, br *bufio.Reader, offset, limit, maxChars int) (*page, error) {
	offset = max(offset, 1)
	p := &page{first: offset, last: offset - 1}
	budget := maxChars - 300 // room for the footer
	lineCap := min(maxLineChars, maxChars/2)
	line := 0
	for {
		raw, full, err := readLine(br, lineCap)
		if full == 0 && err != nil { // nothing left (an empty line has err == nil)
			if err == io.EOF {
				break
			}
			return nil, err
		}
		line++
		if line%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if line < offset || line >= offset+limit || p.cutByChars {
			continue
		}
		text := strings.ToValidUTF8(strings.TrimRight(raw, "\r\n"), "\uFFFD")
		if full > lineCap {
			text = strings.ToValidUTF8(raw[:min(len(raw), lineCap)], "") +
				fmt.Sprintf("… [line cut at %d of %d chars]", lineCap, full)
		}
		entry := fmt.Sprintf("%d\t%s\n", line, text)
		if p.body.Len()+len(entry) > budget && p.last >= p.first {
			p.cutByChars = true
			continue
		}
		p.body.WriteString(entry)
		p.last = line
	}
	p.total = line
	if offset > p.total && p.total > 0 {
		return nil, fmt.Errorf("offset %d is past the end of the file (%d lines); use an offset from 1 to %d", offset, p.total, p.total)
	}
	return p, nil
}

func (p *page) render(path string) string {
	if p.total == 0 {
		return "(empty file)"
	}
	out := p.body.String()
	if p.last < p.total {
		out += fmt.Sprintf("[Showing lines %d-%d of %d. Read on with read_file(path=%q, offset=%d).]",
			p.first, p.last, p.total, path, p.last+1)
	} else if p.first > 1 {
		out += fmt.Sprintf("[Lines %d-%d of %d; end of file.]", p.first, p.last, p.total)
	}
	return out
}

// readLine reads one line, keeping at most keep+2 bytes of it (so a 1 GB
// minified line costs no more memory than a short one); full is the line's
// whole length in bytes without its line ending.
func readLine(br *bufio.Reader, keep int) (string, int, error) {
	var buf []byte
	full := 0
	for {
		chunk, err := br.ReadSlice('\n')
		full += len(chunk)
		if room := keep + 2 - len(buf); room > 0 {
			buf = append(buf, chunk[:min(room, len(chunk))]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == nil { // the line ending does not count
			full--
			if bytes.HasSuffix(chunk, []byte("\r\n")) {
				full--
			}
		}
		return string(buf), full, err
	}
}

// describeImage recognises common image formats from their first bytes.
func describeImage(head []byte, size int64) (string, bool) {
	ct := http.DetectContentType(head)
	if !strings.HasPrefix(ct, "image/") {
		return "", false
	}
	desc := fmt.Sprintf("%s, %s", ct, sizeWords(size))
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(head)); err == nil {
		desc += fmt.Sprintf(", %dx%d pixels", cfg.Width, cfg.Height)
	}
	return desc, true
}

// isBinary treats a NUL byte, or mostly invalid UTF-8, in the first bytes as binary.
func isBinary(head []byte) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	if utf8.Valid(head) {
		return false
	}
	bad := 0
	for i := 0; i < len(head); {
		r, w := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && w == 1 {
			bad++
		}
		i += w
	}
	// The sniffed prefix may cut a rune at its end; a few bad bytes are text in
	// another encoding, many are binary.
	return bad > len(head)/10
}

func sizeWords(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
