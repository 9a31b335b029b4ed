package extract

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strconv"
	"strings"

	"hearth/backend/i18n"
)

// A PDF is read by poppler's pdftotext (Debian's poppler-utils, a declared dependency
// of `make run` and the .deb) in a child process, not by a parser in Hearth's own
// process: a damaged or hostile PDF can at worst use up the child's time and memory
// budget, and the child is killed — it cannot hang, crash or swell Hearth. Pages come
// separated by form feeds.

// pdfMemory is the child's address-space budget: poppler reads a 50 MB report in a
// small part of it.
const pdfMemory = 1 << 30

// maxStderr bounds what is kept of the child's complaints (enough to tell a password
// from damage).
const maxStderr = 8 << 10

// CanReadPDF reports whether the PDF reader is installed (a status line, a chip's
// warning before the file is read).
func CanReadPDF() bool {
	_, err := exec.LookPath("pdftotext")
	return err == nil
}

func readPDF(name string, data []byte, lim Limits) ([]Page, error) {
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		return nil, refuse(name, ErrNoReader, i18n.P("extract.noPDFReader", "name", name))
	}
	ctx, cancel := context.WithTimeout(context.Background(), lim.Timeout)
	defer cancel()
	args := []string{bin, "-enc", "UTF-8", "-eol", "unix", "-", "-"}
	// prlimit (util-linux, on every Debian) sets the memory and CPU budgets before
	// pdftotext starts; without it the deadline still holds.
	if pl, err := exec.LookPath("prlimit"); err == nil {
		secs := max(int(lim.Timeout.Seconds()), 1)
		args = append([]string{pl, "--as=" + strconv.Itoa(pdfMemory), "--cpu=" + strconv.Itoa(secs), "--core=0", "--"}, args...)
	}
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Stdin = bytes.NewReader(data)
	out := &capped{max: lim.MaxText, stop: cancel}
	errOut := &capped{max: maxStderr}
	cmd.Stdout, cmd.Stderr = out, errOut
	cmd.Env = []string{"LC_ALL=C.UTF-8"} // poppler's messages in English, to be matched below
	cmd.WaitDelay = lim.Timeout / 10
	runErr := cmd.Run()
	switch {
	case out.over:
		return nil, tooMuchText(name, lim)
	case ctx.Err() != nil:
		return nil, refuse(name, ErrBadFile, i18n.P("extract.timeout", "name", name, "seconds", strconv.Itoa(int(lim.Timeout.Seconds()))))
	case runErr != nil:
		return nil, pdfFailure(name, runErr, errOut.String())
	}
	pages := strings.Split(out.String(), "\f")
	if n := len(pages); n > 1 && strings.TrimSpace(pages[n-1]) == "" {
		pages = pages[:n-1] // the form feed after the last page
	}
	ps := make([]Page, len(pages))
	text := false
	for i, p := range pages {
		ps[i] = Page{N: i + 1, Text: p}
		text = text || strings.TrimSpace(p) != ""
	}
	if !text {
		return nil, refuse(name, ErrNoText, i18n.P("extract.noText", "name", name, "pages", strconv.Itoa(len(ps))))
	}
	return ps, nil
}

// pdfFailure tells a password or a copy ban from damage by pdftotext's exit status
// (1: the file could not be opened, 3: its permissions forbid copying text) and its
// message.
func pdfFailure(name string, runErr error, stderr string) error {
	var ee *exec.ExitError
	code := -1
	if errors.As(runErr, &ee) {
		code = ee.ExitCode()
	}
	switch {
	case strings.Contains(strings.ToLower(stderr), "password"):
		return refuse(name, ErrEncrypted, i18n.P("extract.encrypted", "name", name))
	case code == 3:
		return refuse(name, ErrEncrypted, i18n.P("extract.copyForbidden", "name", name))
	}
	why := firstLine(stderr)
	if why == "" {
		why = runErr.Error()
	}
	return damaged(name, errors.New(why))
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}

// capped keeps the first max bytes written and notes that more came (then stops the
// child); it never fails a write, so the child's end is ours, not a broken pipe's.
type capped struct {
	buf  bytes.Buffer // not embedded: io.Copy would use its ReadFrom and pass Write by
	max  int
	over bool
	stop func() // ends the child once its output is known to be too much
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); len(p) > room {
		if !c.over && c.stop != nil {
			c.stop()
		}
		c.over = true
		if room > 0 {
			c.buf.Write(p[:room])
		}
		return len(p), nil
	}
	return c.buf.Write(p)
}

func (c *capped) String() string { return c.buf.String() }
