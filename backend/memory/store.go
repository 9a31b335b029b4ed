package memory

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"hearth/backend/event"
	textclip "hearth/backend/internal/clip"

	"hearth/backend/internal/confined"
	"hearth/backend/internal/flock"
)

// The memory files, relative to the workspace (docs/design/memory.md#memory-files).
const (
	MemoryFile  = "memory/MEMORY.md"
	HistoryFile = "memory/HISTORY.md"
)

// File kinds of FileInfo.Kind.
const (
	KindMemory  = "memory"
	KindHistory = "history"
	KindDaily   = "daily"
	KindPersona = "persona"
	KindSkill   = "skill"
)

// personaFiles are the workspace files the sidebar edits besides memory.
func personaFiles() []string {
	return []string{"AGENTS.md", "SOUL.md", "USER.md", "TOOLS.md", "IDENTITY.md", "HEARTBEAT.md"}
}

var dailyRe = regexp.MustCompile(`^memory/\d{4}-\d{2}-\d{2}\.md$`)

// FileInfo describes one memory or persona file for the sidebar.
type FileInfo struct {
	// Name is what the sidebar shows ("MEMORY.md", "2026-11-23", "skills/git").
	Name string `json:"name"`
	// Path is relative to the workspace, slash-separated; it names the file
	// in Read and Save.
	Path    string    `json:"path"`
	Kind    string    `json:"kind"`
	Size    int64     `json:"size"`
	ModTime time.Time `json:"modTime"`
	Hash    string    `json:"hash"`
}

// File is one file's content and the hash a later Save must quote.
type File struct {
	Path    string    `json:"path"`
	Content string    `json:"content"`
	Hash    string    `json:"hash"`
	ModTime time.Time `json:"modTime"`
	// Exists is false for a file not written yet (content "", hash "").
	Exists bool `json:"exists"`
}

// SaveResult is the outcome of a compare-and-swap Save: either Saved with the
// new Hash, or a Conflict carrying both versions (nothing was written).
type SaveResult struct {
	Saved bool `json:"saved"`
	// Proposed is set when the change waits in the memory inbox instead (inbox.go).
	Proposed bool      `json:"proposed,omitempty"`
	Hash     string    `json:"hash"`
	Conflict *Conflict `json:"conflict,omitempty"`
}

// Conflict is a save refused because the file changed since it was read:
// Mine is the text the caller tried to save, Theirs what the file holds now.
type Conflict struct {
	Mine       string `json:"mine"`
	Theirs     string `json:"theirs"`
	TheirsHash string `json:"theirsHash"`
}

// Hash is the content hash the compare-and-swap uses; "" for a missing file.
func Hash(content []byte) string {
	sum := sha256.Sum256(content)
	return hex.EncodeToString(sum[:])
}

// ErrNotMemoryFile is returned for a name that is not a memory or persona file.
var ErrNotMemoryFile = errors.New("not a memory or persona file")

// Store reads and writes the memory and persona files of one workspace.
// Every write is atomic (temp file + rename, mode kept) and runs under an
// advisory lock shared with other Hearth processes.
type Store struct {
	ws  string
	now func() time.Time

	// state is the workspace's state folder in Hearth's data folder (the
	// history, the inbox, the lock); prepare runs once before its first use.
	state    string
	prepare  func()
	prepared sync.Once

	mu       sync.Mutex // serialises writers of this process
	subsMu   sync.Mutex
	news     *event.Broker[event.MemoryChanged] // hears every change; nil tells no one
	written  map[string]string                  // name → hash of this store's last write (the watcher skips its echo)
	recorder Recorder                           // the history of versions (versions.go); nil records nothing
	watchers sync.WaitGroup                     // running watch loops (Watch)
	review   reviewGate                         // the memory inbox's (inbox.go); nil holds nothing
	pending  map[string][]Origin                // files the agent's file tools are writing (versions.go)
}

