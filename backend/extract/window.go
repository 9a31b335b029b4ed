package extract

import (
	"errors"
	"strings"

	"hearth/backend/i18n"
)

// ErrPaged: a document cited by page (a PDF) has no line to show; the system's
// viewer opens it.
var ErrPaged = errors.New("file is read by page, not by line")

// View is a stretch of a document's text lines around one line: what the
// window's file view shows when a citation "[file line N]" is clicked. The
// lines are the extracted text's, numbered as passages number them (a .docx
// paragraph, an HTML block, a CSV record a line), so line N is the line the
// passage that was cited starts on.
type View struct {
	Name  string   `json:"name"`
	Kind  string   `json:"kind"`
	Line  int      `json:"line"`  // the cited line, clamped to the text (0 when it is empty)
	First int      `json:"first"` // the number of Lines[0]
	Lines []string `json:"lines"`
	Total int      `json:"total"` // lines in the whole text
	Cut   int      `json:"cut"`   // lines shortened to MaxViewLine
}

// Bounds of a View: a small file comes whole; a huge one as the lines around
// the cited line, so the window never holds a 20 MB text for one citation.
const (
	ViewLines   = 2000    // lines at most
	ViewBytes   = 1 << 20 // text at most, lines cut included
	MaxViewLine = 8000    // bytes of one line; the rest is cut with a mark
)

// CutMark ends a line cut at MaxViewLine.
const CutMark = " … [cut]"

// Window is the View of doc around line (1-based). A document read by page
// is refused with ErrPaged.
func Window(doc *Doc, line int) (View, error) {
	if doc.PageCount() > 0 {
		return View{}, refuse(doc.Name, ErrPaged, i18n.P("extract.paged", "name", doc.Name))
	}
	all := textLines(doc)
	v := View{Name: doc.Name, Kind: doc.Kind, Total: len(all), Lines: []string{}}
	if len(all) == 0 {
		return v, nil
	}
	v.Line = min(max(line, 1), len(all))
	// Grow the stretch from the cited line, a line below then one above, until a
	// bound is met: the cited line is always in it, near the middle when it can be.
	lo, hi := v.Line-1, v.Line // all[lo:hi]
	size := shown(all[lo])
	for hi-lo < ViewLines && (lo > 0 || hi < len(all)) {
		grew := false
		if hi < len(all) && size+shown(all[hi]) <= ViewBytes {
			size += shown(all[hi])
			hi++
			grew = true
		}
		if lo > 0 && hi-lo < ViewLines && size+shown(all[lo-1]) <= ViewBytes {
			size += shown(all[lo-1])
			lo--
			grew = true
		}
		if !grew {
			break
		}
	}
	v.First = lo + 1
	v.Lines = make([]string, 0, hi-lo)
	for _, l := range all[lo:hi] {
		if len(l) > MaxViewLine {
			l = cutLine(l)
			v.Cut++
		}
		v.Lines = append(v.Lines, l)
	}
	return v, nil
}

// textLines are doc's lines, numbered from 1: a page starting further down
// (its Line) is preceded by empty lines, so every line keeps its number.
func textLines(doc *Doc) []string {
	var all []string
	for _, pg := range doc.Pages {
		for len(all)+1 < pg.Line {
			all = append(all, "")
		}
		text := strings.TrimSuffix(pg.Text, "\n")
		if text == "" && pg.Text == "" {
			continue
		}
		for l := range strings.SplitSeq(text, "\n") {
			all = append(all, strings.TrimSuffix(l, "\r"))
		}
	}
	return all
}

// shown is what line l costs in a View: at most MaxViewLine and the mark, and
// a byte for its line end.
func shown(l string) int { return min(len(l), MaxViewLine+len(CutMark)) + 1 }

// cutLine is l's first MaxViewLine bytes, cut at a rune's start, and the mark.
func cutLine(l string) string {
	n := MaxViewLine
	for n > 0 && !utf8Start(l[n]) {
		n--
	}
	return l[:n] + CutMark
}
