// Package knowledge keeps the person's knowledge folders: the list in the
// config (knowledge.folders), their files in the recall index (recall's
// SyncFolder, read through extract), fresh as files change (a watcher in the
// desktop process, a walk that stats otherwise) and a status per folder that
// Settings › Knowledge and `hearth knowledge list` show. Which folders the
// recall block searches (mode "always") and which only memory_search does
// ("ask") is Hidden's answer; the file tools' read-only rule is the chat's
// (config.Knowledge).
package knowledge

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"hearth/backend/config"
	"hearth/backend/extract"
	"hearth/backend/i18n"
	"hearth/backend/recall"
)

// Settings is what the service needs of the settings service.
type Settings interface {
	Config() *config.Config
	Paths() config.Paths
	Update(func(*config.Config) error) error
}

// Options configure a Service.
type Options struct {
	Settings Settings
	// MaxFiles caps the files indexed per folder (DefaultMaxFiles when 0).
	MaxFiles int
	// MaxBytes bounds one file (DefaultMaxBytes when 0).
	MaxBytes int64
	// MaxWatches bounds the folders one knowledge folder may watch; a deeper tree
	// is walked every PollEvery instead (DefaultMaxWatches when 0).
	MaxWatches int
	// PollEvery is how often a folder without watches is walked (default 30 s);
	// Debounce how long the watcher waits for a burst of events to end (300 ms).
	PollEvery, Debounce time.Duration
	// Changed is told when a folder's status changed (the window refreshes).
	Changed func()
	Logger  *slog.Logger
	Now     func() time.Time

	// Open shows a file in the system's viewer (a citation clicked); nil: none.
	Open func(path string) error
}

// Defaults: 20 000 files of up to 10 MB each hold a large notes archive; a
// bigger folder is cut, and its status says how many were left out.
const (
	DefaultMaxFiles   = 20_000
	DefaultMaxBytes   = 10 << 20
	DefaultMaxWatches = 2_000
)

// Service is the knowledge folders' service.
type Service struct {
	opts Options
	log  *slog.Logger

	refreshing sync.Mutex // one index pass at a time
	mu         sync.Mutex
	status     map[string]*Status // by folder id
	index      *recall.Index      // the current workspace's (UseIndex)
	watch      *watcher           // nil: this process does not watch
}

// Status is one folder as the window and the CLI show it.
type Status struct {
	ID       string         `json:"id"`
	Path     string         `json:"path"`
	Name     string         `json:"name"`
	Mode     string         `json:"mode"`
	Added    string         `json:"added"`
	Files    int            `json:"files"`   // indexed
	Skipped  int            `json:"skipped"` // left out, all reasons
	Reasons  map[string]int `json:"reasons"` // Skip* → count
	Updating bool           `json:"updating"`
	// Indexed is when the last pass ended, LastChange when it last found a
	// change (RFC 3339, "" for never).
	Indexed    string `json:"indexed"`
	LastChange string `json:"lastChange"`
	// Watch is "watching", "polling" (too many folders to watch: walked every
	// PollEvery) or "" (this process does not watch: the command line).
	Watch   string        `json:"watch"`
	Problem *i18n.Message `json:"problem,omitempty"`

	// Writable: the file tools and commands may change its files (Settings ›
	// Knowledge); off, they may only read them.
	Writable bool `json:"writable"`
}

// New returns the service; it reads nothing until used.
func New(opts Options) *Service {
	opts.MaxFiles = cmp.Or(opts.MaxFiles, DefaultMaxFiles)
	opts.MaxBytes = cmp.Or(opts.MaxBytes, DefaultMaxBytes)
	opts.MaxWatches = cmp.Or(opts.MaxWatches, DefaultMaxWatches)
	opts.PollEvery = cmp.Or(opts.PollEvery, 30*time.Second)
	opts.Debounce = cmp.Or(opts.Debounce, 300*time.Millisecond)
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Service{opts: opts, log: cmp.Or(opts.Logger, slog.New(slog.DiscardHandler)), status: map[string]*Status{}}
}

// UseIndex makes x the index the folders go into (the memory service's, built
// for the current workspace); a watching process indexes them into it at once.
func (s *Service) UseIndex(x *recall.Index) {
	s.mu.Lock()
	changed := s.index != nil && s.index != x
	s.index = x
	w := s.watch
	s.mu.Unlock()
	if changed && w != nil {
		go w.refresh(w.ctx, "")
	}
}

// idx is the current index; none yet is an error said in the status.
func (s *Service) idx() (*recall.Index, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.index == nil {
		return nil, errors.New("no recall index yet")
	}
	return s.index, nil
}

// FolderID is a folder's stable id: a hash of its clean path.
func FolderID(path string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(path)))
	return hex.EncodeToString(sum[:5])
}

