package main

import (
	"encoding/binary"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/kljensen/snowball/english"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// The file's header; backend/recall/nbr.go reads it.
const (
	fileMagic   = "HNBR"
	fileVersion = 2
)

// stopwords are never a key nor a neighbour: they are near everything.
// recall's own list (backend/recall/tokens.go), the function words GloVe
// ranks among everything's neighbours, and the days and months: each is
// nearest the others ("monday" and "tuesday" at 0.99), and a question
// about one day must not find another's.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be been but by can could did do does for from had has have
		he her his how i if in into is it its me my of on or our she so than that the their them then there these
		they this to was we were what when where which who why will with would you your about did any all also just
		not no yes up out over some him hers himself herself itself myself ourselves themselves yourself yours ours
		theirs mine us am being having doing should shall may might must ought very too more most much many such only
		own same other another each every both either neither few less least well even still yet already again once
		here now ever never always often sometimes perhaps maybe though although because since unless until while
		whether whose whom whatever whenever wherever however therefore thus hence indeed rather quite almost nearly
		just off onto upon within without through throughout during before after above below under between among
		against toward towards across along around behind beyond despite except inside outside near like unlike via
		per plus minus versus etc one two three four five six seven eight nine ten first second third last next
		said says say told tell got get gets getting go goes going went gone come came comes coming make made makes
		making take took taken takes taking give gave given gives see saw seen sees know knew known knows think
		thought thinks want wanted wants let lets put puts way ways thing things something anything nothing
		everything someone anyone everyone nobody somebody anybody everybody mr mrs ms dr st inc ltd co corp jr sr
		monday tuesday wednesday thursday friday saturday sunday january february march april june july august
		september october november december`) {
		m[w] = true
	}
	return m
}()

// keepWord reports whether w is one the table holds: lowercase letters,
// three or more, not a stopword.
func keepWord(w string) bool {
	if len(w) < 3 || stopwords[w] {
		return false
	}
	for _, c := range []byte(w) {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// A neighbour of a word, by its row and cosine.
type nbr struct {
	at  int32
	sim float32
}

// neighbours finds each word's k nearest by cosine, at least minSim,
// leaving out the word's own inflections and any neighbour of the same
// stem as one nearer. The all-pairs products are blocked matrix products
// (gonum's Sgemm, parallel on its own).
func neighbours(v *vectors, k int, minSim float32) [][]nbr {
	n, d := len(v.words), v.dims
	unit := slices.Clone(v.vecs)
	for i := range n {
		row := unit[i*d : (i+1)*d]
		var s float64
		for _, x := range row {
			s += float64(x) * float64(x)
		}
		if s > 0 {
			inv := float32(1 / math.Sqrt(s))
			for j := range row {
				row[j] *= inv
			}
		}
	}
	stems := make([]string, n)
	for i, w := range v.words {
		stems[i] = english.Stem(w, true)
	}
	all := blas32.General{Rows: n, Cols: d, Stride: d, Data: unit}
	const block = 256
	out := make([][]nbr, n)
	c := make([]float32, block*n)
	var cand []nbr
	for lo := 0; lo < n; lo += block {
		hi := min(lo+block, n)
		a := blas32.General{Rows: hi - lo, Cols: d, Stride: d, Data: unit[lo*d : hi*d]}
		cm := blas32.General{Rows: hi - lo, Cols: n, Stride: n, Data: c[:(hi-lo)*n]}
		blas32.Gemm(blas.NoTrans, blas.Trans, 1, a, all, 0, cm)
		for i := lo; i < hi; i++ {
			row := c[(i-lo)*n : (i-lo+1)*n]
			cand = cand[:0]
			for j, s := range row {
				if s >= minSim && j != i {
					cand = append(cand, nbr{int32(j), s})
				}
			}
			sort.Slice(cand, func(x, y int) bool {
				if cand[x].sim != cand[y].sim {
					return cand[x].sim > cand[y].sim
				}
				return cand[x].at < cand[y].at
			})
			taken := map[string]bool{stems[i]: true}
			for _, cn := range cand {
				if len(out[i]) == k {
					break
				}
				s := stems[cn.at]
				if taken[s] || strings.HasPrefix(v.words[cn.at], v.words[i]) || strings.HasPrefix(v.words[i], v.words[cn.at]) {
					continue
				}
				taken[s] = true
				out[i] = append(out[i], cn)
			}
		}
	}
	return out
}

// write writes the table recall embeds: the words that are a key with a
// neighbour or a neighbour (ascending, each ended by ';'), one byte a word
// counting its neighbours, then each neighbour as its word's place (two
// bytes) and its cosine in 255ths (one byte), nearest first.
func write(out io.Writer, v *vectors, nb [][]nbr) error {
	used := make([]bool, len(v.words))
	for i, ns := range nb {
		for _, x := range ns {
			used[i], used[x.at] = true, true
		}
	}
	var order []int
	for i, u := range used {
		if u {
			order = append(order, i)
		}
	}
	sort.Slice(order, func(x, y int) bool { return v.words[order[x]] < v.words[order[y]] })
	place := make(map[int]int, len(order))
	var words, counts, entries []byte
	for p, i := range order {
		place[i] = p
		words = append(append(words, v.words[i]...), ';')
	}
	for _, i := range order {
		counts = append(counts, byte(len(nb[i])))
		for _, x := range nb[i] {
			entries = binary.LittleEndian.AppendUint16(entries, uint16(place[int(x.at)]))
			entries = append(entries, byte(math.Round(float64(min(1, x.sim))*255)))
		}
	}
	// Not compressed: the neighbours' places are near random, zlib saved a
	// fifth of the file and inflating it cost every process's first query
	// more than all the rest of its decoding.
	file := binary.LittleEndian.AppendUint32([]byte(fileMagic), fileVersion)
	for _, s := range [][]byte{words, counts, entries} {
		file = binary.LittleEndian.AppendUint32(file, uint32(len(s)))
		file = append(file, s...)
	}
	_, err := out.Write(file)
	return err
}
