package session

import "hearth/backend/internal/clip"

// MaxTitle is the longest automatic title, in characters (runes), including
// the ellipsis of a shortened one.
const MaxTitle = 60

// AutoTitle makes a session title from the first user message: its text on
// one line (whitespace runs become one space), cut to at most MaxTitle
// characters at a word boundary with "…" when it was longer. A single word
// longer than the limit (a URL, or text without spaces such as Chinese) is cut
// mid-word. Blank text gives "".
func AutoTitle(text string) string {
	return clip.Words(singleLine(text), MaxTitle)
}
