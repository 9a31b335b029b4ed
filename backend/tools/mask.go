package tools

import (
	"cmp"
	"slices"
	"strings"
)

// Redacted replaces every secret value in tool output.
const Redacted = "[redacted]"

// minSecretLen keeps trivially short values (a stray "1" in a config) from
// turning every result into a field of [redacted].
const minSecretLen = 4

// Masker replaces known secret values (API keys, tokens) in text. A nil *Masker
// masks nothing. It is immutable and safe for concurrent use.
type Masker struct {
	r    *strings.Replacer
	list []string // longest first
}

// NewMasker builds a Masker for the given secret values; empty and very short
// values are ignored. Longer secrets are replaced first, so a key that contains
// another is redacted whole.
func NewMasker(secrets ...string) *Masker {
	var list []string
	for _, s := range secrets {
		if s = strings.TrimSpace(s); len(s) >= minSecretLen {
			list = append(list, s)
		}
	}
	if len(list) == 0 {
		return nil
	}
	// Longest first, and equal values side by side for Compact.
	slices.SortFunc(list, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	list = slices.Compact(list)
	pairs := make([]string, 0, 2*len(list))
	for _, s := range list {
		pairs = append(pairs, s, Redacted)
	}
	return &Masker{r: strings.NewReplacer(pairs...), list: list}
}

// Pending is how many bytes at the end of s may be the start of a secret: a
// stream (the model's reply, token by token) holds them back until the next piece
// shows whether they are one, so no key is ever shown split across two pieces.
func (m *Masker) Pending(s string) int {
	if m == nil || len(m.list) == 0 {
		return 0
	}
	for n := min(len(s), len(m.list[0])-1); n > 0; n-- {
		tail := s[len(s)-n:]
		for _, sec := range m.list {
			if len(sec) > n && strings.HasPrefix(sec, tail) {
				return n
			}
		}
	}
	return 0
}

// Mask returns s with every secret replaced by [redacted].
func (m *Masker) Mask(s string) string {
	if m == nil || s == "" {
		return s
	}
	return m.r.Replace(s)
}

// MaskResult masks a Result's content and metadata values.
func (m *Masker) MaskResult(r Result) Result {
	if m == nil {
		return r
	}
	r.Content = m.Mask(r.Content)
	r.Meta, r.Why.Args = m.maskValues(r.Meta), m.maskValues(r.Why.Args)
	return r
}

// maskValues is a copy of kv with its values masked; nil stays nil.
func (m *Masker) maskValues(kv map[string]string) map[string]string {
	if len(kv) == 0 {
		return kv
	}
	out := make(map[string]string, len(kv))
	for k, v := range kv {
		out[k] = m.Mask(v)
	}
	return out
}
