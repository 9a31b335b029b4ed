package recall

import (
	"context"
	"fmt"
	"path"
	"strconv"
	"strings"

	"hearth/backend/extract"
	"hearth/backend/internal/confined"
)

// KnowledgePrefix starts the source of a file of a knowledge folder:
// "knowledge:<folder id>/<path in the folder>". The colon keeps it apart from
// any workspace note's path, and the sync of the workspace's sources leaves
// these alone: a knowledge folder is synced by SyncFolder, from the list its
// owner (backend/knowledge) walked or was told of by its watcher.
const KnowledgePrefix = "knowledge:"

// KnowledgeSource is the source of the file rel (slash-separated) of folder id.
func KnowledgeSource(id, rel string) string { return KnowledgePrefix + id + "/" + rel }

// KnowledgeFolderOf is the folder id of a knowledge source (ok false for others).
func KnowledgeFolderOf(src string) (id string, ok bool) {
	rest, ok := strings.CutPrefix(src, KnowledgePrefix)
	if !ok {
		return "", false
	}
	id, _, ok = strings.Cut(rest, "/")
	return id, ok
}

func isKnowledge(src string) bool { return strings.HasPrefix(src, KnowledgePrefix) }

// KnowledgeFile is one file of a folder as its walk stat'ed it.
type KnowledgeFile struct {
	Size, ModNano int64
}

// Folder is a knowledge folder handed to SyncFolder.
type Folder struct {
	ID   string // stable, short: part of every source
	Root string // absolute path
	Name string // what citations call it (the folder's base name)
	// MaxBytes bounds one file's read (extract's limit).
	MaxBytes int64
}

// FolderReport says what a SyncFolder did.
type FolderReport struct {
	Files   int // files of the folder the index holds now
	Changed int // files read again
	Removed int // files dropped (gone from the folder)
	Chunks  int // chunks added
	// Failed are the files that could not be read, with why (not indexed; the
	// next sync tries them again when their stat moves).
	Failed map[string]error
}

// SyncFolder brings the index's view of folder f up to date with files (path
// in the folder → stat): files whose stat moved are read again through
// extract, confined to the folder (a link out is never followed), files no
// longer listed are dropped. Unchanged files are not read. Writes are batched
// as the workspace's sync does.
func (x *Index) SyncFolder(ctx context.Context, f Folder, files map[string]KnowledgeFile) (FolderReport, error) {
	rep := FolderReport{Failed: map[string]error{}}
	prefix := KnowledgePrefix + f.ID + "/"
	x.mu.Lock()
	known, err := x.folderFiles(f)
	x.mu.Unlock()
	if err != nil {
		return rep, err
	}
	var todo []string
	for rel, fi := range files {
		if st, ok := known[prefix+rel]; !ok || st.Size != fi.Size || st.ModNano != fi.ModNano {
			todo = append(todo, rel)
		}
	}
	// The index's lock is held for a batch of files at a time, not the whole first
	// build of a big folder: a turn's search waits for one batch at most.
	var ir IndexReport
	for len(todo) > 0 && ctx.Err() == nil {
		n := min(len(todo), folderBatch)
		if err := x.syncFolderBatch(ctx, f, todo[:n], files, known, &rep, &ir); err != nil {
			return rep, err
		}
		todo = todo[n:]
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if err := x.open(); err != nil {
		return rep, err
	}
	var gone []string
	for src := range known {
		if _, ok := files[strings.TrimPrefix(src, prefix)]; !ok {
			gone = append(gone, src)
		}
	}
	// A file that failed to read drops out too: the index says what the folder holds.
	for rel := range rep.Failed {
		if _, ok := known[prefix+rel]; ok {
			gone = append(gone, prefix+rel)
		}
	}
	if err := x.dropSources(ctx, gone, &ir); err != nil {
		return rep, err
	}
	if ir.Added+ir.Removed >= mergeAfter {
		if _, err := x.db.ExecContext(context.WithoutCancel(ctx), `INSERT INTO terms(terms) VALUES('optimize')`); err != nil {
			return rep, err
		}
	}
	rep.Changed, rep.Chunks, rep.Removed = ir.Changed, ir.Added, len(gone)
	rep.Files = len(known) + countNew(files, known, prefix, rep.Failed) - len(gone)
	return rep, ctx.Err()
}

// folderBatch is how many changed files one hold of the index's lock reads.
const folderBatch = 200

// folderFiles opens the index, records f and loads what the index knows of its
// files. The caller holds x.mu.
func (x *Index) folderFiles(f Folder) (map[string]fileState, error) {
	if err := x.open(); err != nil {
		return nil, err
	}
	if x.folders == nil {
		x.folders = map[string]Folder{}
	}
	x.folders[f.ID] = f
	prefix := KnowledgePrefix + f.ID + "/"
	known, err := loadFiles(x.db, `source > ? AND source < ?`, prefix, KnowledgePrefix+f.ID+"0") // '0' follows '/'
	if err != nil {
		return nil, err
	}
	for src, st := range known {
		x.files[src] = st
	}
	return known, nil
}

// syncFolderBatch reads the files rels of folder f and writes their changes.
func (x *Index) syncFolderBatch(ctx context.Context, f Folder, rels []string, files map[string]KnowledgeFile, known map[string]fileState, rep *FolderReport, ir *IndexReport) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.db == nil || x.folders[f.ID] != f {
		// Closed or started over meanwhile: what the index knows is read again.
		if _, err := x.folderFiles(f); err != nil {
			return err
		}
	}
	prefix := KnowledgePrefix + f.ID + "/"
	var batch []*change
	for _, rel := range rels {
		src := prefix + rel
		st, ok := known[src]
		fi := files[rel]
		ch, err := x.prepare(ctx, src, srcStat{size: fi.Size, mod: fi.ModNano}, st, ok, ir)
		if err != nil {
			if isCorrupt(err) {
				return err
			}
			rep.Failed[rel] = err
			continue
		}
		if ch != nil {
			batch = append(batch, ch)
		}
	}
	return x.applyAll(ctx, batch, ir)
}

