package session

import (
	"strings"
	"unicode"
)

// MaxTitle is the longest automatic title, in characters (runes), including
// the ellipsis of a shortened one.
const MaxTitle = 60

// AutoTitle makes a session title from the first user message: its text on
// one line (whitespace runs become one space), cut to at most MaxTitle
// characters at a word boundary with "…" when it was longer. A single word
// longer than the limit (a URL, or text without spaces such as Chinese) is cut
// mid-word. Blank text gives "".
func AutoTitle(text string) string {
	t := []rune(singleLine(text))
	if len(t) <= MaxTitle {
		return string(t)
	}
	limit := MaxTitle - 1 // room for "…"
	cut := limit
	// Cut before the word that crosses the limit, unless that leaves too little.
	if !unicode.IsSpace(t[limit]) {
		for i := limit - 1; i > 0; i-- {
			if t[i] == ' ' {
				if i >= limit/2 {
					cut = i
				}
				break
			}
		}
	}
	out := strings.TrimRightFunc(string(t[:cut]), func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsPunct(r) && r != ')' && r != '"'
	})
	if out == "" {
		out = string(t[:cut])
	}
	return out + "…"
}
