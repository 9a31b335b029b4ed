package attach

import (
	"strconv"
	"strings"

	"hearth/backend/extract"
)

// Passage is one piece of an attachment's text, with its place.
type Passage struct {
	File string `json:"file"` // the copy's name
	Page int    `json:"page,omitempty"`
	Line int    `json:"line,omitempty"` // first line (text files), 0 for a PDF page
	Text string `json:"text"`
}

// Where is the passage's place as a person reads it: "report.pdf p. 150" or
// "notes.txt line 120".
func (p Passage) Where() string {
	switch {
	case p.Page > 0:
		return p.File + " p. " + strconv.Itoa(p.Page)
	case p.Line > 0:
		return p.File + " line " + strconv.Itoa(p.Line)
	}
	return p.File
}

// passageBytes is a passage's size: about 300 tokens, a few paragraphs — small
// enough that three fit a 4 096-token window beside the chat, big enough to
// hold an answer with its context.
const passageBytes = 1200

// Split cuts doc's pages into passages of about passageBytes each, at a blank
// line when there is one in the second half, else at a line end, else anywhere
// (a huge line is cut at a rune boundary). A passage never spans two pages.
func Split(file string, doc *extract.Doc) []Passage {
	var out []Passage
	for _, pg := range doc.Pages {
		text, line := pg.Text, pg.Line
		for strings.TrimSpace(text) != "" {
			n := cutAt(text, passageBytes)
			piece := text[:n]
			if t := strings.TrimSpace(piece); t != "" {
				p := Passage{File: file, Page: pg.N, Text: t}
				if pg.N == 0 {
					p.Line = line + strings.Count(piece[:len(piece)-len(strings.TrimLeft(piece, " \t\r\n"))], "\n")
				}
				out = append(out, p)
			}
			line += strings.Count(piece, "\n")
			text = text[n:]
		}
	}
	return out
}

// cutAt is where to end a piece of at most max bytes of s: the whole of s if
// it is short, else after a blank line or a line end in the second half, else
// at a rune boundary.
func cutAt(s string, max int) int {
	if len(s) <= max {
		return len(s)
	}
	head := s[:max]
	if i := strings.LastIndex(head, "\n\n"); i >= max/2 {
		return i + 2
	}
	if i := strings.LastIndexByte(head, '\n'); i >= max/2 {
		return i + 1
	}
	n := len(cutUTF8(head, max))
	if n == 0 {
		return max
	}
	return n
}
