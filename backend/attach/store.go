package attach

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"

	"hearth/backend/extract"
	"hearth/backend/internal/confined"
	"hearth/backend/internal/nofollow"
	"hearth/backend/llm"
	"hearth/backend/session"
)

// Source is one file to attach: a path (the file dialog, a drop, the CLI) or
// its bytes with the name it had (a paste).
type Source struct {
	Path string
	Name string
	Data []byte
}

// Options configure a Store.
type Options struct {
	// Dir is the folder holding every chat's attachments folder (<data>/attachments).
	Dir func() string
	// Limits bound each file (extract's defaults when zero).
	Limits extract.Limits
	// WholeTokens is the most an attachment may hold to be sent whole; a bigger
	// one is searched. Nil or 0 means DefaultWholeTokens.
	WholeTokens func() int
	// Open shows a file in the system's viewer (Open); nil: no viewer.
	Open func(path string) error
}

// DefaultWholeTokens is what an attachment sent whole may hold when the
// window is not known: a quarter of an 8 192-token window.
const DefaultWholeTokens = 2048

// Store keeps the chats' attachments. It is safe for concurrent use.
type Store struct {
	opts Options
	mu   sync.Mutex // one Add at a time: copies pick their names under it
	idx  *indexCache
}

// New makes a Store; it touches no file until used.
func New(opts Options) *Store {
	return &Store{opts: opts, idx: newIndexCache()}
}

// Codes of refused files (the window translates them).
const (
	CodeTooBig      = "attach.tooBig"
	CodeEncrypted   = "attach.encrypted"
	CodeUnsupported = "attach.unsupported"
	CodeNoText      = "attach.noText"
	CodeBadFile     = "attach.badFile"
	CodeUnreadable  = "attach.unreadable"
	CodeLink        = "attach.link"    // a symbolic link: never followed
	CodeFolder      = "attach.folder"  // a folder: its files, or a knowledge folder
	CodeNotFile     = "attach.notFile" // a FIFO, a socket or a device
)

// Why a path is not a file to read.
var (
	errLink    = errors.New("not followed")
	errFolder  = errors.New("not a file")
	errNotFile = errors.New("not a regular file")
)

// code is the coded problem of err.
func code(err error) string {
	switch {
	case errors.Is(err, errLink):
		return CodeLink
	case errors.Is(err, errFolder):
		return CodeFolder
	case errors.Is(err, errNotFile):
		return CodeNotFile
	case errors.Is(err, extract.ErrTooBig):
		return CodeTooBig
	case errors.Is(err, extract.ErrEncrypted):
		return CodeEncrypted
	case errors.Is(err, extract.ErrUnsupported):
		return CodeUnsupported
	case errors.Is(err, extract.ErrNoText):
		return CodeNoText
	case errors.Is(err, extract.ErrBadFile):
		return CodeBadFile
	}
	return CodeUnreadable
}

// Add copies each source into the chat's folder, reads its text and indexes
// it, and returns one record per source, in order: a file that cannot be
// attached is a "refused" record with its coded problem, and the others go on.
func (s *Store) Add(sessionID string, srcs []Source) []llm.Attachment {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]llm.Attachment, 0, len(srcs))
	for _, src := range srcs {
		a, err := s.add(sessionID, src)
		if err != nil {
			a.Mode, a.Error, a.Detail = "refused", code(err), err.Error()
		}
		out = append(out, a)
	}
	s.idx.forget(sessionID)
	return out
}

func (s *Store) add(sessionID string, src Source) (llm.Attachment, error) {
	lim := s.limits()
	name, data := src.Name, src.Data
	if src.Path != "" {
		name = filepath.Base(src.Path)
	}
	a := llm.Attachment{Name: SafeName(name)}
	if src.Path != "" {
		var err error
		if data, err = readSource(src.Path, lim.MaxBytes); err != nil {
			return a, err
		}
	}
	a.Bytes = int64(len(data))
	doc, err := extract.Bytes(a.Name, data, lim)
	if err != nil {
		return a, err
	}
	a.Kind, a.Pages = doc.Kind, doc.PageCount()
	dir, err := s.openChat(sessionID, true)
	if err != nil {
		return a, err
	}
	defer dir.Close()
	file, err := createUnique(dir, a.Name, data)
	if err != nil {
		return a, fmt.Errorf("%s: keep a copy: %w (hint: check that %s is writable)", a.Name, err, dir.Name())
	}
	a.File = file
	ps := Split(file, doc)
	a.Passages = len(ps)
	a.Mode = "whole"
	if tokens(doc) > s.wholeTokens() {
		a.Mode = "searched"
	}
	b, err := json.Marshal(ps)
	if err == nil {
		err = nofollow.WriteFileIn(dir, passagesName(file), b, 0o600)
	}
	if err != nil {
		_ = nofollow.Remove(dir, file)
		return a, fmt.Errorf("%s: index it: %w (hint: check that %s is writable)", a.Name, err, dir.Name())
	}
	return a, nil
}

func (s *Store) limits() extract.Limits {
	l := s.opts.Limits
	if l.MaxBytes <= 0 {
		l.MaxBytes = extract.DefaultMaxBytes
	}
	return l
}

func (s *Store) wholeTokens() int {
	if s.opts.WholeTokens != nil {
		if n := s.opts.WholeTokens(); n > 0 {
			return n
		}
	}
	return DefaultWholeTokens
}

