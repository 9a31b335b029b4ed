package recall

import (
	"slices"
	"strings"
	"testing"
	"unicode"
)

// tokenizeRunes is tokenize as it was first written, a rune at a time through
// unicode's tables: the byte-wise fast path must split every text the same way.
func tokenizeRunes(text string) []string {
	var out []string
	var w strings.Builder
	flush := func() {
		if w.Len() == 0 {
			return
		}
		t := w.String()
		w.Reset()
		if !stopwords[t] {
			out = append(out, stem(t))
		}
	}
	for _, r := range text {
		switch {
		case unicode.Is(unicode.Han, r) || unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
			flush()
			out = append(out, string(foldTS(r)))
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			w.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
	return out
}

func TestTokenizeSplitsLikeTheRuneTables(t *testing.T) {
	for _, s := range []string{
		"", "The Meetings were MOVED to Tuesday's 3pm slot.", "naïve CAFÉ Ünïcode straße",
		"会议改到周二 ミーティング 회의", "mixed中文words and ＡＢＣ full-width", "bad \xff\xfe utf8 \xc3",
		strings.Repeat("x", 100) + " long-word", "İstanbul ǅ", "tabs\tand\nnewlines 42 x2",
	} {
		if got, want := tokenize(s), tokenizeRunes(s); !slices.Equal(got, want) {
			t.Errorf("%q:\n got %q\nwant %q", s, got, want)
		}
	}
}

func FuzzTokenize(f *testing.F) {
	f.Add("The Meetings were MOVED to Tuesday.")
	f.Add("会议 ミーティング naïve \xff")
	f.Add("會議改到週二 会议改到周二")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := tokenize(s), tokenizeRunes(s); !slices.Equal(got, want) {
			t.Fatalf("%q: got %q, want %q", s, got, want)
		}
	})
}

// The Porter stemmer's classic examples, and the pairs recall needs joined.
// Porter2 keeps "general" whole (its R1 exception for "gener-").
func TestStem(t *testing.T) {
	for w, want := range map[string]string{
		"caresses": "caress", "ponies": "poni", "cats": "cat", "feed": "feed", "agreed": "agre",
		"plastered": "plaster", "motoring": "motor", "sing": "sing", "conflated": "conflat", "troubled": "troubl",
		"sized": "size", "hopping": "hop", "falling": "fall", "hissing": "hiss", "filing": "file", "happy": "happi",
		"relational": "relat", "generalization": "general", "recommended": "recommend", "recommendation": "recommend",
		"fillings": "fill", "meetings": "meet", "electricity": "electr", "hopeful": "hope", "goodness": "good",
		"x2": "x2", "naïve": "naïve", "go": "go",
	} {
		if got := stem(w); got != want {
			t.Errorf("stem(%q) = %q, want %q", w, got, want)
		}
	}
}

// The stemmer takes any word tokenize makes: it never panics, never grows a
// word by more than the one letter Porter may add back, and keeps its first letter.
func FuzzStem(f *testing.F) {
	for _, w := range []string{"generalizations", "hopping", "y", "yy", "sses", "ied", "eed", "ization", "ational", "ness"} {
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, w string) {
		got := stem(w)
		if len(got) > len(w)+1 {
			t.Fatalf("stem(%q) = %q", w, got)
		}
		// keyword search skips stemming words by their first letter (stemMemo.only).
		if w != "" && (got == "" || got[0] != w[0]) {
			t.Fatalf("stem(%q) = %q changes the first letter", w, got)
		}
		_ = wordsOf(w + " " + strings.ToUpper(w))
	})
}

// A search's memo, which leaves words unstemmed by their first letter, scores
// every text as stemming every word does.
func TestStemMemoScoresAsStemming(t *testing.T) {
	q := tokenize("dying skies recommended meetings generalization happy agreed")
	idf := map[string]float64{}
	for i, w := range q {
		idf[w] = float64(i + 1)
	}
	memo := newStemMemo()
	memo.only = &[256]bool{}
	for w := range idf {
		memo.only[w[0]] = true
	}
	for _, text := range []string{
		"They were dying to see the sky; the skies cleared.",
		"Recommendations from the meeting: generalize less, agree more, be happier.",
		"Nothing here matches at all, zebra xylophone quietly.",
		"DYING Happily AGREED meetings MEETING recommend 会议 naïve",
	} {
		if got, want := keywordScore(text, memo, idf, 10, 1), keywordScore(text, nil, idf, 10, 1); got != want {
			t.Errorf("%q: memo %+v, stemming every word %+v", text, got, want)
		}
	}
}

// BenchmarkTokenize is the tokenizer (and so the stemmer) on a note's worth
// of English, as indexing and every keyword search run it.
func BenchmarkTokenize(b *testing.B) {
	text := strings.Repeat("The meetings were moved to Tuesday; recommended fillings and generalizations, hopping happily between relational electricity bills. ", 20)
	b.ReportAllocs()
	for b.Loop() {
		tokenize(text)
	}
}
