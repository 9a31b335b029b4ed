package memory

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"path/filepath"
	"sort"
	"sync"
	"time"

	chromem "github.com/philippgille/chromem-go"

	"hearth/backend/llm"
)

// EmbedFunc turns texts into vectors, one per input, in order (the Ollama
// provider's batched /api/embed).
type EmbedFunc func(ctx context.Context, texts []string) ([][]float32, error)

// IndexOptions configure an Index.
type IndexOptions struct {
	Workspace string
	// SessionsDir holds the session JSONL files; archived sessions are
	// indexed. Empty leaves sessions out.
	SessionsDir string
	// Dir is where the index is cached; empty keeps it in memory only.
	Dir string
	// Embed is nil without an embedding model: recall is keyword-only.
	Embed EmbedFunc
	// Model names the embedding model; vectors of another model are rebuilt.
	Model string
	// EmbedBatch is how many texts one Embed call gets (default 64).
	EmbedBatch int
	Logger     *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// IndexReport says what a Sync or Reindex did.
type IndexReport struct {
	Files    int    `json:"files"`    // sources known
	Chunks   int    `json:"chunks"`   // chunks indexed
	Vectors  int    `json:"vectors"`  // chunks with a vector
	Changed  int    `json:"changed"`  // sources re-read
	Added    int    `json:"added"`    // chunks added
	Removed  int    `json:"removed"`  // chunks removed
	Embedded int    `json:"embedded"` // vectors computed
	Mode     string `json:"mode"`     // ModeHybrid or ModeKeyword
	// Rebuilt says the cached index was rebuilt from the files, and why.
	Rebuilt    bool          `json:"rebuilt"`
	Reason     string        `json:"reason,omitempty"`
	EmbedError string        `json:"embedError,omitempty"`
	Duration   time.Duration `json:"duration"`
}

// Index is the recall index (docs/design/memory.md#recall): chunks of HISTORY.md, daily notes,
// workspace notes and archived sessions, searched by BM25 and, with an
// embedding model, by vector similarity (chromem-go). The files are the
// truth: the index is a cache that syncs from them by stat and hash.
type Index struct {
	opts IndexOptions
	log  *slog.Logger

	mu        sync.Mutex
	loaded    bool
	files     map[string]fileState
	chunks    map[string]*Chunk
	kw        *keywordIndex
	col       *chromem.Collection
	w         *logWriter
	embedErr  error     // last embedding failure
	embedDown time.Time // when it happened (embedding is skipped for a while)
	// absent is set when the embedding model is not there (not installed,
	// or its provider cannot embed): a lasting state, not a hiccup, so it is
	// not asked again on every turn but after Recheck (a pull) or absentRetry.
	absent   error
	notes    []string // workspace notes found by the last walk
	lastWalk time.Time
	walkCost time.Duration
}

// embedRetry is how long embedding is skipped after it failed, so a stopped
// Ollama does not slow every search.
const embedRetry = 30 * time.Second

// absentRetry is how long a missing embedding model is taken as missing: a
// model pulled outside Hearth (`ollama pull`) is noticed within this time,
// one failed call instead of one per turn.
const absentRetry = 10 * time.Minute

// ErrEmbedUnavailable marks an EmbedFunc error that will not go away by
// itself, such as a provider that cannot embed; an Ollama "model not found"
// counts too. Search then stays keyword-only until Recheck.
var ErrEmbedUnavailable = errors.New("embedding model unavailable")

// isAbsent reports whether err says the embedding model is not there.
func isAbsent(err error) bool {
	if errors.Is(err, ErrEmbedUnavailable) {
		return true
	}
	le, ok := llm.AsError(err)
	return ok && le.Kind == llm.KindModelNotFound
}

// canEmbed reports whether embedding is worth trying now; the caller holds
// x.mu.
func (x *Index) canEmbed() bool {
	now := x.opts.Now()
	switch {
	case x.opts.Embed == nil:
		return false
	case x.absent != nil && now.Sub(x.embedDown) < absentRetry:
		return false
	case x.embedErr != nil && now.Sub(x.embedDown) < embedRetry:
		return false
	}
	return true
}

// failed records an embedding failure; a caller's own deadline is not the
// model's failure. The caller holds x.mu.
func (x *Index) failed(ctx context.Context, err error) {
	if ctx.Err() != nil {
		return
	}
	x.embedErr, x.embedDown = err, x.opts.Now()
	x.absent = nil
	if isAbsent(err) {
		x.absent = err
	}
}

// Recheck forgets that the embedding model was missing or failing, so the
// next search or sync asks again: call it after a model was pulled.
func (x *Index) Recheck() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.embedErr, x.absent = nil, nil
}