// Error is a refusal said to the person (Msg in the UI language).
type Error struct{ Msg i18n.Message }

func (e *Error) Error() string { return e.Msg.String() }

// UserMessage is the refusal as a catalog code and its arguments.
func (e *Error) UserMessage() i18n.Message { return e.Msg }

func refuse(code string, pairs ...string) error { return &Error{Msg: i18n.M(code, pairs...)} }

// Add lists the folder at path with mode ("always" or "ask") and indexes it:
// in the background when this process watches (the window), else before it
// returns (the command line).
func (s *Service) Add(ctx context.Context, path, mode string) (Status, error) {
	p, err := s.check(path)
	if err != nil {
		return Status{}, err
	}
	mode = cmp.Or(mode, config.KnowledgeAlways)
	if mode != config.KnowledgeAlways && mode != config.KnowledgeAsk {
		return Status{}, refuse("knowledge.badMode", "mode", mode)
	}
	err = s.opts.Settings.Update(func(c *config.Config) error {
		for _, f := range c.Knowledge.Folders {
			if filepath.Clean(f.Path) == p {
				return refuse("knowledge.listed", "path", p)
			}
		}
		c.Knowledge.Folders = append(c.Knowledge.Folders, config.KnowledgeFolder{Path: p, Mode: mode, Added: s.opts.Now().UTC().Format(time.RFC3339)})
		if probs := c.Validate(); len(probs) > 0 {
			return refuse("knowledge.invalid", "path", p, "why", probs[0].Msg)
		}
		return nil
	})
	if err != nil {
		return Status{}, err
	}
	id := FolderID(p)
	s.mu.Lock()
	w := s.watch
	s.mu.Unlock()
	if w != nil {
		w.follow()
		s.update(id, func(st *Status) { st.Updating = true })
		go w.refresh(w.ctx, id)
		return s.get(id), nil
	}
	err = s.Refresh(ctx, id)
	return s.get(id), err
}

// check refuses a path that cannot be a knowledge folder: not absolute, not a
// folder, the file system's root, or holding (or inside) Hearth's own data.
func (s *Service) check(path string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", refuse("knowledge.relative", "path", path)
	}
	p := filepath.Clean(path)
	fi, err := os.Stat(p)
	switch {
	case err != nil:
		return "", refuse("knowledge.missing", "path", p)
	case !fi.IsDir():
		return "", refuse("knowledge.notFolder", "path", p)
	case p == filepath.Dir(p):
		return "", refuse("knowledge.root", "path", p)
	}
	for _, d := range s.opts.Settings.Paths().HearthDirs() {
		if d != "" && (within(p, d) || within(d, p)) {
			return "", refuse("knowledge.hearthData", "path", p)
		}
	}
	return p, nil
}

