package recall

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"sync"
	"time"

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

// Index is the recall index: chunks of MEMORY.md, USER.md, HISTORY.md, daily
// notes, workspace notes and chats, searched by BM25 (SQLite FTS5) and, with
// an embedding model, by vector similarity. The files are the truth: the
// index is a cache in one SQLite file that syncs from them by stat and hash,
// so opening it reads only the list of files, and a changed file re-indexes
// only itself.
type Index struct {
	opts IndexOptions
	log  *slog.Logger

	mu     sync.Mutex
	db     *sql.DB              // nil until first used
	reason string               // why the cache was started over when opened ("" if not)
	files  map[string]fileState // what it knows of the sources loaded so far
	// allFiles says files holds every source (loaded for a full walk); else
	// notes of folders that did not change are left in the database.
	allFiles bool
	// vecs are the vectors, loaded on the first vector search; gen is the
	// index generation they match (another process's writes change it).
	vecs      *vectorSet
	gen       int64
	embedErr  error     // last embedding failure
	embedDown time.Time // when it happened (embedding is skipped for a while)
	// absent is set when the embedding model is not there (not installed,
	// or its provider cannot embed): a lasting state, not a hiccup, so it is
	// not asked again on every turn but after Recheck (a pull) or absentRetry.
	absent error
	// absentSaved: the index's meta table holds an absence (indexabsent.go); forget:
	// Recheck asked to remove it before the database was open.
	absentSaved, forget bool
	dirs                *noteDirs         // the note folders and when they changed (nil: not loaded)
	folders             map[string]Folder // knowledge folders by id, as SyncFolder was last given them
	// readAll makes a keyword search read and score every matching chunk (a test
	// holds the picked candidates to it, candidates.go).
	readAll bool
	// statCount counts the stats of note files and folders (a test checks that a
	// search does not stat every note).
	statCount int
	// missingScans counts embedMissing's reads of the chunks without a vector (a test
	// checks that a process finding the model recorded missing makes none).
	missingScans int
	// chatTails counts the chats read from their bookmark, not whole (a test checks).
	chatTails int
}

// fileState is what the index knows of one source: enough to tell, from a
// stat, whether it changed.
type fileState struct {
	Size    int64
	ModNano int64
	Hash    string
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
		x.saveAbsent(err)
	}
}

// Recheck forgets that the embedding model was missing or failing, so the
// next search or sync asks again: call it after a model was pulled.
func (x *Index) Recheck() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.embedErr, x.absent = nil, nil
	// For every process sharing the index: the record is removed now (opening the
	// index if need be), or when it is next opened.
	x.forget = true
	if x.db == nil && x.open() != nil {
		return
	}
	x.forgetAbsent()
}

// NewIndex returns an index; nothing is read until the first Sync or Search.
func NewIndex(opts IndexOptions) *Index {
	if opts.EmbedBatch <= 0 {
		opts.EmbedBatch = 64
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	lg := cmp.Or(opts.Logger, slog.New(slog.DiscardHandler))
	return &Index{opts: opts, log: lg}
}

// Reindex drops the cached index and rebuilds it from the files (the
// `hearth memory reindex` command).
func (x *Index) Reindex(ctx context.Context) (IndexReport, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.startOver("full rebuild requested")
	x.embedErr, x.absent, x.absentSaved, x.forget = nil, nil, false, false
	rep, err := x.sync(ctx, true)
	rep.Rebuilt, rep.Reason = true, "full rebuild requested"
	return rep, err
}

// Close closes the database; the Index opens it again when used.
func (x *Index) Close() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.db == nil {
		return nil
	}
	err := x.db.Close()
	x.db, x.files, x.vecs, x.dirs = nil, nil, nil, nil
	return err
}
