package fitness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"hearth/backend/internal/clip"
	"hearth/backend/llm"
)

// The read probe offers Hearth's own read_file and a real file in a scratch folder: a
// model that ignores a made-up tool may still use the tools it will get in a chat. The
// call really reads the file (inside the scratch folder only) and the result goes back
// to the model, which should repeat the code word it found.
const (
	ReadToolName = "read_file"
	// NoteName is the scratch file the read probe asks about.
	NoteName = "note.txt"
	// CodeWord is written in the scratch file; an answer that repeats it read the file.
	CodeWord = "ember-lantern-42"
	// maxNoteBytes bounds what the probe reads back (the note is one line).
	maxNoteBytes = 4096
)

// readToolDef mirrors read_file's definition in backend/tools (a test keeps the two in
// step) without importing the tools.
var readToolDef = llm.ToolDef{
	Name:        ReadToolName,
	Description: "Read a text file as numbered lines (line<TAB>text), paged; offset is the 1-based first line. Images are described, not shown.",
	Parameters:  json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"offset":{"type":"integer","minimum":1},"limit":{"type":"integer","description":"max lines","minimum":1}},"required":["path"]}`),
}

func readPrompt(dir string) string {
	return fmt.Sprintf("There is a file %s in the folder %s. Read it and tell me the code word written in it.", NoteName, dir)
}

func readProbe(dir string) probe {
	return probe{name: "read_file probe", maxTokens: 160, tools: []llm.ToolDef{readToolDef}, messages: []llm.Message{
		{Role: llm.RoleSystem, Content: systemPrompt},
		{Role: llm.RoleUser, Content: readPrompt(dir)},
	}}
}

// readOutcome is what the read probe saw.
type readOutcome struct {
	called, text, inconclusive bool
	outcome, reply, note       string
}

func (ro readOutcome) result(tries int) ProbeResult {
	return ProbeResult{Probe: ProbeRead, Outcome: ro.outcome, Reply: ro.reply, Tries: tries}
}

// readFileProbe makes the scratch folder, asks the model to read the note (ask sends
// an inconclusive probe twice), runs its read_file call for real and hands the result
// back (once: the answer only adds a note). The folder is removed afterwards.
func readFileProbe(ctx context.Context, opts Options, ask func(probe, time.Duration) (outcome, int, error),
	once func(probe) (outcome, error)) (readOutcome, int, error) {
	dir, err := os.MkdirTemp(opts.ScratchDir, "hearth-check-")
	if err != nil {
		return readOutcome{}, 0, fmt.Errorf("check: make a scratch folder: %w (hint: check that the temporary folder is writable)", err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, NoteName), []byte("The code word is "+CodeWord+".\n"), 0o600); err != nil {
		return readOutcome{}, 0, fmt.Errorf("check: write the scratch file: %w", err)
	}
	pr := readProbe(dir)
	o, tries, err := ask(pr, opts.ProbeTimeout)
	if err != nil {
		return readOutcome{}, tries, err
	}
	ro := readOutcome{outcome: o.outcome(), reply: o.describe()}
	var call *llm.ToolCall
	for i, c := range o.resp.Message.ToolCalls {
		if o.failed != nil {
			break
		}
		if !c.Unknown && c.Name == ReadToolName {
			call = &o.resp.Message.ToolCalls[i]
			break
		}
	}
	if call == nil {
		ro.inconclusive = o.inconclusive()
		ro.note = fmt.Sprintf("asked to read a file with %s offered, %s: %s", ReadToolName, o.saw(), o.describe())
		return ro, tries, nil
	}
	ro.called, ro.text, ro.outcome = true, o.resp.TextToolCalls, OutcomeCalled
	content, rerr := readScratch(dir, call.Arguments)
	if rerr != nil {
		content = "Error: " + rerr.Error()
	}
	next := pr
	id := call.ID
	if id == "" {
		id = "call_1"
	}
	next.messages = append(append([]llm.Message{}, pr.messages...),
		llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: id, Name: ReadToolName, Arguments: call.Arguments}}},
		llm.Message{Role: llm.RoleTool, ToolCallID: id, ToolName: ReadToolName, Content: content})
	after, err := once(next)
	switch {
	case err != nil && ctx.Err() != nil:
		return ro, tries, err
	case err != nil:
		ro.note = fmt.Sprintf("asked to read a file, it called %s (%s); its answer to the file's text did not come: %v", ReadToolName, o.describe(), err)
	case rerr != nil:
		ro.note = fmt.Sprintf("asked to read a file, it called %s with a path outside the scratch folder (%v); then: %s", ReadToolName, rerr, after.describe())
	case strings.Contains(after.resp.Message.Content, CodeWord):
		ro.note = fmt.Sprintf("asked to read a file, it called %s (%s) and reported the code word", ReadToolName, o.describe())
	default:
		ro.note = fmt.Sprintf("asked to read a file, it called %s (%s) but did not report the code word: %s", ReadToolName, o.describe(), after.describe())
	}
	return ro, tries, nil
}

// readScratch is the probe's read_file: the path (relative, or absolute inside dir)
// must name a regular file inside dir; os.Root refuses a way out (.., a symlink), a
// FIFO or device is refused before it is opened, and at most maxNoteBytes are read.
func readScratch(dir string, args json.RawMessage) (string, error) {
	var a struct {
		Path string `json:"path"`
	}
	if err := json.Unmarshal(args, &a); err != nil || strings.TrimSpace(a.Path) == "" {
		return "", errors.New("read_file needs a path")
	}
	rel := strings.TrimSpace(a.Path)
	if filepath.IsAbs(rel) {
		r, err := filepath.Rel(dir, filepath.Clean(rel))
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return "", fmt.Errorf("%s is outside the folder", clip.Squash(a.Path, 80))
		}
		rel = r
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", err
	}
	defer root.Close()
	st, err := root.Lstat(rel)
	if err != nil {
		if pe, ok := errors.AsType[*fs.PathError](err); ok {
			err = pe.Err // the scratch folder's name says nothing to the model
		}
		return "", fmt.Errorf("%s: %w", clip.Squash(a.Path, 80), err)
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", clip.Squash(a.Path, 80))
	}
	f, err := root.Open(rel)
	if err != nil {
		return "", err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxNoteBytes))
	if err != nil {
		return "", err
	}
	// Numbered like read_file's own output.
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		fmt.Fprintf(&b, "%d\t%s\n", i+1, line)
	}
	return b.String(), nil
}
