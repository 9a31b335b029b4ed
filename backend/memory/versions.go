package memory

import (
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"hearth/backend/i18n"
	"hearth/backend/memrepo"
)

// Origin says who changed a memory file and why; it becomes the author and the
// message of the change's commit in the history of versions.
type Origin struct {
	Author string
	Reason string
	// Approved is a change the user approved in the memory inbox: it is not held again.
	Approved bool
}

// The authors of the history (docs/memory.md lists them).
const (
	AuthorAgent         = "agent"
	AuthorUser          = "you"
	AuthorConsolidation = "consolidation"
	AuthorDream         = "Dream"
	AuthorOutside       = "outside Hearth"
	AuthorHearth        = "Hearth"
)

// OriginEditor is a save from the sidebar's editor.
var OriginEditor = Origin{Author: AuthorUser, Reason: "edited in the memory sidebar"}

// OriginConsolidation is a consolidation of the chat sessionID ("" for one not named).
func OriginConsolidation(sessionID string) Origin {
	if sessionID == "" {
		return Origin{Author: AuthorConsolidation, Reason: "consolidated older chat messages"}
	}
	return Origin{Author: AuthorConsolidation, Reason: "consolidated older messages of chat " + sessionID}
}

// Recorder is told every version a store writes: the file, its new content and who
// wrote it. It runs under the store's lock, so versions arrive in the order written.
type Recorder func(name string, content []byte, o Origin)

// SetRecorder makes rec hear every version this store writes, and every change the
// watcher sees made outside Hearth.
func (s *Store) SetRecorder(rec Recorder) {
	s.subsMu.Lock()
	s.recorder = rec
	s.subsMu.Unlock()
}

func (s *Store) record(name string, content []byte, o Origin) {
	s.subsMu.Lock()
	rec := s.recorder
	s.subsMu.Unlock()
	if rec != nil && Versioned(name) {
		rec(name, content, o)
	}
}

// agentWriting says the agent's own file tool is about to write name as o: until
// agentWrote, a change the watcher sees in it is the agent's, not another
// program's (the tools write around the store).
func (s *Store) agentWriting(name string, o Origin) {
	s.subsMu.Lock()
	defer s.subsMu.Unlock()
	if s.pending == nil {
		s.pending = map[string][]Origin{}
	}
	s.pending[name] = append(s.pending[name], o)
}

// agentWrote ends agentWriting; when the tool succeeded the file's content is
// committed as o's at once.
func (s *Store) agentWrote(name string, o Origin, ok bool) {
	if ok {
		s.recordAs(name, o)
	}
	s.subsMu.Lock()
	defer s.subsMu.Unlock()
	if list := s.pending[name]; len(list) > 0 {
		for i, p := range list {
			if p == o {
				s.pending[name] = append(list[:i:i], list[i+1:]...)
				break
			}
		}
		if len(s.pending[name]) == 0 {
			delete(s.pending, name)
		}
	}
}

// recordOutside records the current content of a file another program changed
// (or deleted: nil content) — or the agent's file tool, while one writes it.
func (s *Store) recordOutside(name string) {
	o := Origin{Author: AuthorOutside, Reason: "changed outside Hearth: " + name}
	s.subsMu.Lock()
	if list := s.pending[name]; len(list) > 0 {
		o = list[len(list)-1]
	}
	s.subsMu.Unlock()
	s.recordAs(name, o)
}

// recordAs commits the current content of name as o's.
func (s *Store) recordAs(name string, o Origin) {
	if !Versioned(name) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock, err := s.lockFile()
	if err != nil {
		return
	}
	defer unlock()
	f, err := s.read(name)
	if err != nil {
		return
	}
	var content []byte
	if f.Exists {
		content = []byte(f.Content)
	}
	s.record(name, content, o)
}

// put replaces a file whatever it holds now (a restore).
func (s *Store) put(name, content string, o Origin) (SaveResult, error) {
	n, err := CheckName(name)
	if err != nil {
		return SaveResult{}, err
	}
	return s.update(n, o, func(File) (string, *Conflict) { return content, nil })
}

// Versioned reports whether the history of versions keeps name (a clean name as
// CheckName returns): MEMORY.md, HISTORY.md, the daily notes and the persona files.
// Skills are not versioned: they are programs the user installs, not memory.
func Versioned(name string) bool {
	if name == MemoryFile || name == HistoryFile || dailyRe.MatchString(name) {
		return true
	}
	return slices.Contains(personaFiles(), name)
}