// readSource reads the file at path: a regular file (not a link at its last
// element, not a FIFO or a device, which are opened without blocking and
// refused), at most max bytes even if it grows while being read.
func readSource(path string, max int64) ([]byte, error) {
	base := filepath.Base(path)
	f, _, err := openSource(path, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", base, err)
	}
	if int64(len(data)) > max {
		return nil, tooBigError(base, max) // it grew while it was read
	}
	return data, nil
}

// openSource opens the file at path for reading without following a link at
// its last element and without blocking, and returns it with its size: a
// link, a folder, a FIFO or a device, or a file over max bytes, is refused
// with the reason and what to do.
func openSource(path string, max int64) (*os.File, int64, error) {
	base := filepath.Base(path)
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, 0, fmt.Errorf("%s is a link: %w (hint: attach the file it points to)", base, errLink)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w (hint: check that the file exists and you may read it)", base, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	switch {
	case fi.IsDir():
		f.Close()
		return nil, 0, fmt.Errorf("%s is a folder: %w (hint: attach the files in it, or add it in Settings › Knowledge to search all of it)", base, errFolder)
	case !fi.Mode().IsRegular():
		f.Close()
		return nil, 0, fmt.Errorf("%s is not a regular file: %w (hint: attach a file, not a pipe or a device)", base, errNotFile)
	case fi.Size() > max:
		f.Close()
		return nil, 0, tooBigError(base, max)
	}
	return f, fi.Size(), nil
}

func tooBigError(base string, max int64) error {
	return fmt.Errorf("%s is over %d MB: %w (hint: split it or attach the part you need)", base, max>>20, extract.ErrTooBig)
}

// chatRel is the chat's folder below Dir.
func chatRel(sessionID string) (string, error) {
	return session.FileStem(sessionID)
}

// openChat opens the chat's folder without following a link at any level
// below Dir's parent, making it when create is set.
func (s *Store) openChat(sessionID string, create bool) (*os.File, error) {
	stem, err := chatRel(sessionID)
	if err != nil {
		return nil, err
	}
	root := s.opts.Dir()
	if create {
		// Hearth's data folder itself is trusted (the settings made it); below it
		// nothing is followed.
		if err := os.MkdirAll(filepath.Dir(root), 0o700); err != nil {
			return nil, err
		}
		return nofollow.MkdirAll(filepath.Dir(root), filepath.Join(filepath.Base(root), stem), 0o700)
	}
	return nofollow.OpenDir(filepath.Dir(root), filepath.Join(filepath.Base(root), stem))
}

// createUnique writes data under name in dir, or name-2, name-3, … when taken:
// a temporary file linked into place, so a name already there (a file or a
// planted link) is never written through or replaced.
func createUnique(dir *os.File, name string, data []byte) (string, error) {
	tmp := ".tmp-" + strconv.FormatUint(rand.Uint64(), 36)
	f, err := nofollow.OpenIn(dir, tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	defer func() { _ = unix.Unlinkat(int(dir.Fd()), tmp, 0) }()
	_, err = f.Write(data)
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	for n := 1; n < 1000; n++ {
		try := name
		if n > 1 {
			try = numbered(name, n)
		}
		// The passages file's name must be free too (a planted one is never used).
		if _, ok := nofollow.Exists(dir, passagesName(try)); ok {
			continue
		}
		err := unix.Linkat(int(dir.Fd()), tmp, int(dir.Fd()), try, 0)
		if errors.Is(err, unix.EEXIST) {
			continue
		}
		if err != nil {
			return "", err
		}
		_ = unix.Fsync(int(dir.Fd()))
		return try, nil
	}
	return "", fmt.Errorf("too many files named %s", name)
}

// Remove deletes the chat's attachments folder (its chat was deleted), never
// following a link on the way.
func (s *Store) Remove(sessionID string) error {
	stem, err := chatRel(sessionID)
	if err != nil {
		return err
	}
	s.idx.forget(sessionID)
	root := s.opts.Dir()
	r, err := confined.Open(root, confined.Options{})
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer r.Close()
	if err := r.RemoveAll(stem); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove the attachments of chat %s: %w (remove %s by hand)", sessionID, err, filepath.Join(root, stem))
	}
	return nil
}

// Path is where the copy file of the chat is ("" when file is not a plain
// name): the window opens it.
func (s *Store) Path(sessionID, file string) string {
	stem, err := chatRel(sessionID)
	if err != nil || file == "" || file != filepath.Base(file) || file[0] == '.' {
		return ""
	}
	return filepath.Join(s.opts.Dir(), stem, file)
}

// tokens estimates a doc's text in tokens (about four bytes each).
func tokens(doc *extract.Doc) int {
	n := 0
	for _, p := range doc.Pages {
		n += len(p.Text)
	}
	return n/4 + 1
}

// Open shows the chat's copy file in the system's viewer (a citation clicked).
func (s *Store) Open(sessionID, file string) error {
	p := s.Path(sessionID, file)
	if p == "" {
		return fmt.Errorf("open attachment: %q is not a file of this chat (hint: open the chat it was attached to)", file)
	}
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("open attachment %s: not found (hint: the chat's copy was removed; attach the file again)", file)
	}
	if s.opts.Open == nil {
		return errors.New("open attachment: no viewer here (hint: open the file from the chat's attachments folder)")
	}
	return s.opts.Open(p)
}
