package attach

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"hearth/backend/extract"
	"hearth/backend/internal/nofollow"
	"hearth/backend/tools"
)

// maxReadChars bounds what read_attachment returns at once.
const maxReadChars = 8000

type searchArgs struct {
	Query string `json:"query" jsonschema:"words or a question to look for in this chat's attached files"`
	K     int    `json:"k,omitempty" jsonschema:"most passages; default 5" min:"1" max:"20"`
}

type readArgs struct {
	Name string `json:"name" jsonschema:"the attached file's name"`
	Page int    `json:"page,omitempty" jsonschema:"page to read (PDF)" min:"1"`
	From int    `json:"from,omitempty" jsonschema:"first line to read (text files); default 1" min:"1"`
	To   int    `json:"to,omitempty" jsonschema:"last line to read; default from+199" min:"1"`
}

// ToolNames are the names of Tools: offered only in a chat with attachments.
func ToolNames() []string { return []string{"attachment_search", "read_attachment"} }

// Tools are attachment_search and read_attachment over the calling chat's
// attachments.
func (s *Store) Tools() []tools.Tool {
	return []tools.Tool{
		tools.New(tools.Def[searchArgs]{Name: "attachment_search", ReadOnly: true, Run: s.runSearch,
			Short:       "Search this chat's attached files.",
			Description: "Search the files attached to this chat. Returns passages with their file and page or line, best first; cite them as [file p. N] or [file line N]."}),
		tools.New(tools.Def[readArgs]{Name: "read_attachment", ReadOnly: true, Run: s.runRead,
			Short:       "Read part of an attached file.",
			Description: "Read a page or a range of lines of a file attached to this chat."}),
	}
}

func callSession(ctx context.Context) string {
	if call, ok := tools.CallFrom(ctx); ok {
		return call.SessionID
	}
	return ""
}

func (s *Store) runSearch(ctx context.Context, a searchArgs) (tools.Result, error) {
	q := strings.TrimSpace(a.Query)
	if q == "" {
		return tools.Errorf("query is empty (hint: give words or a question to search for)"), nil
	}
	sid := callSession(ctx)
	if sid == "" {
		return tools.Errorf("no chat (hint: attachment_search works in a chat with attached files)"), nil
	}
	k := a.K
	if k <= 0 {
		k = 5
	}
	ix := s.index(sid)
	if len(ix.passages) == 0 {
		return tools.Text("This chat has no attached files."), nil
	}
	hits := ix.search(q, min(k, 20), nil)
	if len(hits) == 0 {
		return tools.Text("No passage of the attached files matches; try other words."), nil
	}
	return tools.Text(FormatHits(hits, tools.DefaultMaxResultChars/2)), nil
}

// FormatHits renders hits, each headed by its place, within limit bytes.
func FormatHits(hits []Hit, limit int) string {
	var b strings.Builder
	for i, h := range hits {
		p := fmt.Sprintf("%d. [%s]\n%s\n\n", i+1, h.Where(), h.Text)
		if b.Len()+len(p) > limit && i > 0 {
			fmt.Fprintf(&b, "(%d more passages left out)", len(hits)-i)
			break
		}
		b.WriteString(p)
	}
	return strings.TrimSpace(b.String())
}

func (s *Store) runRead(ctx context.Context, a readArgs) (tools.Result, error) {
	sid := callSession(ctx)
	files := s.Files(sid)
	name := SafeName(a.Name)
	if !slices.Contains(files, name) {
		return tools.Errorf("no attached file %q in this chat (hint: the files are: %s)", a.Name, strings.Join(files, ", ")), nil
	}
	dir, err := s.openChat(sid, false)
	if err != nil {
		return tools.Errorf("%s cannot be read: %v", name, err), nil
	}
	defer dir.Close()
	data, err := readCopy(dir, name, s.limits().MaxBytes)
	if err != nil {
		return tools.Errorf("%s cannot be read: %v", name, err), nil
	}
	doc, err := extract.Bytes(name, data, s.limits())
	if err != nil {
		return tools.Errorf("%v", err), nil
	}
	return tools.Text(readPart(doc, a)), nil
}

// readPart is the page or lines of doc that a asks for, bounded.
func readPart(doc *extract.Doc, a readArgs) string {
	if doc.PageCount() > 0 {
		n := a.Page
		if n <= 0 {
			n = 1
		}
		if n > len(doc.Pages) {
			return fmt.Sprintf("Error: %s has %d pages.", doc.Name, len(doc.Pages))
		}
		return fmt.Sprintf("[%s p. %d]\n%s", doc.Name, n, clipText(doc.Pages[n-1].Text))
	}
	from := max(a.From, 1)
	to := a.To
	if to < from {
		to = from + 199
	}
	var lines []string
	for _, p := range doc.Pages {
		lines = append(lines, strings.Split(p.Text, "\n")...)
	}
	if from > len(lines) {
		return fmt.Sprintf("Error: %s has %d lines.", doc.Name, len(lines))
	}
	to = min(to, len(lines))
	return fmt.Sprintf("[%s lines %d-%d of %d]\n%s", doc.Name, from, to, len(lines), clipText(strings.Join(lines[from-1:to], "\n")))
}

func clipText(s string) string {
	if len(s) <= maxReadChars {
		return s
	}
	return cutUTF8(s, maxReadChars) + "\n[… cut: read a narrower range]"
}

// Files are the names of the chat's attached copies, sorted.
func (s *Store) Files(sessionID string) []string {
	var out []string
	for _, p := range s.index(sessionID).passages {
		if len(out) == 0 || out[len(out)-1] != p.File {
			out = append(out, p.File)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// readCopy reads the copy name of dir, bounded, without following a link.
func readCopy(dir *os.File, name string, max int64) ([]byte, error) {
	f, _, err := nofollow.OpenFileIn(dir, name, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return nofollow.ReadAllFrom(f, max)
}
