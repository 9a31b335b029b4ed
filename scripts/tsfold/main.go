// Command tsfold writes backend/recall/tsfold.txt: the table that folds
// a Traditional Chinese character to its Simplified form, so that recall's
// tokenizer gives a note and a question the same terms in either script.
// The mapping is OpenCC's character-level t2s (its TSCharacters dictionary,
// Apache License 2.0), taken through the Go port's public converter one
// character at a time. Its own program so the port (which embeds a
// megabyte of phrase dictionaries and registers a command-line flag) stays
// out of the hearth binary; backend/recall/tsfold_test.go checks that the
// committed table still matches it.
//
// The file is UTF-8 text, a line per pair: the Traditional character, then its
// Simplified form, the lines in ascending order of the first (recall bisects
// them; backend/recall/tsfold.go decodes and checks the file).
//
// Usage: go run ./scripts/tsfold > backend/recall/tsfold.txt
package main

import (
	"bufio"
	"fmt"
	"os"
	"unicode"

	"github.com/longbridgeapp/opencc"
)

func main() {
	if err := write(); err != nil {
		fmt.Fprintln(os.Stderr, "tsfold:", err)
		os.Exit(1)
	}
}

func write() error {
	cc, err := opencc.New("t2s")
	if err != nil {
		return err
	}
	var from, to []rune
	for _, rt := range unicode.Han.R16 {
		for r := rune(rt.Lo); r <= rune(rt.Hi); r += rune(rt.Stride) {
			if err := add(cc, r, &from, &to); err != nil {
				return err
			}
		}
	}
	for _, rt := range unicode.Han.R32 {
		for r := rune(rt.Lo); r <= rune(rt.Hi); r += rune(rt.Stride) {
			if err := add(cc, r, &from, &to); err != nil {
				return err
			}
		}
	}
	w := bufio.NewWriter(os.Stdout)
	for i := range from {
		fmt.Fprintf(w, "%c%c\n", from[i], to[i])
	}
	return w.Flush()
}

// add records r's Simplified form when OpenCC changes r into one other
// character.
func add(cc *opencc.OpenCC, r rune, from, to *[]rune) error {
	s, err := cc.Convert(string(r))
	if err != nil {
		return err
	}
	rs := []rune(s)
	if len(rs) == 1 && rs[0] != r {
		*from, *to = append(*from, r), append(*to, rs[0])
	}
	return nil
}
