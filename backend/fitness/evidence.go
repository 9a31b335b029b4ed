package fitness

import (
	"time"
)

// Evidence is what a user's chat showed about a model: it made a valid structured
// tool call. A later probe that sees no call does not demote a model with evidence
// for the same digest: the probes are a guess, the chat was the real thing.
type Evidence struct {
	Digest string    `json:"digest,omitempty"`
	Tool   string    `json:"tool"` // the tool it called
	At     time.Time `json:"at"`
}

// Override is the user's "Offer tools anyway" for a model's digest.
type Override struct {
	Digest string    `json:"digest,omitempty"`
	At     time.Time `json:"at"`
}

// matches reports whether a record made for digest d still holds for digest now
// (either unknown counts: a provider without digests names no version).
func matches(d, now string) bool { return d == "" || now == "" || d == now }

// RecordCall keeps the evidence that the model under key made a structured call of
// tool; only the first call per digest is written, so a chat's calls cost one write.
func (s *Store) RecordCall(key, digest, tool string, at time.Time) error {
	if e, ok := s.EvidenceFor(key, digest); ok && e.Digest == digest {
		return nil
	}
	return s.update(func(f *file) { f.Evidence[key] = Evidence{Digest: digest, Tool: tool, At: at} })
}

// EvidenceFor returns the chat evidence for key when it holds for digest.
func (s *Store) EvidenceFor(key, digest string) (Evidence, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, _ := s.loadLocked()
	e, ok := f.Evidence[key]
	if !ok || !matches(e.Digest, digest) {
		return Evidence{}, false
	}
	return e, true
}

// SetToolsAnyway records (on) or withdraws the user's "Offer tools anyway" for key at
// digest.
func (s *Store) SetToolsAnyway(key, digest string, on bool, at time.Time) error {
	return s.update(func(f *file) {
		if on {
			f.Anyway[key] = Override{Digest: digest, At: at}
		} else {
			delete(f.Anyway, key)
		}
	})
}

// ToolsAnyway reports whether the user chose to offer tools to key at digest.
func (s *Store) ToolsAnyway(key, digest string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, _ := s.loadLocked()
	o, ok := f.Anyway[key]
	return ok && matches(o.Digest, digest)
}
