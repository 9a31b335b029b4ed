package recall

import (
	"slices"
	"strings"
	"testing"
)

// The generated table is well formed: each text's offsets step over its
// lines, the words ascend (lookups bisect them), and every reference names
// a group.
func TestWordNetTableShape(t *testing.T) {
	for _, tb := range []struct {
		name string
		text string
		at   []uint32
	}{{"wnKeys", wnKeys, wnKeyAt[:]}, {"wnGroups", wnGroups, wnGroupAt[:]}, {"wnExc", wnExc, wnExcAt[:]}} {
		if int(tb.at[len(tb.at)-1]) != len(tb.text) {
			t.Fatalf("%s: the last offset %d is not the text's length %d", tb.name, tb.at[len(tb.at)-1], len(tb.text))
		}
		for i := 0; i+1 < len(tb.at); i++ {
			if c := tb.text[tb.at[i+1]-1]; tb.at[i] >= tb.at[i+1] || c != ';' && c != '\n' {
				t.Fatalf("%s: entry %d is not one entry", tb.name, i)
			}
			if l := wnLine(tb.text, tb.at, i); strings.ContainsAny(l, ";\n") || tb.name != "wnGroups" && i > 0 && wnLine(tb.text, tb.at, i-1) > l {
				t.Fatalf("%s: line %d %q out of order", tb.name, i, l)
			}
		}
	}
	if len(wnRefAt) != len(wnKeyAt) || int(wnRefAt[len(wnRefAt)-1]) != len(wnRefs) {
		t.Fatal("wnRefAt does not match wnKeys and wnRefs")
	}
	for _, r := range wnRefs {
		if int(r>>1) >= len(wnGroupAt)-1 {
			t.Fatalf("reference %d to no group", r)
		}
	}
}

func related2(text string) []string {
	var out []string
	for _, r := range expand(text, uniq(tokenize(text))) {
		out = append(out, r.term)
	}
	return out
}

// A word brings its WordNet synonyms, found under its base form; a phrase
// is looked up as one; irregular forms find their base.
func TestExpandWordNet(t *testing.T) {
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"vaccinated against influenza", []string{"flu"}},
		{"my flu jab", []string{"influenza"}},
		{"the motion pictures we saw", []string{"movi", "film"}}, // a phrase, plural
		{"the children's party", []string{"child", "kid"}},       // an irregular form
		{"a new automobile", []string{"car"}},
	} {
		got := related2(c.query)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q brings %v, want %q among them", c.query, got, w)
			}
		}
	}
}

// Synonyms come before the words one step away and weigh more; the query's
// own words are never added; a long message is bounded.
func TestExpandWeights(t *testing.T) {
	got := expand("influenza", []string{"influenza"})
	if len(got) == 0 || got[0].term != "flu" || got[0].weight != expandWeight {
		t.Fatalf("influenza brings %v, want flu first at %v", got, expandWeight)
	}
	seenNear := false
	for _, r := range expand("holiday automobile", uniq(tokenize("holiday automobile"))) {
		if r.term == "holidai" || r.term == "automobil" {
			t.Fatalf("the query's own word %q added", r.term)
		}
		if r.weight == nearWeight {
			seenNear = true
		} else if seenNear && r.weight != nearWeight {
			t.Fatalf("a synonym after a word one step away: %v", r)
		}
	}
	long := strings.Repeat("influenza holiday automobile film ", 5000)
	if n := len(expand(long, uniq(tokenize(long)))); n > maxExpand {
		t.Fatalf("%d words added, want at most %d", n, maxExpand)
	}
	if n := len(asciiWords(long, maxLookWords)); n != maxLookWords {
		t.Fatalf("%d words looked at, want %d", n, maxLookWords)
	}
}

// Words that are not plain ASCII letters break phrases and look nothing up.
func TestExpandOddWords(t *testing.T) {
	for _, q := range []string{"", "ice\u00a0cream", "flu2 jab", "流感 疫苗", "ICE CREAM", "a", "the of and", strings.Repeat("x", 1<<16)} {
		_ = expand(q, uniq(tokenize(q)))
	}
	if got := related2("ICE CREAMS"); !slices.Contains(got, "icecream") && len(got) == 0 {
		t.Errorf("upper case finds nothing: %v", got)
	}
}

// FuzzExpand: any text expands without a panic, within the bounds, never
// to one of its own terms.
func FuzzExpand(f *testing.F) {
	for _, s := range []string{"flu jab", "ice creams", "went running", "children", "a b c", "ﬂu", "motion picture show"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		own := uniq(tokenize(s))
		got := expand(s, own)
		if len(got) > maxExpand {
			t.Fatalf("%d words", len(got))
		}
		for _, r := range got {
			if slices.Contains(own, r.term) || r.weight <= 0 || r.weight > expandWeight {
				t.Fatalf("%q brings %v", s, r)
			}
		}
	})
}

// A question of more words than one statement asks about is counted whole:
// the words past the first batch still find their passages.
func TestKeywordManyTerms(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, HistoryFile, history("The heron fishes at dawn."))
	x := NewIndex(IndexOptions{Workspace: ws, Dir: t.TempDir()})
	defer x.Close()
	var q strings.Builder
	for i := range 3 * termBatch {
		q.WriteString("zq" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + " ")
	}
	q.WriteString("heron")
	r, err := x.Search(t.Context(), q.String(), 1)
	if err != nil || len(r.Hits) != 1 {
		t.Fatalf("%+v %v", r, err)
	}
}