// NewStore returns the store of workspace ws; now may be nil (time.Now).
func NewStore(ws string, now func() time.Time) *Store {
	if now == nil {
		now = time.Now
	}
	return &Store{ws: ws, now: now}
}

// Workspace is the store's workspace folder.
func (s *Store) Workspace() string { return s.ws }

// wrote records this store's own write, reported at once; the watcher
// then skips the event of the same content.
func (s *Store) wrote(name, hash string) {
	s.subsMu.Lock()
	if s.written == nil {
		s.written = map[string]string{}
	}
	s.written[name] = hash
	s.subsMu.Unlock()
	s.notify(name)
}

// ownEcho reports whether a watched change is this store's own last write.
func (s *Store) ownEcho(name string) bool {
	f, err := s.read(name)
	if err != nil || !f.Exists {
		return false
	}
	b := []byte(f.Content)
	s.subsMu.Lock()
	defer s.subsMu.Unlock()
	return s.written[name] == Hash(b)
}

// notify publishes a change of name (after every write by this store and, with
// Watch, after hand edits) on the news broker the service gave it.
func (s *Store) notify(name string) {
	if s.news != nil {
		s.news.Publish(event.MemoryChanged{File: name})
	}
}

// CheckName cleans a relative name and checks it is a file the memory API
// may touch: memory/*.md, the persona files, skills/<name>/SKILL.md.
func CheckName(name string) (string, error) {
	n := path.Clean(strings.TrimPrefix(filepath.ToSlash(strings.TrimSpace(name)), "./"))
	// FileInfo.Name works too: "MEMORY.md", "2026-11-23", "skills/git".
	switch {
	case n == "MEMORY.md" || n == "HISTORY.md":
		n = "memory/" + n
	case dailyRe.MatchString("memory/" + n):
		n = "memory/" + n
	case dailyRe.MatchString("memory/" + n + ".md"):
		n = "memory/" + n + ".md"
	case strings.HasPrefix(n, "skills/") && strings.Count(n, "/") == 1:
		n += "/SKILL.md"
	}
	ok := n == MemoryFile || n == HistoryFile || dailyRe.MatchString(n)
	for _, p := range personaFiles() {
		ok = ok || n == p
	}
	if parts := strings.Split(n, "/"); len(parts) == 3 && parts[0] == "skills" && parts[2] == "SKILL.md" && parts[1] != ".." && parts[1] != "." {
		ok = true
	}
	if !ok {
		return "", fmt.Errorf("%q: %w (hint: use memory/MEMORY.md, memory/HISTORY.md, memory/YYYY-MM-DD.md, a persona file such as SOUL.md, or skills/<name>/SKILL.md)", name, ErrNotMemoryFile)
	}
	return n, nil
}

func kindOf(n string) (kind, display string) {
	switch {
	case n == MemoryFile:
		return KindMemory, "MEMORY.md"
	case n == HistoryFile:
		return KindHistory, "HISTORY.md"
	case dailyRe.MatchString(n):
		return KindDaily, strings.TrimSuffix(path.Base(n), ".md")
	case strings.HasPrefix(n, "skills/"):
		return KindSkill, path.Dir(n)
	}
	return KindPersona, n
}

// List returns the memory and persona files that exist: MEMORY.md,
// HISTORY.md, daily notes (newest first), persona files, skills.
func (s *Store) List() ([]FileInfo, error) {
	r, err := s.root(false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list memory files: %w", err)
	}
	defer r.Close()
	var names []string
	names = append(names, MemoryFile, HistoryFile)
	ents, err := r.ReadDir("memory")
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("list memory files: %w", err)
	}
	var daily []string
	for _, e := range ents {
		if n := "memory/" + e.Name(); dailyRe.MatchString(n) && !e.IsDir() {
			daily = append(daily, n)
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(daily)))
	names = append(names, daily...)
	names = append(names, personaFiles()...)
	skills, _ := r.ReadDir("skills") // sorted by name
	for _, e := range skills {
		if e.IsDir() {
			names = append(names, "skills/"+e.Name()+"/SKILL.md")
		}
	}
	out := make([]FileInfo, 0, len(names))
	for _, n := range names {
		b, fi, err := readIn(r, n)
		// A file that leads outside is left out of the list (the prompt's
		// notice and Read say why) rather than hiding every other file.
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, confined.ErrOutside) || errors.Is(err, confined.ErrSpecial) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("list memory files: %w", err)
		}
		kind, display := kindOf(n)
		out = append(out, FileInfo{Name: display, Path: n, Kind: kind, Size: fi.Size(), ModTime: fi.ModTime(), Hash: Hash(b)})
	}
	return out, nil
}

