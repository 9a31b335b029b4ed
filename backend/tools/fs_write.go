package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"hearth/backend/internal/clip"
	"hearth/backend/internal/confined"
)

// WriteObserver hears the file tools' writes inside the workspace. Writing is told
// before tool writes file (workspace-relative, slash-separated, links resolved);
// the done it returns is called once the write is over, with whether it succeeded.
type WriteObserver interface {
	Writing(ctx context.Context, tool, file string) (done func(ok bool))
}

// writing tells the observer that tool is about to write path; a path outside the
// workspace, or one the policy refuses (the write will fail), is not told.
func (t fsBase) writing(ctx context.Context, tool, path string) (done func(ok bool)) {
	if t.writes == nil {
		return func(bool) {}
	}
	abs, err := t.policy.ResolveWrite(path)
	if err != nil {
		return func(bool) {}
	}
	rel, err := filepath.Rel(t.policy.workspaceDir(), abs)
	if err != nil || !filepath.IsLocal(rel) {
		return func(bool) {}
	}
	return t.writes.Writing(ctx, tool, filepath.ToSlash(rel))
}

// FileWrite is implemented by the arguments of tools that write one file:
// the approval gate judges the path the tool will write.
type FileWrite interface {
	WritePath() string
}

type writeFileArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

func (a writeFileArgs) WritePath() string { return a.Path }

func writeFileTool(b fsBase) Tool {
	return New(Def[writeFileArgs]{Name: "write_file", Short: "Create or overwrite a file.", Run: b.writeFile,
		Description: "Create or overwrite a file with content; creates parent folders."})
}

func (t fsBase) writeFile(ctx context.Context, a writeFileArgs) (Result, error) {
	path, content := a.Path, a.Content
	acc := t.policy.access()
	defer acc.close()
	done := t.writing(ctx, "write_file", path)
	w, err := acc.writeFile(path, []byte(content), 0o644)
	done(err == nil)
	if err != nil {
		return Result{}, fmt.Errorf("write_file %s: %w", clip.Runes(path, 300), err)
	}
	verb := "Created"
	if w.Existed {
		verb = "Overwrote"
	}
	return Result{
		Content: fmt.Sprintf("%s %s (%d bytes, %d lines).", verb, t.policy.display(w.Real), len(content), countLines(content)),
		Meta:    map[string]string{MetaPath: w.Real},
	}, nil
}

// maxEditSize bounds the files edit_file loads whole.
const maxEditSize = 32 << 20

type editFileArgs struct {
	Path       string `json:"path"`
	OldText    string `json:"old_text"`
	NewText    string `json:"new_text"`
	ReplaceAll bool   `json:"replace_all,omitempty"`
}

func (a editFileArgs) WritePath() string { return a.Path }

func editFileTool(b fsBase) Tool {
	return New(Def[editFileArgs]{Name: "edit_file", Short: "Replace exact text in a file.", Run: b.editFile,
		Description: "Replace exact text old_text with new_text in a file. old_text must match once unless replace_all."})
}

