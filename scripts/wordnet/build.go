package main

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"

	"strings"
)

type wordnet struct {
	synsets map[string]*synset
	counts  map[senseKey]int
	exc     map[string][]string // inflected form → base forms
}

// How much of WordNet a word brings (see the command's comment).
const (
	maxSenses   = 2  // senses of one word
	maxPolysemy = 24 // a word with more senses than this is too ambiguous to expand ("get", "make")
	maxNarrower = 6  // hyponym synsets of one sense
)

// count gives each member and synset the corpus's count.
func (db *wordnet) count() {
	for _, s := range db.synsets {
		for i := range s.words {
			m := &s.words[i]
			m.count = db.counts[senseKey{m.lemma, s.typ, s.file, m.lex}]
			s.count += m.count
		}
	}
}

// table is what is written: each key's references to groups of words.
type table struct {
	keys   []string
	refs   [][]uint32 // per key: group<<1 | 1 when the group is one step away
	groups []string   // words, commonest first, comma-separated
	exc    []string   // "form base", sorted
}

type sense struct {
	s     *synset
	idx   int // the word's place in s
	count int
}

func (db *wordnet) build() *table {
	ids := make([]string, 0, len(db.synsets))
	for id := range db.synsets {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	senses := map[string][]sense{}
	for _, id := range ids {
		s := db.synsets[id]
		for i, m := range s.words {
			if plain(m.lemma) {
				p := phrase(m.lemma)
				senses[p] = append(senses[p], sense{s, i, m.count})
			}
		}
	}
	t := &table{}
	groupOf := map[string]uint32{}
	group := func(s *synset) (uint32, bool) {
		if g, ok := groupOf[s.id]; ok {
			return g, true
		}
		ws := slices.Clone(s.words)
		slices.SortStableFunc(ws, func(a, b member) int { return cmp.Compare(b.count, a.count) })
		var out []string
		for _, m := range ws {
			if p := phrase(m.lemma); plain(m.lemma) && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
		if len(out) == 0 {
			return 0, false
		}
		g := uint32(len(t.groups))
		t.groups = append(t.groups, strings.Join(out, ","))
		groupOf[s.id] = g
		return g, true
	}
	keys := make([]string, 0, len(senses))
	for k := range senses {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if len(k) < 3 {
			continue // recall looks up no word that short
		}
		refs := db.refs(senses[k], group, t)
		if len(refs) > 0 {
			t.keys = append(t.keys, k)
			t.refs = append(t.refs, refs)
		}
	}
	t.compact()
	known := map[string]bool{}
	for _, k := range t.keys {
		known[k] = true
	}
	forms := make([]string, 0, len(db.exc))
	for f := range db.exc {
		forms = append(forms, f)
	}
	slices.Sort(forms)
	for _, f := range forms {
		for _, b := range uniqStrings(db.exc[f]) {
			if b != f && known[phrase(b)] && !strings.ContainsAny(f, "_-") {
				t.exc = append(t.exc, f+" "+phrase(b))
			}
		}
	}
	slices.Sort(t.exc) // a form's bases next to each other ("comics comic", "comics comic strip")
	return t
}

// compact drops the groups no word refers to (made for a word then left
// out) and renumbers the rest, in order.
func (t *table) compact() {
	used := make([]bool, len(t.groups))
	for _, rs := range t.refs {
		for _, r := range rs {
			used[r>>1] = true
		}
	}
	renum := make([]uint32, len(t.groups))
	var groups []string
	for g, u := range used {
		if u {
			renum[g] = uint32(len(groups))
			groups = append(groups, t.groups[g])
		}
	}
	t.groups = groups
	for _, rs := range t.refs {
		for i, r := range rs {
			rs[i] = renum[r>>1]<<1 | r&1
		}
	}
}

// refs are the groups one word brings: its senses' synsets, then the
// counted synsets one step from them.
func (db *wordnet) refs(ss []sense, group func(*synset) (uint32, bool), t *table) []uint32 {
	if len(ss) > maxPolysemy {
		return nil
	}
	ss = slices.Clone(ss)
	slices.SortStableFunc(ss, func(a, b sense) int {
		return cmp.Or(cmp.Compare(b.count, a.count), cmp.Compare(b.s.count, a.s.count))
	})
	var keep []sense
	if top := ss[0].count; top > 0 {
		for _, s := range ss {
			if s.count > 0 && s.count*5 >= top && len(keep) < maxSenses {
				keep = append(keep, s)
			}
		}
	} else if ss[0].s.count > 0 {
		keep = ss[:1] // a word the corpus never counts, in a sense it does
	}
	var syn, near []uint32
	seen := map[uint32]bool{}
	add := func(list *[]uint32, s *synset, nearFlag uint32) {
		if s == nil || s.count == 0 {
			return
		}
		if g, ok := group(s); ok && !seen[g] {
			seen[g] = true
			*list = append(*list, g<<1|nearFlag)
		}
	}
	for _, k := range keep {
		add(&syn, k.s, 0)
	}
	for _, k := range keep {
		var narrower []*synset
		for _, p := range k.s.ptrs {
			to := db.synsets[p.target]
			switch {
			case p.sym == "@" || p.sym == "@i" || p.sym == "&":
				add(&near, to, 1)
			case p.sym == "+" && p.src == k.idx+1:
				add(&near, to, 1)
			case p.sym == "~" && to != nil && to.count > 0:
				narrower = append(narrower, to)
			}
		}
		slices.SortStableFunc(narrower, func(a, b *synset) int { return cmp.Compare(b.count, a.count) })
		for _, to := range narrower[:min(len(narrower), maxNarrower)] {
			add(&near, to, 1)
		}
	}
	// A word alone in its only synset and with nothing near brings nothing.
	if len(near) == 0 && len(syn) == 1 && !strings.Contains(t.groups[syn[0]>>1], ",") {
		return nil
	}
	return append(syn, near...)
}

func uniqStrings(ss []string) []string {
	var out []string
	for _, s := range ss {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// write prints the table as Go source: the words as raw strings, each
// entry ended by ';' or a newline, with their offsets, so that the table costs the program no work
// before a query looks something up, and no pointer per word.
func (t *table) write(out io.Writer) error {
	w := bufio.NewWriter(out)
	var refAt []uint32
	var refs []uint32
	for _, r := range t.refs {
		refAt = append(refAt, uint32(len(refs)))
		refs = append(refs, r...)
	}
	refAt = append(refAt, uint32(len(refs)))
	if len(t.groups) >= 1<<15 {
		return fmt.Errorf("%d groups do not fit the table's 16-bit references: take fewer senses", len(t.groups))
	}
	fmt.Fprintf(w, "// Code generated by scripts/wordnet from WordNet 3.0 (Princeton University; WORDNET_LICENSE); DO NOT EDIT.\n\n")
	fmt.Fprintf(w, "package recall\n\n")
	fmt.Fprintf(w, "// The table of wordnet.go: %d words and phrases (wnKeys, ascending, at\n", len(t.keys))
	fmt.Fprintf(w, "// wnKeyAt), %d groups of words (wnGroups, commas between words, at\n", len(t.groups))
	fmt.Fprintf(w, "// wnGroupAt), each entry ended by ';' or a newline, and %d references\n", len(refs))
	fmt.Fprintf(w, "// from a word to a group (wnRefs[wnRefAt[i]:wnRefAt[i+1]] for word i: the group's\n")
	fmt.Fprintf(w, "// index shifted left once, the low bit set for a group one step away —\n")
	fmt.Fprintf(w, "// broader, narrower, of the same root — rather than synonyms). wnExc\n")
	fmt.Fprintf(w, "// holds irregular forms and their base (\"went go\"), ascending.\n")
	writeLines(w, "wnKeys", "wnKeyAt", t.keys)
	writeLines(w, "wnGroups", "wnGroupAt", t.groups)
	writeInts(w, "wnRefAt", "uint32", refAt)
	writeInts(w, "wnRefs", "uint16", refs)
	writeLines(w, "wnExc", "wnExcAt", t.exc)
	return w.Flush()
}

// writeLines writes ss as one raw string, entries ended by ';' and every
// 64th by a newline (a data table, not a line of source per word), and the
// offset of each entry (one more at the end).
func writeLines(w *bufio.Writer, name, at string, ss []string) {
	var offs []uint32
	n := 0
	fmt.Fprintf(w, "\nconst %s = `", name)
	for i, s := range ss {
		offs = append(offs, uint32(n))
		end := ";"
		if i%64 == 63 {
			end = "\n"
		}
		fmt.Fprintf(w, "%s%s", s, end)
		n += len(s) + 1
	}
	offs = append(offs, uint32(n))
	fmt.Fprint(w, "`\n")
	writeInts(w, at, "uint32", offs)
}

func writeInts(w *bufio.Writer, name, typ string, vs []uint32) {
	fmt.Fprintf(w, "\nvar %s = [...]%s{", name, typ)
	for i, v := range vs {
		if i%64 == 0 {
			fmt.Fprint(w, "\n\t")
		} else {
			fmt.Fprint(w, " ")
		}
		fmt.Fprintf(w, "%d,", v)
	}
	fmt.Fprint(w, "\n}\n")
}
