package memrepo

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"hearth/backend/internal/clip"
	"hearth/backend/internal/nofollow"
)

// branchFile is the one branch, relative to the repository folder.
const branchFile = "refs/heads/main"

// ErrUnknownRev is a revision no commit of the history has.
var ErrUnknownRev = errors.New("no such revision in the memory history")

// Rev is one commit of the history, newest first in Log.
type Rev struct {
	Rev     string    `json:"rev"`
	Time    time.Time `json:"time"`
	Author  string    `json:"author"`
	Message string    `json:"message"`
	Files   []string  `json:"files"`
}

// Change is one commit to make: Files maps a workspace-relative, slash-separated
// path to its new content; a nil content records that the file is gone.
type Change struct {
	Files   map[string][]byte
	Author  string
	Message string
	When    time.Time
}

// Repo is the history repository in folder dir. It is safe for concurrent use,
// also by several processes (a lock file serialises writers). The zero history
// (no commit yet) is valid: Log is empty.
type Repo struct {
	dir string
	fs  *guardFS // every file access (guardfs.go)
	log *slog.Logger

	mu        sync.Mutex
	st        *filesystem.Storage // nil until the first operation
	seenPacks []string            // the packs st has read (pack.go)
	limits    packLimits
}

// New returns the repository kept in dir; nothing is read or created until it is used.
func New(dir string, log *slog.Logger) *Repo {
	log = cmp.Or(log, slog.Default())
	return &Repo{dir: dir, fs: newGuardFS(dir), log: log, limits: defaultPackLimits}
}

// locked runs fn holding the process's and the other processes' lock, with the
// storage opened and the repository's skeleton present. A panic inside go-git on
// damaged data becomes an error.
func (r *Repo) locked(fn func() error) (err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("memory history at %s: internal error: %v (hint: move the folder aside; Hearth starts a new history)", r.dir, p)
		}
	}()
	if r.dir == "" || !filepath.IsAbs(r.dir) {
		return fmt.Errorf("memory history: no state folder for it (%q)", r.dir)
	}
	// The folder holding the history is Hearth's own (the workspace's state
	// folder); from the history's folder on, guardFS follows no link.
	if err := os.MkdirAll(filepath.Dir(r.dir), 0o700); err != nil {
		return fmt.Errorf("memory history at %s: %w", r.dir, err)
	}
	if err := r.init(); err != nil {
		return fmt.Errorf("memory history at %s: %w", r.dir, err)
	}
	release, err := r.fs.lock("hearth.lock")
	if err != nil {
		return fmt.Errorf("memory history: lock: %w", err)
	}
	defer release()
	r.noticePacks()
	return fn()
}

// init creates what a bare repository needs; each file is written whole, so an
// init cut short is finished by the next one. A folder that holds a repository
// without Hearth's mark (marker.go) is refused: Hearth commits only onto its own.
func (r *Repo) init() error {
	if err := r.checkOwn(); err != nil {
		return err
	}
	for _, d := range []string{"objects", "refs/heads", "refs/tags"} {
		if err := r.fs.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	for _, name := range []string{"HEAD", "description"} {
		if b, err := r.fs.readSmall(name); err == nil && len(b) > 0 {
			continue
		} else if err != nil && !errors.Is(err, os.ErrNotExist) {
			return err // a link or a pipe in its place is refused, not replaced
		}
		if err := r.fs.writeFile(name, []byte(skeleton[name])); err != nil {
			return err
		}
	}
	if r.st == nil {
		r.st = filesystem.NewStorageWithOptions(r.fs, cache.NewObjectLRUDefault(),
			filesystem.Options{LargeObjectThreshold: maxObject})
	}
	return nil
}

// skeleton is the content of a new history's small files.
var skeleton = map[string]string{
	"HEAD":        "ref: refs/heads/main\n",
	"config":      "[core]\n\trepositoryformatversion = 0\n\tbare = true\n" + markerSection,
	"description": "Hearth's history of the memory and persona files.\n",
}

// head is the branch's commit (nil for an empty history). A ref that names a
// missing or unreadable commit is repaired to the newest readable one.
func (r *Repo) head() (*object.Commit, error) {
	b, err := r.fs.readSmall(branchFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	s := strings.TrimSpace(string(b))
	if plumbing.IsHash(s) {
		c, err := r.verified(plumbing.NewHash(s))
		switch {
		case err == nil:
			return c, nil
		case refused(err):
			// Not damage a crash leaves: a file of the history was replaced by
			// a link, a pipe or a bomb. Going back would drop good history.
			return nil, err
		}
		return r.repair(fmt.Errorf("commit %s: %w", s, err))
	}
	return r.repair(fmt.Errorf("the branch file holds %q", clip.Bytes(s, 60)))
}

// verified loads commit h and checks that its tree and every file in it are present.
// A file's blob is only looked up, not read: objects are written whole (a temporary
// file renamed into place) before the branch moves, so one that is there is complete,
// and reading them all made every operation cost as much as the files are large.
func (r *Repo) verified(h plumbing.Hash) (*object.Commit, error) {
	c, err := r.commitAt(h)
	if err != nil {
		return nil, err
	}
	files, err := r.files(c)
	if err != nil {
		return nil, err
	}
	for p, fh := range files {
		if err := r.st.HasEncodedObject(fh); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
	}
	return c, nil
}

// files maps each file of commit c (nil: none) to its blob.
func (r *Repo) files(c *object.Commit) (map[string]plumbing.Hash, error) {
	out := map[string]plumbing.Hash{}
	if c == nil {
		return out, nil
	}
	t, err := r.treeOf(c)
	if err != nil {
		return nil, err
	}
	w := object.NewTreeWalker(t, true, nil)
	defer w.Close()
	for {
		name, e, err := w.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, err
		}
		if e.Mode.IsFile() {
			out[name] = e.Hash
		}
	}
}

// commit records ch on top of the branch and packs the loose objects when they
// grew too many; it returns the new revision, or "" when the files already hold
// that content (nothing is committed).
func (r *Repo) commit(ch Change) (rev string, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("commit to the memory history: %w", err)
		}
	}()
	parent, err := r.head()
	if err != nil {
		return "", err
	}
	files, err := r.files(parent)
	if err != nil {
		return "", err
	}
	changed := false
	for p, content := range ch.Files {
		if content == nil {
			if _, ok := files[p]; ok {
				delete(files, p)
				changed = true
			}
			continue
		}
		h, err := r.blob(content)
		if err != nil {
			return "", err
		}
		if old, ok := files[p]; !ok || old != h {
			files[p] = h
			changed = true
		}
	}
	if !changed {
		return "", nil
	}
	tree, err := r.tree(files)
	if err != nil {
		return "", err
	}
	when := ch.When
	if when.IsZero() {
		when = time.Now()
	}
	sig := object.Signature{Name: cleanLine(ch.Author, "Hearth"), Email: "hearth@localhost", When: when}
	c := &object.Commit{Author: sig, Committer: sig, Message: strings.TrimSpace(ch.Message) + "\n", TreeHash: tree}
	if parent != nil {
		c.ParentHashes = []plumbing.Hash{parent.Hash}
	}
	obj := r.st.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return "", err
	}
	h, err := r.st.SetEncodedObject(obj)
	if err != nil {
		return "", err
	}
	// The ref moves last and whole: a kill before this leaves the old history
	// (and a few unreferenced objects), never a branch naming a missing commit.
	if err := r.fs.writeFile(branchFile, []byte(h.String()+"\n")); err != nil {
		return "", err
	}
	r.maybePack()
	return h.String(), nil
}