func within(p, root string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// Remove takes the folder off the list and its files out of the index.
func (s *Service) Remove(ctx context.Context, path string) error {
	p := filepath.Clean(path)
	err := s.opts.Settings.Update(func(c *config.Config) error {
		n := len(c.Knowledge.Folders)
		c.Knowledge.Folders = slices.DeleteFunc(c.Knowledge.Folders, func(f config.KnowledgeFolder) bool { return filepath.Clean(f.Path) == p })
		if len(c.Knowledge.Folders) == n {
			return refuse("knowledge.notListed", "path", p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	id := FolderID(p)
	s.mu.Lock()
	delete(s.status, id)
	w := s.watch
	s.mu.Unlock()
	if w != nil {
		w.follow()
	}
	s.refreshing.Lock()
	defer s.refreshing.Unlock()
	x, err := s.idx()
	if err != nil {
		return err
	}
	return x.DropFolder(ctx, id)
}

// SetMode changes a listed folder's mode.
func (s *Service) SetMode(path, mode string) error {
	if mode != config.KnowledgeAlways && mode != config.KnowledgeAsk {
		return refuse("knowledge.badMode", "mode", mode)
	}
	return s.updateFolder(path, func(f *config.KnowledgeFolder) { f.Mode = mode })
}

// SetWritable lets the file tools and commands change a listed folder's files (on)
// or keeps them read-only (off, the default).
func (s *Service) SetWritable(path string, on bool) error {
	return s.updateFolder(path, func(f *config.KnowledgeFolder) { f.Writable = on })
}

// updateFolder changes the listed folder at path in the config with change; a folder
// not listed is refused.
func (s *Service) updateFolder(path string, change func(*config.KnowledgeFolder)) error {
	p := filepath.Clean(path)
	return s.opts.Settings.Update(func(c *config.Config) error {
		for i, f := range c.Knowledge.Folders {
			if filepath.Clean(f.Path) == p {
				change(&c.Knowledge.Folders[i])
				return nil
			}
		}
		return refuse("knowledge.notListed", "path", p)
	})
}

// List is every listed folder with its status, in the config's order.
func (s *Service) List() []Status {
	out := []Status{}
	for _, f := range s.opts.Settings.Config().Knowledge.Folders {
		out = append(out, s.get(FolderID(f.Path)))
	}
	return out
}

// get is folder id's status with its config (the caller need not hold s.mu).
func (s *Service) get(id string) Status {
	var st Status
	s.mu.Lock()
	if cur := s.status[id]; cur != nil {
		st = *cur
		st.Reasons = cloneMap(cur.Reasons)
	}
	if s.watch != nil {
		st.Watch = s.watch.mode(id)
	}
	s.mu.Unlock()
	for _, f := range s.opts.Settings.Config().Knowledge.Folders {
		if FolderID(f.Path) == id {
			st.ID, st.Path, st.Name, st.Mode, st.Added = id, filepath.Clean(f.Path), filepath.Base(filepath.Clean(f.Path)), f.Mode, f.Added
			st.Writable = f.Writable
		}
	}
	if st.Reasons == nil {
		st.Reasons = map[string]int{}
	}
	return st
}

func cloneMap(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Hidden reports whether source is a file of a folder the recall block leaves
// out (mode "ask"): the Recaller's Hide.
func (s *Service) Hidden(source string) bool { return HiddenIn(s.opts.Settings.Config())(source) }

// HiddenIn is Hidden for the folders of config c, their modes read once: the
// memory service's recall block takes it with each saved change.
func HiddenIn(c *config.Config) func(source string) bool {
	shown := map[string]bool{}
	for _, f := range c.Knowledge.Folders {
		shown[FolderID(f.Path)] = f.Mode != config.KnowledgeAsk
	}
	return func(source string) bool {
		id, ok := recall.KnowledgeFolderOf(source)
		return ok && !shown[id] // a folder no longer listed: its chunks are on their way out
	}
}

// Refresh walks folder id ("" every listed folder) and brings the index up to
// date: only files whose stat moved are read. A folder gone from disk keeps
// its place in the list with a problem, and its files leave the index.
func (s *Service) Refresh(ctx context.Context, id string) error {
	var errs []error
	for _, f := range s.opts.Settings.Config().Knowledge.Folders {
		fid := FolderID(f.Path)
		if id != "" && fid != id {
			continue
		}
		errs = append(errs, s.refresh(ctx, fid, filepath.Clean(f.Path)))
	}
	return errors.Join(errs...)
}

func (s *Service) refresh(ctx context.Context, id, root string) error {
	s.refreshing.Lock()
	defer s.refreshing.Unlock()
	s.update(id, func(st *Status) { st.Updating = true })
	l, werr := walk(root, s.opts.MaxFiles, s.opts.MaxBytes)
	var problem *i18n.Message
	if werr != nil {
		m := i18n.M("knowledge.problem.missing", "path", root)
		if !errors.Is(werr, os.ErrNotExist) {
			m = i18n.M("knowledge.problem.unreadable", "path", root, "err", werr.Error())
		}
		problem, l.files = &m, nil
	}
	x, err := s.idx()
	if err != nil {
		return err
	}
	rep, err := x.SyncFolder(ctx, recall.Folder{ID: id, Root: root, Name: filepath.Base(root), MaxBytes: s.opts.MaxBytes}, l.files)
	for rel, ferr := range rep.Failed {
		s.log.Info("knowledge file not indexed", "folder", root, "file", rel, "err", ferr)
		switch {
		case errors.Is(ferr, extract.ErrTooBig):
			l.skipped[SkipTooBig]++
		default:
			l.skipped[SkipUnread]++
		}
	}
	if err != nil && problem == nil {
		m := i18n.M("knowledge.problem.index", "err", err.Error())
		problem = &m
	}
	now := s.opts.Now().UTC().Format(time.RFC3339)
	s.update(id, func(st *Status) {
		st.Updating, st.Files, st.Reasons, st.Problem, st.Indexed = false, rep.Files, l.skipped, problem, now
		st.Skipped = 0
		for _, n := range l.skipped {
			st.Skipped += n
		}
		if rep.Changed+rep.Removed > 0 {
			st.LastChange = now
		}
	})
	s.mu.Lock()
	w := s.watch
	s.mu.Unlock()
	if w != nil && problem == nil {
		w.dirs(id, l.dirs)
	}
	if err != nil {
		return fmt.Errorf("index knowledge folder %s: %w", root, err)
	}
	return nil
}

// update changes folder id's status and tells the window.
func (s *Service) update(id string, fn func(*Status)) {
	s.mu.Lock()
	st := s.status[id]
	if st == nil {
		st = &Status{ID: id}
		s.status[id] = st
	}
	fn(st)
	s.mu.Unlock()
	if s.opts.Changed != nil {
		s.opts.Changed()
	}
}