// countNew counts the listed files the index did not know that were read.
func countNew(files map[string]KnowledgeFile, known map[string]fileState, prefix string, failed map[string]error) int {
	n := 0
	for rel := range files {
		if _, ok := known[prefix+rel]; !ok && failed[rel] == nil {
			n++
		}
	}
	return n
}

// DropFolder removes every chunk of folder id (the folder was removed from the
// list).
func (x *Index) DropFolder(ctx context.Context, id string) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if err := x.open(); err != nil {
		return err
	}
	delete(x.folders, id)
	known, err := loadFiles(x.db, `source > ? AND source < ?`, KnowledgePrefix+id+"/", KnowledgePrefix+id+"0")
	if err != nil {
		return err
	}
	gone := make([]string, 0, len(known))
	for src := range known {
		gone = append(gone, src)
	}
	var ir IndexReport
	return x.dropSources(ctx, gone, &ir)
}

// dropSources removes sources with their chunks, in one transaction.
func (x *Index) dropSources(ctx context.Context, gone []string, rep *IndexReport) error {
	if len(gone) == 0 {
		return nil
	}
	err := x.write(context.WithoutCancel(ctx), func(tx *txn, v *vectorSet) error {
		for _, src := range gone {
			ids, err := chunkIDs(tx, src)
			if err != nil {
				return err
			}
			for id := range ids {
				if err := removeChunk(tx, v, id, rep); err != nil {
					return err
				}
			}
			if _, err := tx.Exec(`DELETE FROM files WHERE source = ?`, src); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, src := range gone {
		delete(x.files, src)
	}
	return nil
}

// readKnowledge reads and chunks one file of a knowledge folder. It is read
// beneath the folder's root: a file swapped for a link out, a FIFO or a file
// that grows past the limit while read is an error, not content.
func (x *Index) readKnowledge(src string) ([]Chunk, string, error) {
	id, _ := KnowledgeFolderOf(src)
	f, ok := x.folders[id]
	if !ok {
		return nil, "", fmt.Errorf("%s: knowledge folder %s is not listed", src, id)
	}
	rel := strings.TrimPrefix(src, KnowledgePrefix+id+"/")
	r, err := confined.Open(f.Root, confined.Options{})
	if err != nil {
		return nil, "", err
	}
	defer r.Close()
	lim := extract.Limits{MaxBytes: f.MaxBytes}
	if lim.MaxBytes <= 0 {
		lim.MaxBytes = extract.DefaultMaxBytes
	}
	b, err := r.ReadFile(rel, lim.MaxBytes)
	if err != nil {
		return nil, "", err
	}
	doc, err := extract.Bytes(path.Base(rel), b, lim)
	if err != nil {
		return nil, "", err
	}
	return docChunks(src, path.Join(f.Name, rel), doc), contentHash(b), nil
}

// docChunks chunks a document's pages: paragraphs merged up to maxChunk, each
// chunk titled with where it starts ("name line 12" for a line, "name p. 3" for a
// page) and Pos holding that line or page, so a citation can point there.
func docChunks(src, name string, doc *extract.Doc) []Chunk {
	var out []Chunk
	seen := map[string]int{}
	for _, pg := range doc.Pages {
		where := func(line int) (string, int) {
			if pg.N > 0 {
				return name + " p. " + strconv.Itoa(pg.N), pg.N
			}
			return name + " line " + strconv.Itoa(line), line
		}
		var cur strings.Builder
		start := 0
		flush := func() {
			t := strings.TrimSpace(cur.String())
			cur.Reset()
			if t == "" {
				return
			}
			title, pos := where(start)
			for _, part := range splitLong(t) {
				out = append(out, Chunk{ID: chunkID(src, part, seen), Source: src, Title: title, Text: part, Pos: pos})
			}
		}
		line := max(pg.Line, 1)
		for _, para := range strings.Split(strings.ReplaceAll(pg.Text, "\r\n", "\n"), "\n\n") {
			first := line + leadingNewlines(para)
			line += strings.Count(para, "\n") + 2
			p := strings.TrimSpace(para)
			if p == "" {
				continue
			}
			heading := strings.HasPrefix(p, "#")
			if cur.Len() > 0 && (cur.Len()+len(p) > maxChunk || (heading && cur.Len() >= minChunk)) {
				flush()
			}
			if cur.Len() == 0 {
				start = first
			} else {
				cur.WriteString("\n\n")
			}
			cur.WriteString(p)
		}
		flush()
	}
	return out
}

func leadingNewlines(s string) int {
	n := 0
	for _, c := range s {
		switch c {
		case '\n':
			n++
		case ' ', '\t', '\r':
		default:
			return n
		}
	}
	return n
}

// hitWhere is what a hit's line names as its place: a knowledge file's
// folder, path and line or page; else the source.
func hitWhere(h Hit) string {
	if isKnowledge(h.Source) && h.Title != "" {
		// Said in the form the window turns into a link (as attachments' are):
		// these few words per passage cost nothing when no file is recalled.
		return "cite as [" + h.Title + "]"
	}
	return h.Source
}

// hiding is skip that also leaves out the sources hide names.
func hiding(skip func(string, int) bool, hide func(string) bool) func(string, int) bool {
	if hide == nil {
		return skip
	}
	return func(source string, pos int) bool { return hide(source) || skip(source, pos) }
}
