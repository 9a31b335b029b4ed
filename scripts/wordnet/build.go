package main

import (
	"cmp"
	"compress/zlib"
	"encoding/binary"
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

// The file recall embeds (backend/recall/wordnet.bin; its reader is
// decodeWordNet there): fileMagic and fileVersion, then, zlib-compressed,
// five sections — the keys, the groups, each key's first reference (one
// more at the end), the references, the irregular forms — each a
// little-endian uint32 byte length and the bytes. A text's entries end in
// ';' (the reader finds them: offsets would add a sixth to the file);
// numbers are little-endian uint32s. Compressed, the file is 650 KB of
// 1.46 MB.
const (
	fileMagic   = "HWNT"
	fileVersion = 1
)

// write writes the table as the file recall embeds.
func (t *table) write(out io.Writer) error {
	refAt := []uint32{0}
	var refs []uint32
	for _, r := range t.refs {
		refs = append(refs, r...)
		refAt = append(refAt, uint32(len(refs)))
	}
	var body []byte
	section := func(b []byte) {
		body = binary.LittleEndian.AppendUint32(body, uint32(len(b)))
		body = append(body, b...)
	}
	ints := func(vs []uint32) {
		var b []byte
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint32(b, v)
		}
		section(b)
	}
	section(lines(t.keys))
	section(lines(t.groups))
	ints(refAt)
	ints(refs)
	section(lines(t.exc))
	head := binary.LittleEndian.AppendUint32([]byte(fileMagic), fileVersion)
	if _, err := out.Write(head); err != nil {
		return err
	}
	z, err := zlib.NewWriterLevel(out, zlib.BestCompression)
	if err != nil {
		return err
	}
	if _, err := z.Write(body); err != nil {
		return err
	}
	return z.Close()
}

// lines is ss as one text, each entry ended by ';'.
func lines(ss []string) []byte {
	var text []byte
	for _, s := range ss {
		text = append(append(text, s...), ';')
	}
	return text
}