func (t fsBase) editFile(ctx context.Context, a editFileArgs) (Result, error) {
	path := a.Path
	oldText, newText := a.OldText, a.NewText
	if oldText == "" {
		return Result{}, errors.New("edit_file: old_text is empty; to create or replace a whole file use write_file")
	}
	if _, err := t.policy.ResolveWrite(path); err != nil {
		return Result{}, fmt.Errorf("edit_file: %w", err)
	}
	acc := t.policy.access()
	defer acc.close()
	data, _, err := acc.readFile(path, maxEditSize)
	switch {
	case errors.Is(err, confined.ErrTooBig):
		return Result{}, fmt.Errorf("edit_file %s: file is over the %s edit limit; use exec with a stream editor", path, sizeWords(maxEditSize))
	case errors.Is(err, fs.ErrNotExist):
		return Result{}, fmt.Errorf("edit_file %s: %w; check the name with list_dir or glob", path, err)
	case err != nil:
		return Result{}, fmt.Errorf("edit_file %s: %w", path, err)
	}
	if isBinary(data[:min(len(data), sniffLen)]) {
		return Result{}, fmt.Errorf("edit_file %s: binary file; only text files can be edited", path)
	}
	text := string(data)
	// A file with Windows line ends still matches text the model wrote with \n.
	if !strings.Contains(text, oldText) && strings.Contains(text, "\r\n") && !strings.Contains(oldText, "\r\n") {
		oldText = strings.ReplaceAll(oldText, "\n", "\r\n")
		newText = strings.ReplaceAll(newText, "\n", "\r\n")
	}
	count := strings.Count(text, oldText)
	switch {
	case count == 0:
		return Result{}, fmt.Errorf("edit_file %s: old_text not found (it must match exactly, whitespace included). %s",
			path, closestMatch(text, oldText))
	case count > 1 && !a.ReplaceAll:
		return Result{}, fmt.Errorf("edit_file %s: old_text matches %d times (at lines %s); include more surrounding lines to make it unique, or set replace_all=true",
			path, count, matchLines(text, oldText, 10))
	}
	line := strings.Count(text[:strings.Index(text, oldText)], "\n") + 1
	if a.ReplaceAll {
		text = strings.ReplaceAll(text, oldText, newText)
	} else {
		text = strings.Replace(text, oldText, newText, 1)
	}
	done := t.writing(ctx, "edit_file", path)
	w, err := acc.writeFile(path, []byte(text), 0o644)
	done(err == nil)
	if err != nil {
		return Result{}, fmt.Errorf("edit_file %s: %w", path, err)
	}
	what := fmt.Sprintf("1 occurrence at line %d", line)
	if count > 1 {
		what = fmt.Sprintf("%d occurrences (first at line %d)", count, line)
	}
	return Result{Content: fmt.Sprintf("Edited %s: replaced %s.", t.policy.display(w.Real), what),
		Meta: map[string]string{MetaPath: w.Real}}, nil
}

func countLines(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// matchLines lists the line numbers where sub starts, at most max of them.
func matchLines(text, sub string, max int) string {
	var lines []string
	off := 0
	for len(lines) < max {
		i := strings.Index(text[off:], sub)
		if i < 0 {
			break
		}
		lines = append(lines, fmt.Sprint(strings.Count(text[:off+i], "\n")+1))
		off += i + len(sub)
	}
	return strings.Join(lines, ", ")
}

// closestMatch finds the window of lines most like want and shows it with line
// numbers, so the model can copy the exact text instead of guessing again.
func closestMatch(text, want string) string {
	lines := strings.Split(text, "\n")
	wantLines := strings.Split(strings.TrimRight(want, "\n"), "\n")
	n := len(wantLines)
	if len(lines)*n > 500000 {
		return "Read the file with read_file and copy the text exactly."
	}
	wantNorm := normalizeSpace(strings.Join(wantLines, "\n"))
	wantGrams := bigrams(wantNorm)
	best, bestScore := -1, 0.0
	for i := 0; i+n <= len(lines); i++ {
		cand := normalizeSpace(strings.Join(lines[i:i+n], "\n"))
		if cand == wantNorm {
			best, bestScore = i, 1
			break
		}
		if s := dice(wantGrams, bigrams(cand)); s > bestScore {
			best, bestScore = i, s
		}
	}
	if best < 0 || bestScore < 0.3 {
		return "Nothing similar was found; read the file with read_file and copy the text exactly."
	}
	var b strings.Builder
	note := ""
	if bestScore == 1 {
		note = ", differing only in whitespace or indentation"
	}
	fmt.Fprintf(&b, "Closest match at line %d (%.0f%% similar%s):\n", best+1, bestScore*100, note)
	for i := best; i < best+n && i < len(lines); i++ {
		fmt.Fprintf(&b, "%d\t%s\n", i+1, clip.Runes(strings.TrimRight(lines[i], "\r"), 300))
	}
	b.WriteString("Copy the text exactly from these lines.")
	return b.String()
}

func normalizeSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

func bigrams(s string) map[string]int {
	m := map[string]int{}
	r := []rune(s)
	for i := 0; i+1 < len(r); i++ {
		m[string(r[i:i+2])]++
	}
	return m
}

// dice is the Sørensen–Dice coefficient over character bigrams.
func dice(a, b map[string]int) float64 {
	na, nb, common := 0, 0, 0
	for k, v := range a {
		na += v
		common += min(v, b[k])
	}
	for _, v := range b {
		nb += v
	}
	if na+nb == 0 {
		return 0
	}
	return 2 * float64(common) / float64(na+nb)
}
