package recall

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The keyword side's own tokenizer: SQLite FTS5's unicode61 keeps a run of
// Han characters as one token and has no light stemmer, so the index stores
// (and queries) the terms made here, one space apart.

// stopwords are left out of keyword search: they match everything.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be been but by can could did do does for from had has have
		he her his how i if in into is it its me my of on or our she so than that the their them then there these
		they this to was we were what when where which who why will with would you your about did any all also just
		not no yes up out over some`) {
		m[w] = true
	}
	return m
}()

// tokenize lowercases text into words (letters and digits), drops
// stopwords, stems English words (stem.go), and makes every Han, Kana
// or Hangul character a token of its own (no word breaks in those scripts),
// a Traditional Chinese character folded to its Simplified form (tsfold.go).
func tokenize(text string) []string { return (*stemMemo)(nil).tokenize(text) }

// Terms splits text into the recall index's terms, so another word index (a
// chat's attachments) matches as recall does: stems, stopwords, a term per Han,
// Kana or Hangul character, Traditional folded to Simplified. It remembers its
// stems: make one per pass, used by one goroutine.
type Terms struct{ m *stemMemo }

// NewTerms returns a Terms with an empty stem memo.
func NewTerms() Terms { return Terms{newStemMemo()} }

// Each calls fn with each term of text.
func (t Terms) Each(text string, fn func(string)) { t.m.eachTerm(text, fn) }

func (m *stemMemo) tokenize(text string) []string {
	var out []string
	m.eachTerm(text, func(t string) { out = append(out, t) })
	return out
}

// stemMemo holds the stems one pass has made (a search's candidates, a write's
// chunks): Porter2 costs a microsecond or more a word, and the chunks of one
// pass repeat most of their words. A nil memo stems each word afresh. With
// only set, a word whose first letter is not in it is given unstemmed: a
// stem keeps its word's first letter, so a search looking for terms that
// start otherwise has no use for that word's stem.
type stemMemo struct {
	m    map[string]string
	only *[256]bool
}

func newStemMemo() *stemMemo { return &stemMemo{m: map[string]string{}} }

// maxStemMemo bounds a memo (a rebuild's words are many, its common ones few).
const maxStemMemo = 1 << 15

func (m *stemMemo) stem(w []byte) string {
	if m == nil {
		return stem(string(w))
	}
	if s, ok := m.m[string(w)]; ok {
		return s
	}
	k := string(w)
	if m.only != nil && !m.only[k[0]] {
		return k
	}
	s := stem(k)
	if len(m.m) < maxStemMemo {
		m.m[k] = s
	}
	return s
}

// eachTerm calls fn with each of text's terms, as tokenize returns them. ASCII
// is handled a byte at a time: asking unicode's tables about every letter cost
// more than the rest of a keyword search.
func (m *stemMemo) eachTerm(text string, fn func(string)) {
	var word [64]byte
	w := word[:0]
	flush := func() {
		if len(w) > 0 && !stopwords[string(w)] {
			fn(m.stem(w))
		}
		w = w[:0]
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			switch {
			case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
				w = append(w, c)
			case 'A' <= c && c <= 'Z':
				w = append(w, c+'a'-'A')
			default:
				flush()
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		switch {
		case unicode.Is(unicode.Han, r) || unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
			flush()
			fn(string(foldTS(r)))
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			w = utf8.AppendRune(w, unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
}

func uniq(ts []string) []string {
	seen := map[string]bool{}
	out := ts[:0:0]
	for _, t := range ts {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}