// HistoryDir is where a workspace's history of versions is kept: a bare git
// repository in its state folder (Store.StateDir), out of the workspace, where
// no command can plant anything; "" without a state folder.
func HistoryDir(stateDir string) string {
	if stateDir == "" {
		return ""
	}
	return filepath.Join(stateDir, "memory.git")
}

// versions connects a store to its history repository.
type versions struct {
	store *Store
	repo  *memrepo.Repo
	now   func() time.Time
	log   *slog.Logger
	mu    sync.Mutex // one sync at a time (the watcher and a command may race)
}

func newVersions(st *Store) *versions {
	v := &versions{store: st, repo: memrepo.New(HistoryDir(st.state), nil), now: time.Now, log: slog.Default()}
	st.SetRecorder(v.record)
	return v
}

func (v *versions) record(name string, content []byte, o Origin) {
	_, err := v.repo.Commit(memrepo.Change{Files: map[string][]byte{name: content}, Author: o.Author,
		Message: cleanReason(o.Reason, name), When: v.now()})
	if err != nil {
		// The file is saved: it stays the truth, and the next sync commits it.
		v.log.Warn("memory change not recorded in the history", "file", name, "err", err)
	}
}

// sync commits what changed while Hearth was not looking; the first commit of a
// history is onboarding's.
func (v *versions) sync() (string, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	var rev string
	// Under the store's lock: a write between reading a file and committing it
	// would otherwise be overtaken in the history by the older text.
	err := v.store.locked(func() error {
		same, stats, newest := v.unchangedSince()
		if same {
			return nil
		}
		r, err := v.commitCurrent()
		rev = r
		if err == nil {
			v.remember(stats, newest)
		}
		return err
	})
	return rev, err
}

// commitCurrent commits the files as they are; the caller holds the store's locks.
func (v *versions) commitCurrent() (string, error) {
	files, err := v.store.List()
	if err != nil {
		return "", err
	}
	current := map[string][]byte{}
	for _, f := range files {
		if !Versioned(f.Path) {
			continue
		}
		c, err := v.store.read(f.Path)
		if err != nil {
			return "", err
		}
		if c.Exists {
			current[f.Path] = []byte(c.Content)
		}
	}
	log, err := v.repo.Log("", 1)
	if err != nil {
		return "", err
	}
	author, msg := AuthorOutside, "changed while Hearth was not watching"
	if len(log) == 0 {
		author, msg = AuthorHearth, "onboarding: the first version of the memory and persona files"
	}
	return v.repo.Sync(current, author, msg)
}

// cleanReason is a commit message: the reason, or a plain one naming the file.
func cleanReason(reason, name string) string {
	if r := strings.TrimSpace(reason); r != "" {
		return r
	}
	return "changed " + name
}

// fileName cleans a file argument ("MEMORY.md", "memory/HISTORY.md", "SOUL.md",
// "2026-11-23") to a versioned file's path; "" stays "".
func fileName(name string) (string, error) {
	if strings.TrimSpace(name) == "" {
		return "", nil
	}
	n, err := CheckName(name)
	if err != nil {
		return "", err
	}
	if !Versioned(n) {
		return "", &Error{Msg: i18n.M("memory.history.notVersioned", "file", n)}
	}
	return n, nil
}

// reviewGate holds a change for review; it reports whether it did.
type reviewGate func(name string, cur File, next string, o Origin) (bool, error)

func (s *Store) setReview(g reviewGate) {
	s.subsMu.Lock()
	s.review = g
	s.subsMu.Unlock()
}

func (s *Store) held(name string, cur File, next string, o Origin) (bool, error) {
	s.subsMu.Lock()
	g := s.review
	s.subsMu.Unlock()
	if g == nil || o.Approved {
		return false, nil
	}
	return g(name, cur, next, o)
}

// waitWatch waits until stopped watchers have finished (their last commits included).
func (s *Store) waitWatch() { s.watchers.Wait() }

// locked runs fn under the store's locks, as a write does.
func (s *Store) locked(fn func() error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock, err := s.lockFile()
	if err != nil {
		return err
	}
	defer unlock()
	return fn()
}