// Read returns a file's content and hash; a missing file is returned empty
// with Exists false (so the sidebar can create it).
func (s *Store) Read(name string) (File, error) {
	n, err := CheckName(name)
	if err != nil {
		return File{}, err
	}
	return s.read(n)
}

func (s *Store) read(n string) (File, error) {
	r, err := s.root(false)
	if errors.Is(err, fs.ErrNotExist) {
		return File{Path: n}, nil
	}
	if err != nil {
		return File{}, fmt.Errorf("read %s: %w", n, err)
	}
	defer r.Close()
	b, fi, err := readIn(r, n)
	if errors.Is(err, fs.ErrNotExist) {
		return File{Path: n}, nil
	}
	if err != nil {
		return File{}, fmt.Errorf("read %s: %w", n, err)
	}
	return File{Path: n, Content: string(b), Hash: Hash(b), Exists: true, ModTime: fi.ModTime()}, nil
}

// root opens the workspace confined (internal/confined): a memory or
// persona file that is a symlink out of the workspace, or a hard link, is
// an error instead of another file's content — MEMORY.md pointed at
// config.json must not carry keys into the prompt — and a memory/ folder
// swapped for a symlink out is refused instead of written through.
func (s *Store) root(create bool) (*confined.Root, error) {
	if create {
		if err := os.MkdirAll(s.ws, 0o700); err != nil {
			return nil, err
		}
	}
	return confined.Open(s.ws, confined.Options{})
}

// readIn reads one file and its info through an open root.
func readIn(r *confined.Root, n string) ([]byte, fs.FileInfo, error) {
	f, fi, err := r.Open(n)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if fi.IsDir() {
		return nil, nil, fmt.Errorf("%s is a folder, not a file", n)
	}
	b, err := io.ReadAll(f)
	return b, fi, err
}

// Save writes content if the file still has expectedHash ("" for a file
// that did not exist). Otherwise nothing is written and the result carries
// both versions. Saving what the file already holds always succeeds.
func (s *Store) Save(name, content, expectedHash string) (SaveResult, error) {
	return s.SaveAs(name, content, expectedHash, OriginEditor)
}

// SaveAs is Save by o: the history of versions says who changed the file and why.
func (s *Store) SaveAs(name, content, expectedHash string, o Origin) (SaveResult, error) {
	n, err := CheckName(name)
	if err != nil {
		return SaveResult{}, err
	}
	return s.update(n, o, func(cur File) (string, *Conflict) {
		if cur.Hash != expectedHash && cur.Content != content {
			return "", &Conflict{Mine: content, Theirs: cur.Content, TheirsHash: cur.Hash}
		}
		return content, nil
	})
}

// update reads n under the lock, asks change for the new text (or a
// conflict), writes it atomically and records the new version as o's.
func (s *Store) update(n string, o Origin, change func(cur File) (string, *Conflict)) (SaveResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock, err := s.lockFile()
	if err != nil {
		return SaveResult{}, err
	}
	defer unlock()
	cur, err := s.read(n)
	if err != nil {
		return SaveResult{}, err
	}
	next, conflict := change(cur)
	if conflict != nil {
		return SaveResult{Conflict: conflict}, nil
	}
	h := Hash([]byte(next))
	if cur.Exists && h == cur.Hash {
		return SaveResult{Saved: true, Hash: h}, nil
	}
	if held, err := s.held(n, cur, next, o); err != nil || held {
		return SaveResult{Proposed: held, Hash: cur.Hash}, err
	}
	if err := s.write(n, []byte(next)); err != nil {
		return SaveResult{}, fmt.Errorf("save %s: %w", n, err)
	}
	s.wrote(n, h)
	s.record(n, []byte(next), o) // still under the lock: the history keeps the writes' order
	return SaveResult{Saved: true, Hash: h}, nil
}

