package session

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"hearth/backend/llm"
)

// Format is an export format.
type Format string

// Export formats.
const (
	FormatMarkdown Format = "markdown"
	FormatJSON     Format = "json"
)

// ResultPreview is how many characters of a tool result the Markdown export
// shows.
const ResultPreview = 300

// untitled is the Markdown heading of a session without any title.
const untitled = "Untitled session"

// Export writes session id to w in format f.
func (s *Store) Export(id string, f Format, w io.Writer) error {
	sess, err := s.Load(id)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	switch f {
	case FormatMarkdown:
		err = WriteMarkdown(w, sess)
	case FormatJSON:
		err = WriteJSON(w, sess)
	default:
		return fmt.Errorf("export session %s: unknown format %q: use %q or %q", id, f, FormatMarkdown, FormatJSON)
	}
	if err != nil {
		return fmt.Errorf("export session %s as %s: %w", id, f, err)
	}
	return nil
}

// WriteJSON writes sess as one indented JSON document: metadata, messages
// (with tool calls, reasoning and base64 images), runs and the ids of
// interrupted runs.
func WriteJSON(w io.Writer, sess *Session) error {
	doc := struct {
		Format      string   `json:"format"`
		Meta        Meta     `json:"meta"`
		Messages    []Entry  `json:"messages"`
		Runs        []Run    `json:"runs"`
		Interrupted []string `json:"interrupted,omitempty"`
	}{Format: "hearth.session/v1", Meta: sess.Meta, Messages: sess.Entries, Runs: sess.Runs}
	if doc.Messages == nil {
		doc.Messages = []Entry{}
	}
	if doc.Runs == nil {
		doc.Runs = []Run{}
	}
	for _, in := range sess.Interrupted {
		doc.Interrupted = append(doc.Interrupted, in.RunID)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// WriteMarkdown writes sess as a readable document: the title, then every
// message under a dated heading, tool calls as fenced JSON blocks with a
// short preview of their result, and a note under runs that failed, were
// cancelled or were interrupted.
func WriteMarkdown(w io.Writer, sess *Session) error {
	bw := bufio.NewWriter(w)
	m := sess.Meta
	title := m.Title
	title = cmp.Or(title, untitled)
	fmt.Fprintf(bw, "# %s\n\n", title)
	fmt.Fprintf(bw, "Session `%s` · created %s", m.ID, day(m.Created))
	if m.Model != "" {
		fmt.Fprintf(bw, " · model `%s`", m.Model)
	}
	if m.Archived {
		bw.WriteString(" · archived")
	}
	bw.WriteString("\n")

	notes := runNotes(sess)
	for i, e := range sess.Entries {
		writeEntry(bw, e)
		if n, ok := notes[i]; ok {
			fmt.Fprintf(bw, "\n_%s_\n", n)
		}
	}
	return bw.Flush()
}

// runNotes maps the index of a run's last message to a note on how the run
// ended, for runs that did not end well.
func runNotes(sess *Session) map[int]string {
	last := map[string]int{}
	for i, e := range sess.Entries {
		if e.RunID != "" {
			last[e.RunID] = i
		}
	}
	notes := map[int]string{}
	for _, r := range sess.Runs {
		i, ok := last[r.ID]
		if !ok {
			continue
		}
		switch r.Status {
		case StatusError:
			notes[i] = "Run failed: " + singleLine(r.Error)
		case StatusCancelled:
			notes[i] = "Run stopped by the user."
		case StatusInterrupted:
			notes[i] = "Run interrupted."
		}
	}
	for _, in := range sess.Interrupted {
		if i, ok := last[in.RunID]; ok {
			notes[i] = "Run interrupted: this turn did not finish."
		}
	}
	return notes
}

func writeEntry(w *bufio.Writer, e Entry) {
	switch e.Role {
	case llm.RoleTool:
		name := e.ToolName
		name = cmp.Or(name, "tool")
		fmt.Fprintf(w, "\n**Result** of `%s`:\n\n", name)
		fence(w, "text", preview(e.Content, ResultPreview))
		return
	case llm.RoleUser:
		fmt.Fprintf(w, "\n## You · %s\n", stampText(e.At))
	case llm.RoleAssistant:
		fmt.Fprintf(w, "\n### Assistant · %s\n", stampText(e.At))
	default:
		fmt.Fprintf(w, "\n### %s · %s\n", e.Role, stampText(e.At))
	}
	if r := strings.TrimSpace(e.Reasoning); r != "" {
		fmt.Fprintf(w, "\n<details><summary>Reasoning</summary>\n\n%s\n\n</details>\n", r)
	}
	if c := strings.TrimSpace(e.Content); c != "" {
		fmt.Fprintf(w, "\n%s\n", c)
	}
	if n := len(e.Images); n > 0 {
		fmt.Fprintf(w, "\n_[%d image(s) attached]_\n", n)
	}
	for _, tc := range e.ToolCalls {
		fmt.Fprintf(w, "\n**Tool call** `%s`:\n\n", tc.Name)
		fence(w, "json", prettyJSON(tc.Arguments))
	}
}

// fence writes text as a fenced code block whose fence is longer than any
// run of backticks inside it.
func fence(w *bufio.Writer, lang, text string) {
	longest, run := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", max(3, longest+1))
	fmt.Fprintf(w, "%s%s\n%s\n%s\n", f, lang, strings.TrimRight(text, "\n"), f)
}

func preview(s string, n int) string {
	r := []rune(strings.TrimSpace(s))
	if len(r) <= n {
		return string(r)
	}
	return fmt.Sprintf("%s\n… (%d more characters)", string(r[:n]), len(r)-n)
}

func prettyJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "{}"
	}
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}

func day(t time.Time) string {
	if t.IsZero() {
		return "unknown date"
	}
	return t.Format("2006-01-02")
}

func stampText(t time.Time) string {
	if t.IsZero() {
		return "unknown time"
	}
	return t.Format("2006-01-02 15:04")
}
