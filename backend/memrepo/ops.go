package memrepo

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Commit records ch; it returns the new revision, or "" when the files already
// held that content (a no-op change makes no commit).
func (r *Repo) Commit(ch Change) (rev string, err error) {
	err = r.locked(func() (err error) {
		rev, err = r.commit(ch)
		return err
	})
	return rev, err
}

// Sync commits the difference between the history and current, the content of
// every tracked file that exists now (by path); a tracked file of the last commit
// missing from current is recorded as deleted. It is how edits made while Hearth
// was not looking get their commit, and how the first commit is made.
func (r *Repo) Sync(current map[string][]byte, author, message string) (rev string, err error) {
	err = r.locked(func() error {
		c, err := r.head()
		if err != nil {
			return err
		}
		files, err := r.files(c)
		if err != nil {
			return err
		}
		ch := Change{Files: map[string][]byte{}, Author: author, Message: message}
		for p, content := range current {
			if h, ok := files[p]; !ok || !equalContent(h, content) {
				ch.Files[p] = content
			}
		}
		for p := range files {
			if _, ok := current[p]; !ok {
				ch.Files[p] = nil
			}
		}
		if len(ch.Files) == 0 {
			return nil
		}
		if c != nil {
			ch.Message = message + "\n\n" + strings.Join(slices.Sorted(maps.Keys(ch.Files)), "\n")
		}
		rev, err = r.commit(ch)
		return err
	})
	return rev, err
}