func (r *Repo) blob(content []byte) (plumbing.Hash, error) {
	h := plumbing.ComputeHash(plumbing.BlobObject, content)
	if ok, _ := r.has(h); ok {
		return h, nil
	}
	obj := r.st.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	w, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := w.Write(content); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := w.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	return r.st.SetEncodedObject(obj)
}

func (r *Repo) has(h plumbing.Hash) (bool, error) {
	err := r.st.HasEncodedObject(h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return false, nil
	}
	return err == nil, err
}

// tree writes the tree of files (path → blob) and its subtrees.
func (r *Repo) tree(files map[string]plumbing.Hash) (plumbing.Hash, error) {
	var entries []object.TreeEntry
	subs := map[string]map[string]plumbing.Hash{}
	for p, h := range files {
		if dir, rest, ok := strings.Cut(p, "/"); ok {
			if subs[dir] == nil {
				subs[dir] = map[string]plumbing.Hash{}
			}
			subs[dir][rest] = h
			continue
		}
		entries = append(entries, object.TreeEntry{Name: p, Mode: filemode.Regular, Hash: h})
	}
	for dir, m := range subs {
		h, err := r.tree(m)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		entries = append(entries, object.TreeEntry{Name: dir, Mode: filemode.Dir, Hash: h})
	}
	sort.Sort(object.TreeEntrySorter(entries))
	obj := r.st.NewEncodedObject()
	if err := (&object.Tree{Entries: entries}).Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return r.st.SetEncodedObject(obj)
}

// cleanLine makes s one line (a commit's author name), or def when empty.
func cleanLine(s, def string) string {
	s = strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if r == '<' || r == '>' {
			return -1
		}
		return r
	}, s)), " ")
	if s == "" {
		return def
	}
	return s
}

// equalContent reports whether blob h holds content.
func equalContent(h plumbing.Hash, content []byte) bool {
	return h == plumbing.ComputeHash(plumbing.BlobObject, content)
}

// refused reports whether err is guardFS refusing a file (a link, a special
// file, one too big), which a repair must not take for a missing object.
func refused(err error) bool {
	return errors.Is(err, nofollow.ErrLink) || errors.Is(err, nofollow.ErrSpecial) ||
		errors.Is(err, nofollow.ErrTooBig) || errors.Is(err, ErrNotOurs) ||
		strings.Contains(err.Error(), ErrObjectTooBig.Error()) // go-git keeps only the words
}

// bounded refuses object h when the history says it holds more than max bytes:
// a packed object is inflated only when read, and go-git reads one whole.
func (r *Repo) bounded(h plumbing.Hash, max int64) error {
	n, err := r.st.EncodedObjectSize(h)
	if err != nil {
		return err
	}
	if n > max {
		return fmt.Errorf("object %s: %w (%d bytes, at most %d are read; hint: move the history folder aside, Hearth starts a new one)", short(h), ErrObjectTooBig, n, max)
	}
	return nil
}

// commitAt reads commit h, refusing one larger than a commit can sensibly be.
func (r *Repo) commitAt(h plumbing.Hash) (*object.Commit, error) {
	if err := r.bounded(h, maxSmall); err != nil {
		return nil, err
	}
	return object.GetCommit(r.st, h)
}

// treeOf reads c's tree under the object bound.
func (r *Repo) treeOf(c *object.Commit) (*object.Tree, error) {
	return r.treeAt(c.TreeHash)
}

func (r *Repo) treeAt(h plumbing.Hash) (*object.Tree, error) {
	if err := r.bounded(h, r.fs.maxObject); err != nil {
		return nil, err
	}
	return object.GetTree(r.st, h)
}
