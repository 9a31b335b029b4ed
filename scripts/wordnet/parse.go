package main

import (
	"fmt"
	"strconv"
	"strings"
)

// senseKey names one word's sense as cntlist.rev does, without the head of
// an adjective cluster (lemma%type:lexfile:lexid).
type senseKey struct {
	lemma          string
	typ, file, lex int
}

// parseCount reads one line of cntlist.rev: "lemma%5:00:00:head:00 sense count".
func parseCount(l string) (senseKey, int, bool) {
	f := strings.Fields(l)
	if len(f) != 3 {
		return senseKey{}, 0, false
	}
	lemma, rest, ok := strings.Cut(f[0], "%")
	parts := strings.Split(rest, ":")
	if !ok || lemma == "" || len(parts) < 3 { // a sense key names its word
		return senseKey{}, 0, false
	}
	var k senseKey
	var err error
	k.lemma = lemma
	if k.typ, err = strconv.Atoi(parts[0]); err != nil {
		return senseKey{}, 0, false
	}
	if k.file, err = strconv.Atoi(parts[1]); err != nil {
		return senseKey{}, 0, false
	}
	if k.lex, err = strconv.Atoi(parts[2]); err != nil {
		return senseKey{}, 0, false
	}
	n, err := strconv.Atoi(f[2])
	if err != nil || n < 0 {
		return senseKey{}, 0, false
	}
	return k, n, true
}

// synset is one line of a data file.
type synset struct {
	id    string // pos letter (n v a r; satellites a) and offset
	typ   int    // 1 noun, 2 verb, 3 adjective, 4 adverb, 5 satellite
	file  int
	words []member
	ptrs  []pointer
	count int // the corpus's count of all its words' senses
}

type member struct {
	lemma string // as WordNet writes it, lowercased, marker cut
	lex   int
	count int
}

type pointer struct {
	sym    string
	target string // synset id
	src    int    // the member it is from, 1-based; 0: the whole synset
}

var posOf = map[string]string{"n": "n", "v": "v", "a": "a", "s": "a", "r": "r"}
var typeOf = map[string]int{"n": 1, "v": 2, "a": 3, "r": 4, "s": 5}

// parseSynset reads one line of data.noun, data.verb, data.adj or
// data.adv; the licence text at the top (lines starting with spaces) gives
// nil.
func parseSynset(l string) (*synset, error) {
	if l == "" || l[0] == ' ' {
		return nil, nil
	}
	body, _, _ := strings.Cut(l, " | ")
	f := strings.Fields(body)
	bad := func(what string) (*synset, error) {
		return nil, fmt.Errorf("bad synset line (%s): %.60q", what, l)
	}
	if len(f) < 4 {
		return bad("too few fields")
	}
	pos, ok := posOf[f[2]]
	if !ok {
		return bad("part of speech")
	}
	s := &synset{id: pos + f[0], typ: typeOf[f[2]]}
	var err error
	if s.file, err = strconv.Atoi(f[1]); err != nil {
		return bad("lexicographer file")
	}
	n, err := strconv.ParseInt(f[3], 16, 32)
	if err != nil || n < 1 || 4+2*int(n) >= len(f) {
		return bad("word count")
	}
	i := 4
	for range n {
		lemma := strings.ToLower(f[i])
		if j := strings.IndexByte(lemma, '('); j > 0 {
			lemma = lemma[:j] // adjective position markers: "(a)", "(p)", "(ip)"
		}
		lex, err := strconv.ParseInt(f[i+1], 16, 32)
		if err != nil {
			return bad("lexical id")
		}
		s.words = append(s.words, member{lemma: lemma, lex: int(lex)})
		i += 2
	}
	np, err := strconv.Atoi(f[i])
	if err != nil || np < 0 || i+1+4*np > len(f) {
		return bad("pointer count")
	}
	i++
	for range np {
		p, tp, st := f[i], posOf[f[i+2]], f[i+3]
		if tp == "" || len(st) != 4 {
			return bad("pointer")
		}
		src, err := strconv.ParseInt(st[:2], 16, 32)
		if err != nil {
			return bad("pointer source")
		}
		s.ptrs = append(s.ptrs, pointer{sym: p, target: tp + f[i+1], src: int(src)})
		i += 4
	}
	return s, nil
}