// Log lists the history newest first, only the commits that changed file when it
// is not "", at most limit entries (0: all).
func (r *Repo) Log(file string, limit int) ([]Rev, error) {
	out := []Rev{}
	err := r.locked(func() error {
		c, err := r.head()
		if err != nil {
			return err
		}
		for c != nil && (limit <= 0 || len(out) < limit) {
			parent, err := r.parent(c)
			if err != nil {
				return err
			}
			changed, err := r.changed(parent, c)
			if err != nil {
				return err
			}
			if file == "" || slices.Contains(changed, file) {
				out = append(out, Rev{Rev: c.Hash.String(), Time: c.Author.When, Author: c.Author.Name,
					Message: strings.TrimSpace(c.Message), Files: changed})
			}
			c = parent
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("memory history: %w", err)
	}
	return out, nil
}

// Show returns file's content at rev; exists is false when the file was not in
// the history at that revision.
func (r *Repo) Show(rev, file string) (content []byte, exists bool, err error) {
	err = r.locked(func() error {
		c, err := r.resolve(rev)
		if err != nil {
			return err
		}
		files, err := r.files(c)
		if err != nil {
			return err
		}
		h, ok := files[file]
		if !ok {
			return nil
		}
		b, err := object.GetBlob(r.st, h)
		if err != nil {
			return fmt.Errorf("%s at %s: %w", file, short(c.Hash), err)
		}
		if b.Size > r.fs.maxObject {
			return fmt.Errorf("%s at %s: %w (%d bytes)", file, short(c.Hash), ErrObjectTooBig, b.Size)
		}
		rd, err := b.Reader()
		if err != nil {
			return err
		}
		defer rd.Close()
		content, err = io.ReadAll(io.LimitReader(rd, r.fs.maxObject+1))
		if err == nil && int64(len(content)) > r.fs.maxObject {
			err = fmt.Errorf("%s at %s: %w", file, short(c.Hash), ErrObjectTooBig)
		}
		exists = err == nil
		return err
	})
	return content, exists, err
}

// Files lists the files of the history at rev.
func (r *Repo) Files(rev string) ([]string, error) {
	var out []string
	err := r.locked(func() error {
		c, err := r.resolve(rev)
		if err != nil {
			return err
		}
		files, err := r.files(c)
		out = slices.Sorted(maps.Keys(files))
		return err
	})
	return out, err
}

// Diff is the unified diff rev made (against its parent), limited to file when
// it is not "".
func (r *Repo) Diff(rev, file string) (string, error) {
	var out string
	err := r.locked(func() error {
		c, err := r.resolve(rev)
		if err != nil {
			return err
		}
		parent, err := r.parent(c)
		if err != nil {
			return err
		}
		var from *object.Tree
		if parent != nil {
			if from, err = r.treeOf(parent); err != nil {
				return err
			}
		}
		to, err := r.treeOf(c)
		if err != nil {
			return err
		}
		changes, err := object.DiffTree(from, to)
		if err != nil {
			return err
		}
		var keep object.Changes
		for _, ch := range changes {
			if file == "" || ch.From.Name == file || ch.To.Name == file {
				keep = append(keep, ch)
			}
		}
		for _, ch := range keep {
			for _, e := range []object.ChangeEntry{ch.From, ch.To} {
				if e.Name == "" {
					continue
				}
				if err := r.bounded(e.TreeEntry.Hash, r.fs.maxObject); err != nil {
					return fmt.Errorf("%s: %w", e.Name, err)
				}
			}
		}
		p, err := keep.Patch()
		if err != nil {
			return err
		}
		out = p.String()
		return nil
	})
	return out, err
}

// Resolve expands a revision (a unique prefix of at least 4 hex digits, "HEAD",
// and either followed by ^ or ~N for an ancestor) to the full commit hash.
func (r *Repo) Resolve(rev string) (string, error) {
	var out string
	err := r.locked(func() error {
		c, err := r.resolve(rev)
		if err == nil {
			out = c.Hash.String()
		}
		return err
	})
	return out, err
}

func (r *Repo) resolve(rev string) (*object.Commit, error) {
	base, up := splitAncestor(strings.TrimSpace(rev))
	head, err := r.head()
	if err != nil {
		return nil, err
	}
	if head == nil {
		return nil, fmt.Errorf("%q: %w (the history is empty)", rev, ErrUnknownRev)
	}
	var c *object.Commit
	if strings.EqualFold(base, "HEAD") {
		c = head
	} else {
		base = strings.ToLower(base)
		if len(base) < 4 || strings.Trim(base, "0123456789abcdef") != "" {
			return nil, fmt.Errorf("%q: %w (hint: give 4 or more hex digits of a revision from `hearth memory log`)", rev, ErrUnknownRev)
		}
		for x := head; x != nil; {
			if strings.HasPrefix(x.Hash.String(), base) {
				if c != nil {
					return nil, fmt.Errorf("%q is ambiguous: give more digits", rev)
				}
				c = x
			}
			if x, err = r.parent(x); err != nil {
				return nil, err
			}
		}
		if c == nil {
			return nil, fmt.Errorf("%q: %w (hint: `hearth memory log` lists the revisions)", rev, ErrUnknownRev)
		}
	}
	for ; up > 0; up-- {
		p, err := r.parent(c)
		if err != nil {
			return nil, err
		}
		if p == nil {
			return nil, fmt.Errorf("%q: %w (that is before the first commit)", rev, ErrUnknownRev)
		}
		c = p
	}
	return c, nil
}

// splitAncestor splits "abc^^", "abc~2" into ("abc", 2).
func splitAncestor(rev string) (string, int) {
	up := 0
	for {
		if strings.HasSuffix(rev, "^") {
			rev, up = rev[:len(rev)-1], up+1
			continue
		}
		i := strings.LastIndexByte(rev, '~')
		if i < 0 {
			return rev, up
		}
		n := 1
		if num := rev[i+1:]; num != "" {
			v, err := strconv.Atoi(num)
			if err != nil || v < 0 {
				return rev, up
			}
			n = v
		}
		rev, up = rev[:i], up+n
	}
}

func (r *Repo) parent(c *object.Commit) (*object.Commit, error) {
	if len(c.ParentHashes) == 0 {
		return nil, nil
	}
	p, err := r.commitAt(c.ParentHashes[0])
	if err != nil {
		return nil, fmt.Errorf("the parent of %s: %w", short(c.Hash), err)
	}
	return p, nil
}

// changed lists the files that differ between parent (nil: none) and c.
func (r *Repo) changed(parent, c *object.Commit) ([]string, error) {
	a, err := r.files(parent)
	if err != nil {
		return nil, err
	}
	b, err := r.files(c)
	if err != nil {
		return nil, err
	}
	var out []string
	for p, h := range b {
		if a[p] != h {
			out = append(out, p)
		}
	}
	for p := range a {
		if _, ok := b[p]; !ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, nil
}

func short(h plumbing.Hash) string { return h.String()[:10] }
