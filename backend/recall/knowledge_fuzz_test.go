package recall

import (
	"strings"
	"testing"

	"hearth/backend/extract"
)

// docChunks takes any text a person's file holds: every chunk is within the
// size bound, non-empty, cites a line inside the page, and nothing of
// substance is lost.
func FuzzDocChunks(f *testing.F) {
	f.Add("# Title\n\nA paragraph.\n\n\n\nAnother one\nwith two lines.\n", 0)
	f.Add(strings.Repeat("word ", 600), 3)
	f.Add("\r\n\r\n#\n\n\n  \n"+strings.Repeat("x", 3000), 0)
	f.Fuzz(func(t *testing.T, text string, page int) {
		pg := extract.Page{Line: 1, Text: text}
		if page > 0 {
			pg = extract.Page{N: page % 1000, Text: text}
		}
		doc := &extract.Doc{Name: "f.md", Pages: []extract.Page{pg}}
		lines := strings.Count(text, "\n") + 1
		total := 0
		for _, c := range docChunks("knowledge:x/f.md", "kb/f.md", doc) {
			if c.Text == "" || len(c.Text) > maxChunk {
				t.Fatalf("chunk of %d bytes", len(c.Text))
			}
			if pg.N == 0 && (c.Pos < 1 || c.Pos > lines) {
				t.Fatalf("line %d of %d", c.Pos, lines)
			}
			total += len(strings.Fields(c.Text))
		}
		if pg.N == 0 && total < len(strings.Fields(strings.ReplaceAll(text, "\r\n", "\n")))/2 {
			t.Fatalf("words lost: %d chunked of %d", total, len(strings.Fields(text)))
		}
	})
}

// A chunk cites the line its paragraph starts on.
func TestDocChunksCiteLines(t *testing.T) {
	long := strings.Repeat("filler words here ", 80)
	doc := &extract.Doc{Pages: []extract.Page{{Line: 1, Text: "# A\n\n" + long + "\n\n\n\nsecond paragraph\n"}}}
	cs := docChunks("knowledge:x/a.md", "kb/a.md", doc)
	if len(cs) < 2 || cs[0].Title != "kb/a.md line 1" || cs[len(cs)-1].Title != "kb/a.md line 7" || cs[len(cs)-1].Pos != 7 {
		for _, c := range cs {
			t.Logf("%s %d %q", c.Title, c.Pos, c.Text[:min(20, len(c.Text))])
		}
		t.Fatal("lines")
	}
	pdf := &extract.Doc{Pages: []extract.Page{{N: 1, Text: "one"}, {N: 2, Text: "two"}}}
	if cs := docChunks("knowledge:x/r.pdf", "kb/r.pdf", pdf); len(cs) != 2 || cs[1].Title != "kb/r.pdf p. 2" || cs[1].Pos != 2 {
		t.Fatalf("pages %+v", cs)
	}
}

// A knowledge passage is offered to the model in the form the window links
// ("cite as [kb/a.md line 3]"), in the block and in memory_search's results;
// other sources keep their plain name.
func TestKnowledgeHitCitable(t *testing.T) {
	k := Hit{Source: KnowledgeSource("x", "a.md"), Title: "kb/a.md line 3", Snippet: "kiln glaze at 1240"}
	note := Hit{Source: "notes/a.md", Title: "A", Snippet: "kiln bisque"}
	if got := hitWhere(k); got != "cite as [kb/a.md line 3]" {
		t.Errorf("knowledge: %q", got)
	}
	if got := hitWhere(note); got != "notes/a.md" {
		t.Errorf("note: %q", got)
	}
	if out := FormatResults(Results{Hits: []Hit{k, note}}); !strings.Contains(out, "1. cite as [kb/a.md line 3]") || !strings.Contains(out, "2. notes/a.md") {
		t.Errorf("results: %q", out)
	}
}
