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
	// Evidence is what the user's own chats showed, by model key (evidence.go).
	Evidence map[string]Evidence `json:"evidence,omitempty"`
	// Anyway holds the models the user chose "Offer tools anyway" for, by key.
	Anyway map[string]Override `json:"toolsAnyway,omitempty"`
}

// Store keeps results by model name in one small JSON file. It is a cache: a file
// that cannot be read counts as empty (every model is checked again) and is
// replaced on the next write. The desktop app and `hearth models check` may both
// write it; each write replaces the file whole (atomicfile).
type Store struct {
	path string

	mu      sync.Mutex
	cache   *file
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
	f, _ := s.loadLocked()
	r, ok := f.Models[key]
	return r, ok
}

// Put records r under key.
func (s *Store) Put(key string, r Result) error {
	return s.update(func(f *file) { f.Models[key] = r })
}

// update changes a copy of the file as read now (another process may have added a
// model) and writes it whole.
func (s *Store) update(change func(*file)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	old, _ := s.loadLocked()
	next := file{Models: maps.Clone(old.Models), Evidence: maps.Clone(old.Evidence), Anyway: maps.Clone(old.Anyway)}
	if next.Models == nil {
		next.Models = map[string]Result{}
	}
	if next.Evidence == nil {
		next.Evidence = map[string]Evidence{}
	}
	if next.Anyway == nil {
		next.Anyway = map[string]Override{}
	}
	change(&next)
	if err := atomicfile.WriteJSON(s.path, next); err != nil {
		return fmt.Errorf("save model check to %s: %w (hint: check the permissions of that folder)", s.path, err)
	}
	s.cache, s.modTime, s.size = nil, time.Time{}, 0
	return nil
}

// loadLocked reads the file when it changed since the last read; the caller holds
// s.mu. A run asks on every start, so an unchanged file costs one stat.
func (s *Store) loadLocked() (*file, error) {
	fi, err := os.Stat(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		s.cache = &file{}
		return s.cache, nil
	}
	if err != nil {
		return &file{}, err
	}
	if s.cache != nil && fi.ModTime().Equal(s.modTime) && fi.Size() == s.size {
		return s.cache, nil
	}
	data, err := safefile.ReadFile(s.path, maxFileBytes)
	if err != nil {
		return &file{}, err
	}
	f, err := parse(data)
	if err != nil {
		f = &file{}
	}
	s.cache, s.modTime, s.size = f, fi.ModTime(), fi.Size()
	return f, err
}

// parse reads the file's JSON; entries without a model, call style or digest are
// dropped.
func parse(data []byte) (*file, error) {
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("read model checks: %w", err)
	}
	out := &file{Models: make(map[string]Result, len(f.Models))}
	for k, r := range f.Models {
		switch r.ToolCalls {
		case CallsStructured, CallsText, CallsNone, CallsUnknown:
		default:
			continue
		}
		if k != "" {
			out.Models[k] = r
		}
	}
	for k, e := range f.Evidence {
		if k != "" && e.Tool != "" {
			if out.Evidence == nil {
				out.Evidence = map[string]Evidence{}
			}
			out.Evidence[k] = e
		}
	}
	for k, o := range f.Anyway {
		if k != "" {
			if out.Anyway == nil {
				out.Anyway = map[string]Override{}
			}
			out.Anyway[k] = o
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