// NewIndex returns an index; nothing is read until the first Sync or Search.
func NewIndex(opts IndexOptions) *Index {
	if opts.EmbedBatch <= 0 {
		opts.EmbedBatch = 64
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	lg := opts.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	return &Index{opts: opts, log: lg}
}

func newCollection() *chromem.Collection {
	col, _ := chromem.NewDB().CreateCollection("memory", nil, func(context.Context, string) ([]float32, error) {
		return nil, errors.New("memory index: vectors are computed before they are added")
	})
	return col
}

func (x *Index) reset() {
	x.files, x.chunks, x.kw, x.col = map[string]fileState{}, map[string]*Chunk{}, newKeywordIndex(), newCollection()
}

// load reads the cached index (once). Problems are not errors: the index is
// then rebuilt from the files by the sync that follows. It returns why it
// had to start over, "" when the cache was usable.
func (x *Index) load() (reason string) {
	if x.loaded {
		return ""
	}
	x.loaded = true
	x.reset()
	if x.opts.Dir == "" {
		return ""
	}
	x.w = &logWriter{path: filepath.Join(x.opts.Dir, logName)}
	recs, good, torn, err := readLog(x.w.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := x.w.snapshot(x.snapshot()); err != nil {
			x.log.Warn("create memory index", "err", err)
		}
		return "no index yet"
	case err != nil:
		return x.startOver(fmt.Sprintf("unreadable index (%v)", err))
	case len(recs) == 0 || recs[0].Op != opHeader || recs[0].Header == nil || recs[0].Header.Version != logVersion:
		return x.startOver("index missing or of another version")
	case recs[0].Header.Model != x.opts.Model:
		return x.startOver(fmt.Sprintf("embedding model changed from %q to %q", recs[0].Header.Model, x.opts.Model))
	}
	for _, r := range recs[1:] {
		x.replay(r)
	}
	x.w.records = len(recs)
	if torn {
		// Cut the torn tail so appends continue from a good record; the files
		// check then re-indexes what the lost records described.
		_ = truncateLog(x.w.path, good)
		reason = "index tail was torn; re-checked against the files"
	}
	// Count check: every chunk a file claims must be there, and chromem must
	// hold exactly the chunks that have vectors.
	vecs := 0
	for _, c := range x.chunks {
		if len(c.Vec) > 0 {
			vecs++
		}
	}
	// A file's chunks are the chunks of its source; their number must be
	// the count its record saved, else the file is stale and re-read at the
	// next sync. Chunks of no known file (its record was torn off) go.
	bySrc := map[string][]string{}
	var orphans []record
	for id, c := range x.chunks {
		if _, ok := x.files[c.Source]; !ok {
			if len(c.Vec) > 0 {
				vecs--
			}
			x.del(id)
			orphans = append(orphans, record{Op: opDel, ID: id})
			continue
		}
		bySrc[c.Source] = append(bySrc[c.Source], id)
	}
	for src, st := range x.files {
		st.IDs = bySrc[src]
		sort.Strings(st.IDs)
		if len(st.IDs) != st.N {
			st.Hash, st.Size = "", -1
			reason = "index lost chunks; re-checked against the files"
		}
		x.files[src] = st
	}
	if err := x.w.append(orphans); err != nil {
		x.log.Warn("persist memory index", "err", err)
	}
	if x.col.Count() != vecs || x.kw.len() != len(x.chunks) {
		return x.startOver(fmt.Sprintf("index count check failed (%d vectors, %d in the vector store)", vecs, x.col.Count()))
	}
	if x.w.records > 2*len(x.chunks)+2*len(x.files)+256 {
		if err := x.w.snapshot(x.snapshot()); err != nil {
			x.log.Warn("compact memory index", "err", err)
		}
	}
	return reason
}

func (x *Index) startOver(reason string) string {
	x.log.Warn("memory index rebuilt from the files", "reason", reason)
	x.reset()
	if err := x.w.snapshot(x.snapshot()); err != nil {
		x.log.Warn("reset memory index", "err", err)
	}
	return reason
}

func (x *Index) replay(r record) {
	switch r.Op {
	case opPut:
		if r.Chunk != nil {
			x.put(r.Chunk)
		}
	case opDel:
		x.del(r.ID)
	case opFile:
		if r.State != nil {
			x.files[r.Source] = *r.State
		}
	case opDropFile:
		delete(x.files, r.Source)
	}
}

func (x *Index) put(c *Chunk) {
	if old := x.chunks[c.ID]; old != nil {
		x.kw.remove(old.ID, old.Text)
		_ = x.col.Delete(context.Background(), nil, nil, old.ID)
	}
	x.chunks[c.ID] = c
	x.kw.add(c.ID, c.Text)
	if len(c.Vec) > 0 {
		_ = x.col.AddDocument(context.Background(), chromem.Document{ID: c.ID, Embedding: c.Vec})
	}
}

func (x *Index) del(id string) {
	if c := x.chunks[id]; c != nil {
		x.kw.remove(id, c.Text)
		if len(c.Vec) > 0 {
			_ = x.col.Delete(context.Background(), nil, nil, id)
		}
		delete(x.chunks, id)
	}
}

func (x *Index) snapshot() []record {
	recs := []record{{Op: opHeader, Header: &header{Version: logVersion, Model: x.opts.Model}}}
	ids := make([]string, 0, len(x.chunks))
	for id := range x.chunks {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		recs = append(recs, record{Op: opPut, Chunk: x.chunks[id]})
	}
	for src, st := range x.files {
		recs = append(recs, record{Op: opFile, Source: src, State: st.persisted()})
	}
	return recs
}

// Sync brings the index up to date with the files: sources whose size or
// modification time changed are re-read, and only chunks whose text changed
// are added, removed or embedded.
func (x *Index) Sync(ctx context.Context) (IndexReport, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.sync(ctx)
}

func (x *Index) sync(ctx context.Context) (IndexReport, error) {
	start := time.Now()
	var rep IndexReport
	if reason := x.load(); reason != "" && reason != "no index yet" {
		rep.Rebuilt, rep.Reason = true, reason
	}
	srcs, err := x.sources()
	if err != nil {
		return rep, err
	}
	var recs []record
	for src, fi := range srcs {
		st, ok := x.files[src]
		if ok && st.Size == fi.size && st.ModNano == fi.mod {
			continue
		}
		r, err := x.updateSource(ctx, src, fi, st, ok, &rep)
		if err != nil {
			x.log.Warn("index memory source", "source", src, "err", err)
			continue
		}
		recs = append(recs, r...)
	}
	for src, st := range x.files {
		if _, ok := srcs[src]; !ok {
			for _, id := range st.IDs {
				x.del(id)
				recs = append(recs, record{Op: opDel, ID: id})
				rep.Removed++
			}
			delete(x.files, src)
			recs = append(recs, record{Op: opDropFile, Source: src})
		}
	}
	recs = append(recs, x.embedMissing(ctx, &rep)...)
	if err := x.w.append(recs); err != nil {
		x.log.Warn("persist memory index", "err", err)
	}
	x.fill(&rep)
	rep.Duration = time.Since(start)
	return rep, nil
}

func (x *Index) fill(rep *IndexReport) {
	rep.Files, rep.Chunks, rep.Vectors = len(x.files), len(x.chunks), x.col.Count()
	rep.Mode = ModeKeyword
	if x.opts.Embed != nil && x.embedErr == nil && (rep.Vectors > 0 || rep.Chunks == 0) {
		rep.Mode = ModeHybrid
	}
	if x.embedErr != nil {
		rep.EmbedError = x.embedErr.Error()
	}
}

// updateSource re-reads one source and diffs its chunks by ID.
func (x *Index) updateSource(ctx context.Context, src string, fi srcStat, old fileState, known bool, rep *IndexReport) ([]record, error) {
	var recs []record
	if known {
		if tail, hash, ok := x.appendedHistory(src, old); ok {
			rep.Changed++
			st := fileState{Size: fi.size, ModNano: fi.mod, Hash: hash, IDs: append([]string(nil), old.IDs...)}
			var fresh []*Chunk
			for i := range tail {
				st.IDs = append(st.IDs, tail[i].ID)
				fresh = append(fresh, &tail[i])
			}
			x.embed(ctx, fresh, rep)
			for _, c := range fresh {
				x.put(c)
				recs = append(recs, record{Op: opPut, Chunk: c})
				rep.Added++
			}
			x.files[src] = st
			return append(recs, record{Op: opFile, Source: src, State: st.persisted()}), nil
		}
	}
	chunks, hash, err := x.readSource(src, fi)
	if err != nil {
		return nil, err
	}
	st := fileState{Size: fi.size, ModNano: fi.mod, Hash: hash}
	if known && old.Hash == hash {
		st.IDs = old.IDs // touched, not changed
		x.files[src] = st
		return []record{{Op: opFile, Source: src, State: st.persisted()}}, nil
	}
	rep.Changed++
	keep := map[string]bool{}
	var fresh []*Chunk
	for i := range chunks {
		c := &chunks[i]
		st.IDs = append(st.IDs, c.ID)
		keep[c.ID] = true
		if prev := x.chunks[c.ID]; prev != nil && prev.Text == c.Text {
			if prev.Title != c.Title || prev.Date != c.Date {
				prev.Title, prev.Date = c.Title, c.Date
				recs = append(recs, record{Op: opPut, Chunk: prev})
			}
			continue
		}
		fresh = append(fresh, c)
	}
	for _, id := range old.IDs {
		if !keep[id] {
			x.del(id)
			recs = append(recs, record{Op: opDel, ID: id})
			rep.Removed++
		}
	}
	x.embed(ctx, fresh, rep)
	for _, c := range fresh {
		x.put(c)
		recs = append(recs, record{Op: opPut, Chunk: c})
		rep.Added++
	}
	x.files[src] = st
	return append(recs, record{Op: opFile, Source: src, State: st.persisted()}), nil
}

// embed sets the vectors of chunks, in batches; a failure leaves them
// keyword-only (embedMissing retries later) and is remembered.
func (x *Index) embed(ctx context.Context, chunks []*Chunk, rep *IndexReport) {
	if len(chunks) == 0 || !x.canEmbed() {
		return
	}
	for i := 0; i < len(chunks); i += x.opts.EmbedBatch {
		part := chunks[i:min(i+x.opts.EmbedBatch, len(chunks))]
		texts := make([]string, len(part))
		for j, c := range part {
			texts[j] = embedText(c)
		}
		vecs, err := x.opts.Embed(ctx, texts)
		if err == nil && len(vecs) != len(part) {
			err = fmt.Errorf("embedding model returned %d vectors for %d texts", len(vecs), len(part))
		}
		if err != nil {
			x.failed(ctx, err)
			if ctx.Err() == nil {
				x.log.Warn("embed memory chunks; keyword search only until it works", "err", err)
			}
			return
		}
		x.embedErr, x.absent = nil, nil
		for j, c := range part {
			c.Vec = normalize(vecs[j])
		}
		rep.Embedded += len(part)
	}
}

// embedText is what gets embedded: the chunk's own text, so a query that
// quotes it lands on it.
func embedText(c *Chunk) string { return c.Text }

// embedMissing embeds chunks indexed while the embedding model was away.
func (x *Index) embedMissing(ctx context.Context, rep *IndexReport) []record {
	if x.opts.Embed == nil {
		return nil
	}
	var missing []*Chunk
	for _, c := range x.chunks {
		if len(c.Vec) == 0 {
			missing = append(missing, c)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	sort.Slice(missing, func(i, j int) bool { return missing[i].ID < missing[j].ID })
	x.embed(ctx, missing, rep)
	var recs []record
	for _, c := range missing {
		if len(c.Vec) > 0 {
			_ = x.col.AddDocument(ctx, chromem.Document{ID: c.ID, Embedding: c.Vec})
			recs = append(recs, record{Op: opPut, Chunk: c})
		}
	}
	return recs
}

func normalize(v []float32) []float32 {
	var n float64
	for _, f := range v {
		n += float64(f) * float64(f)
	}
	out := make([]float32, len(v))
	if n == 0 {
		return out
	}
	s := 1 / math.Sqrt(n)
	for i, f := range v {
		out[i] = float32(float64(f) * s)
	}
	return out
}

// Reindex drops the cached index and rebuilds it from the files (the
// `hearth memory reindex` command).
func (x *Index) Reindex(ctx context.Context) (IndexReport, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.loaded = true
	x.reset()
	x.embedErr, x.absent, x.notes = nil, nil, nil
	if x.opts.Dir != "" {
		x.w = &logWriter{path: filepath.Join(x.opts.Dir, logName)}
		if err := x.w.snapshot(x.snapshot()); err != nil {
			return IndexReport{}, fmt.Errorf("reindex: %w", err)
		}
	}
	rep, err := x.sync(ctx)
	rep.Rebuilt, rep.Reason = true, "full rebuild requested"
	if err == nil && x.opts.Dir != "" {
		err = x.w.snapshot(x.snapshot())
	}
	return rep, err
}

// Report describes the index without changing it.
func (x *Index) Report() IndexReport {
	x.mu.Lock()
	defer x.mu.Unlock()
	var rep IndexReport
	x.load()
	x.fill(&rep)
	return rep
}
