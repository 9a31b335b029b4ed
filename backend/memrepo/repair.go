package memrepo

import (
	"bufio"
	"compress/zlib"
	"fmt"
	"os"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// repair points the branch at the newest commit that is whole (its tree and
// files all readable) after cause made the current one unusable. Commits are
// found among the loose objects and in the packs. With none left the
// history starts again empty; the files themselves are untouched either way.
func (r *Repo) repair(cause error) (*object.Commit, error) {
	var best *object.Commit
	dirs, _ := r.fs.ReadDir("objects")
	for _, d := range dirs {
		if !d.IsDir() || len(d.Name()) != 2 {
			continue
		}
		ents, _ := r.fs.ReadDir("objects/" + d.Name())
		for _, e := range ents {
			name := d.Name() + e.Name()
			if !plumbing.IsHash(name) || !r.isCommitObject("objects/"+d.Name()+"/"+e.Name()) {
				continue
			}
			c, err := r.verified(plumbing.NewHash(name))
			if err != nil {
				continue
			}
			if best == nil || c.Committer.When.After(best.Committer.When) {
				best = c
			}
		}
	}
	for _, h := range r.packedCommits() {
		if c, err := r.verified(h); err == nil && (best == nil || c.Committer.When.After(best.Committer.When)) {
			best = c
		}
	}
	if best == nil {
		r.log.Warn("memory history damaged and no whole commit left: starting a new history", "dir", r.dir, "cause", cause)
		if err := r.fs.Remove(branchFile); err != nil && !os.IsNotExist(err) {
			return nil, fmt.Errorf("reset the damaged history: %w", err)
		}
		return nil, nil
	}
	r.log.Warn("memory history damaged: going back to the newest whole commit", "dir", r.dir, "commit", best.Hash.String(), "cause", cause)
	if err := r.fs.writeFile(branchFile, []byte(best.Hash.String()+"\n")); err != nil {
		return nil, fmt.Errorf("repair the history's branch: %w", err)
	}
	return best, nil
}

// isCommitObject reads only a loose object's header: the files' blobs can be
// megabytes and are not needed to find commits.
func (r *Repo) isCommitObject(path string) bool {
	f, err := r.fs.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	z, err := zlib.NewReader(f)
	if err != nil {
		return false
	}
	defer z.Close()
	hdr, err := bufio.NewReaderSize(z, 64).ReadString(' ')
	return err == nil && strings.TrimSpace(hdr) == "commit"
}

// packedCommits lists the commits of every pack (a damaged pack is skipped).
func (r *Repo) packedCommits() []plumbing.Hash {
	var out []plumbing.Hash
	fsys := r.fs
	for _, name := range r.packs() {
		base := "objects/pack/" + strings.TrimSuffix(name, ".pack")
		pf, err := fsys.Open(base + ".pack")
		if err != nil {
			continue
		}
		idx, err := fsys.Open(base + ".idx")
		if err != nil {
			pf.Close()
			continue
		}
		it, err := filesystem.NewPackfileIter(fsys, pf, idx, plumbing.CommitObject, false, 0)
		if err != nil {
			pf.Close()
			continue
		}
		_ = it.ForEach(func(o plumbing.EncodedObject) error {
			out = append(out, o.Hash())
			return nil
		})
		it.Close()
	}
	return out
}
