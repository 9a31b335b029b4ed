package memrepo

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"

	"hearth/backend/internal/nofollow"
)

// Every commit writes each changed file whole as a loose object, so a large
// HISTORY.md that grows by a line a day would cost its full size (compressed) per
// commit. When loose objects pile up they are written into a pack, where each
// version is stored as a delta against a similar one; when packs pile up they are
// merged into one, which also deltas across them. Why and how it stays safe when
// killed: docs/design/memory.md#history-of-versions.

// packLimits say when to pack: loose objects, their bytes on disk, packs.
type packLimits struct {
	objects int
	bytes   int64
	packs   int
}

var defaultPackLimits = packLimits{objects: 256, bytes: 8 << 20, packs: 8}

// packDir is the repository's folder of packs, relative to it.
const packDir = "objects/pack"

// loose counts the loose objects and their bytes on disk. The objects folder is
// opened once and each fan-out folder from it, none through a link.
func (r *Repo) loose() (n int, bytes int64) {
	rel, err := r.fs.rel("objects")
	if err != nil {
		return 0, 0
	}
	objects, err := nofollow.OpenDir(r.fs.base, rel)
	if err != nil {
		return 0, 0
	}
	defer objects.Close()
	dirs, _ := objects.Readdir(-1)
	for _, d := range dirs {
		if !d.IsDir() || len(d.Name()) != 2 {
			continue
		}
		sub, err := nofollow.OpenDirIn(objects, d.Name())
		if err != nil {
			continue
		}
		ents, _ := sub.Readdir(-1)
		sub.Close()
		for _, fi := range ents {
			if fi.Mode().IsRegular() {
				n++
				bytes += fi.Size()
			}
		}
	}
	return n, bytes
}

// packs lists the names of the pack files, sorted.
func (r *Repo) packs() []string {
	ents, _ := r.fs.ReadDir(packDir)
	var out []string
	for _, e := range ents {
		if e.Mode().IsRegular() && strings.HasSuffix(e.Name(), ".pack") && strings.HasPrefix(e.Name(), "pack-") {
			out = append(out, e.Name())
		}
	}
	return out
}

// noticePacks makes the storage read the pack list again when another process
// (or a pack of ours) changed it: a pack it does not know would hide the objects
// moved into it. The caller holds the lock.
func (r *Repo) noticePacks() {
	if p := r.packs(); !slices.Equal(p, r.seenPacks) {
		r.st.Reindex()
		r.seenPacks = p
	}
}

// maybePack packs when loose objects or packs pile up; the caller holds the lock.
// A failure leaves everything as it was (loose objects are only removed once
// their pack is in place), so it is logged, not returned: the commit stands.
func (r *Repo) maybePack() {
	n, bytes := r.loose()
	full := len(r.packs()) >= r.limits.packs
	if n < r.limits.objects && bytes < r.limits.bytes && !full {
		return
	}
	if err := r.pack(full); err != nil {
		r.log.Warn("memory history not packed", "dir", r.dir, "err", err)
	}
}

// pack writes a pack and then removes what it replaces: loose objects now in it,
// and with all the other packs. The caller holds the lock.
func (r *Repo) pack(all bool) error {
	r.cleanPackLeftovers()
	r.noticePacks()
	old := r.packs()
	var objs []plumbing.Hash
	if all {
		var err error
		if objs, err = r.reachable(); err != nil {
			return err
		}
	} else if err := r.st.ForEachObjectHash(func(h plumbing.Hash) error {
		objs = append(objs, h)
		return nil
	}); err != nil {
		return err
	}
	if len(objs) == 0 {
		return nil
	}
	w, err := r.st.PackfileWriter()
	if err != nil {
		return err
	}
	if _, err := packfile.NewEncoder(w, r.st, false).Encode(objs, 4); err != nil {
		w.Close()
		return fmt.Errorf("write a pack: %w", err)
	}
	// Close writes the index, then moves the pack into place: from here every
	// object is in a whole pack, and what it replaces may go.
	if err := w.Close(); err != nil {
		return fmt.Errorf("write a pack: %w", err)
	}
	r.st.Reindex()
	var loose []plumbing.Hash
	if err := r.st.ForEachObjectHash(func(h plumbing.Hash) error {
		loose = append(loose, h)
		return nil
	}); err != nil {
		return err
	}
	// Every loose object is in the pack now, or (when all) not part of the history:
	// the objects of a commit killed before its branch moved.
	for _, h := range loose {
		if err := r.st.DeleteLooseObject(h); err != nil {
			return err
		}
	}
	if newest := newPack(r.packs(), old); all && newest != "" {
		for _, name := range old {
			h := plumbing.NewHash(strings.TrimSuffix(strings.TrimPrefix(name, "pack-"), ".pack"))
			if err := r.st.DeleteOldObjectPackAndIndex(h, time.Time{}); err != nil {
				return err
			}
		}
	}
	r.st.Reindex()
	r.seenPacks = r.packs()
	return nil
}

// newPack is the pack in now that was not in old (the one just written), or ""
// when it has the name of an old one (the same objects).
func newPack(now, old []string) string {
	for _, n := range now {
		if !slices.Contains(old, n) {
			return n
		}
	}
	return ""
}

// reachable lists every object of the branch's history: commits, trees and blobs.
func (r *Repo) reachable() ([]plumbing.Hash, error) {
	seen := map[plumbing.Hash]bool{}
	var out []plumbing.Hash
	add := func(h plumbing.Hash) bool {
		if seen[h] {
			return false
		}
		seen[h] = true
		out = append(out, h)
		return true
	}
	c, err := r.head()
	if err != nil {
		return nil, err
	}
	for c != nil {
		add(c.Hash)
		t, err := r.treeOf(c)
		if err != nil {
			return nil, err
		}
		if add(t.Hash) {
			if err := r.treeObjects(t.Hash, add); err != nil {
				return nil, err
			}
		}
		if c, err = r.parent(c); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// treeObjects adds the subtrees and blobs of tree h.
func (r *Repo) treeObjects(h plumbing.Hash, add func(plumbing.Hash) bool) error {
	t, err := r.treeAt(h)
	if err != nil {
		return err
	}
	for _, e := range t.Entries {
		if add(e.Hash) && !e.Mode.IsFile() {
			if err := r.treeObjects(e.Hash, add); err != nil {
				return err
			}
		}
	}
	return nil
}

// cleanPackLeftovers removes what a pack or commit killed midway left in the pack
// folder: temporary files, and an index whose pack never arrived. The caller holds
// the lock, so nobody is writing them now. Only regular files go, and only from
// the pack folder reached without a link: a link planted as the folder or as a
// leftover is never followed, so nothing elsewhere is deleted.
func (r *Repo) cleanPackLeftovers() {
	ents, err := r.fs.ReadDir(packDir)
	if err != nil {
		return
	}
	names := map[string]bool{}
	for _, e := range ents {
		names[e.Name()] = e.Mode().IsRegular()
	}
	for name, regular := range names {
		if !regular {
			continue
		}
		gone := strings.HasPrefix(name, "tmp_")
		if idx, ok := strings.CutSuffix(name, ".idx"); ok && !names[idx+".pack"] {
			gone = true
		}
		if gone {
			_ = r.fs.Remove(packDir + "/" + name)
		}
	}
}