// useState makes dir the workspace's state folder; prepare (may be nil) runs
// once before the folder is first used: the move of an old .hearth folder.
func (s *Store) useState(dir string, prepare func()) {
	s.state, s.prepare = dir, prepare
}

// StateDir is the workspace's state folder in Hearth's data folder, out of
// reach of commands: the history of versions, the memory inbox, Dream's state
// and the memory lock live there (docs/memory.md#where-hearth-keeps-its-state).
// "" for a store without one (tests): it keeps no history and locks only
// within the process.
func (s *Store) StateDir() string {
	s.prepared.Do(func() {
		if s.prepare != nil && s.state != "" {
			s.prepare()
		}
	})
	return s.state
}

// lockFile takes the workspace's memory lock (memory.lock in the state folder),
// shared with the other Hearth processes.
func (s *Store) lockFile() (func(), error) {
	dir := s.StateDir()
	if dir == "" {
		return func() {}, nil // s.mu alone: no other process shares a store without a state folder
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("memory lock: %w", err)
	}
	release, err := flock.File(filepath.Join(dir, "memory.lock"))
	if err != nil {
		return nil, fmt.Errorf("memory lock: %w", err)
	}
	return release, nil
}

// write replaces the workspace file n (a new one is 0600), confined to the
// workspace; missing folders are created 0700.
func (s *Store) write(n string, b []byte) error {
	r, err := s.root(true)
	if err != nil {
		return err
	}
	defer r.Close()
	_, err = r.WriteFile(n, b, 0o600, confined.WriteOptions{DirMode: 0o700})
	return err
}

// EntryTime is the stamp format of HISTORY.md entries.
const EntryTime = "2006-01-02 15:04"

var stampRe = regexp.MustCompile(`^\[(\d{4}-\d{2}-\d{2} \d{2}:\d{2})\]`)

// AppendHistoryAs appends one entry to HISTORY.md by o, stamped "[YYYY-MM-DD HH:MM]"
// with at (a stamp the text already starts with is kept).
func (s *Store) AppendHistoryAs(entry string, at time.Time, o Origin) error {
	entry = strings.TrimSpace(entry)
	if entry == "" {
		return errors.New("append history: empty entry")
	}
	if !stampRe.MatchString(entry) {
		entry = "[" + at.Format(EntryTime) + "] " + entry
	}
	_, err := s.update(HistoryFile, o, func(cur File) (string, *Conflict) {
		return joinBlock(cur.Content, entry), nil
	})
	return err
}

// Remember appends a fact to MEMORY.md as a list item (the agent's remember tool).
func (s *Store) Remember(text string) (SaveResult, error) {
	return s.RememberAs(text, Origin{Author: AuthorAgent, Reason: "remember: " + textclip.Squash(text, 72)})
}

// RememberAs is Remember by o.
func (s *Store) RememberAs(text string, o Origin) (SaveResult, error) {
	text = strings.Join(strings.Fields(text), " ")
	if text == "" {
		return SaveResult{}, errors.New("remember: nothing to remember (hint: give the fact as text)")
	}
	return s.update(MemoryFile, o, func(cur File) (string, *Conflict) {
		c := strings.TrimRight(cur.Content, "\n")
		if c == "" {
			return "- " + text + "\n", nil
		}
		return c + "\n- " + text + "\n", nil
	})
}

// joinBlock appends a paragraph to text with one blank line between.
func joinBlock(text, block string) string {
	t := strings.TrimRight(text, "\n")
	if t == "" {
		return block + "\n"
	}
	return t + "\n\n" + block + "\n"
}
