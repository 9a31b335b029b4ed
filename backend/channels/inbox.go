package channels

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"hearth/backend/internal/nofollow"
)

// InboxDir is where files received from Telegram are saved, in the workspace.
const InboxDir = "inbox/telegram"

// Bounds of a saved file: its name (bytes, before the date and the extension is
// kept) and its size (the adapter bounds downloads too; this holds whatever it does).
const (
	maxNameBytes = 80
	maxFileBytes = 50 << 20
	maxSameName  = 100
)

// saveInbox writes a received file to <workspace>/inbox/telegram/<yyyy-mm-dd>-<safe
// name> and returns that path, relative to the workspace. The folders are made
// and opened without following a link (a link planted as inbox or telegram is
// refused, never written through); the file is created new (O_EXCL: never over
// another file or through a link); a name taken gets "-2", "-3", ….
func saveInbox(workspace string, f File, now time.Time) (string, error) {
	if workspace == "" {
		return "", errors.New("no workspace to save the file in (hint: check the workspace folder in Settings)")
	}
	if len(f.Data) > maxFileBytes {
		return "", fmt.Errorf("the file is %d MB, more than %d MB (hint: send a smaller file)", len(f.Data)>>20, maxFileBytes>>20)
	}
	dir, err := nofollow.MkdirAll(workspace, InboxDir, 0o700)
	if err != nil {
		return "", fmt.Errorf("open %s: %w (hint: %s in the workspace must be a folder, not a link)", InboxDir, err, InboxDir)
	}
	defer dir.Close()
	base := now.Format("2006-01-02") + "-" + safeName(f)
	stem, ext := splitExt(base)
	for i := 1; i <= maxSameName; i++ {
		name := base
		if i > 1 {
			name = fmt.Sprintf("%s-%d%s", stem, i, ext)
		}
		out, err := nofollow.OpenIn(dir, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("save %s: %w", name, err)
		}
		_, err = out.Write(f.Data)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			_ = nofollow.Remove(dir, name)
			return "", fmt.Errorf("save %s: %w (hint: check free disk space)", name, err)
		}
		return path.Join(InboxDir, name), nil
	}
	return "", fmt.Errorf("%d files named %s already (hint: tidy %s in the workspace)", maxSameName, base, InboxDir)
}

// safeName is a file name made from what the sender called it: one path element
// of letters, digits and ".-_" (anything else becomes "_"), no leading dot, the
// extension kept, bounded.
func safeName(f File) string {
	n := f.Name
	if i := strings.LastIndexAny(n, `/\`); i >= 0 {
		n = n[i+1:]
	}
	var b strings.Builder
	for _, c := range n {
		switch {
		case c == utf8.RuneError:
			b.WriteByte('_')
		case unicode.IsLetter(c) || unicode.IsDigit(c) || c == '.' || c == '-' || c == '_':
			b.WriteRune(c)
		default:
			b.WriteByte('_')
		}
	}
	n = strings.TrimLeft(b.String(), "._-")
	if strings.Trim(n, "._-") == "" {
		n = map[string]string{"voice": "voice-note.ogg"}[f.Kind]
		if n == "" {
			n = "file"
		}
	}
	if len(n) > maxNameBytes {
		stem, ext := splitExt(n)
		if len(ext) > 16 { // not an extension: the whole name is cut
			stem, ext = n, ""
		}
		stem = stem[:maxNameBytes-len(ext)]
		for !utf8.ValidString(stem) {
			stem = stem[:len(stem)-1]
		}
		n = stem + ext
	}
	return n
}

// splitExt splits "a.tar.gz" into "a.tar" and ".gz".
func splitExt(n string) (stem, ext string) {
	if i := strings.LastIndexByte(n, '.'); i > 0 {
		return n[:i], n[i:]
	}
	return n, ""
}

// fileNote names a saved file to the model in the turn's text.
func fileNote(f File, rel string) string {
	kind := "file"
	if f.Kind == "voice" {
		kind = "voice note (not transcribed)"
	}
	mime := f.MIME
	if mime == "" {
		mime = "unknown type"
	}
	return fmt.Sprintf("[Received %s, saved as %s (%s, %s)]", kind, rel, mime, size(len(f.Data)))
}

func size(n int) string {
	if n < 1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	if n < 1<<20 {
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}
