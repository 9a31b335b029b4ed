package fitness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"strings"
	"sync"
	"time"

	"hearth/backend/internal/atomicfile"
	"hearth/backend/internal/safefile"
)

// FileName is the store's file under Hearth's state directory.
const FileName = "model-checks.json"

// maxFileBytes bounds the file: one short result per model checked. A pipe or a
// huge file in its place is refused at once.
const maxFileBytes = 4 << 20

// file is the JSON on disk.
type file struct {
	Models map[string]Result `json:"models"`
}

// Store keeps results by model name in one small JSON file. It is a cache: a file
// that cannot be read counts as empty (every model is checked again) and is
// replaced on the next write. The desktop app and `hearth models check` may both
// write it; each write replaces the file whole (atomicfile).
type Store struct {
	path string

	mu      sync.Mutex
	cache   map[string]Result
	modTime time.Time
	size    int64
}

// NewStore returns a store backed by path (created on first Put).
func NewStore(path string) *Store { return &Store{path: path} }

// Get returns the result for key when it is current: taken with this probe set
// and, when digest is known, of the same model files.
func (s *Store) Get(key, digest string) (Result, bool) {
	r, ok := s.Lookup(key)
	if !ok || r.Version != Version || (digest != "" && r.Digest != digest) {
		return Result{}, false
	}
	return r, true
}

// Lookup returns whatever result the store has for key, current or not.
func (s *Store) Lookup(key string) (Result, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, _ := s.loadLocked()
	r, ok := m[key]
	return r, ok
}

// Put records r under key.
func (s *Store) Put(key string, r Result) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, _ := s.loadLocked() // re-read: another process may have added a model
	next := make(map[string]Result, len(m)+1)
	maps.Copy(next, m)
	next[key] = r
	if err := atomicfile.WriteJSON(s.path, file{Models: next}); err != nil {
		return fmt.Errorf("save model check to %s: %w (hint: check the permissions of that folder)", s.path, err)
	}
	s.cache, s.modTime, s.size = nil, time.Time{}, 0
	return nil
}

// loadLocked reads the file when it changed since the last read; the caller holds
// s.mu. A run asks on every start, so an unchanged file costs one stat.
func (s *Store) loadLocked() (map[string]Result, error) {
	fi, err := os.Stat(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		s.cache = map[string]Result{}
		return s.cache, nil
	}
	if err != nil {
		return map[string]Result{}, err
	}
	if s.cache != nil && fi.ModTime().Equal(s.modTime) && fi.Size() == s.size {
		return s.cache, nil
	}
	data, err := safefile.ReadFile(s.path, maxFileBytes)
	if err != nil {
		return map[string]Result{}, err
	}
	m, err := parse(data)
	if err != nil {
		m = map[string]Result{}
	}
	s.cache, s.modTime, s.size = m, fi.ModTime(), fi.Size()
	return m, err
}

// parse reads the file's JSON; entries without a model or call style are dropped.
func parse(data []byte) (map[string]Result, error) {
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("read model checks: %w", err)
	}
	out := make(map[string]Result, len(f.Models))
	for k, r := range f.Models {
		switch r.ToolCalls {
		case CallsStructured, CallsText, CallsNone:
		default:
			continue
		}
		if k != "" {
			out[k] = r
		}
	}
	return out, nil
}

// Key is the store's name for a model: "<provider>/<model>", with Ollama's
// implicit ":latest" tag written out so "llama3.2" and "llama3.2:latest" share
// one result.
func Key(provider, model string) string {
	if provider == "ollama" {
		last := model[strings.LastIndex(model, "/")+1:]
		if !strings.Contains(last, ":") {
			model += ":latest"
		}
	}
	return provider + "/" + model
}
