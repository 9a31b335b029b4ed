package memory

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"

	"hearth/backend/i18n"
	"hearth/backend/memrepo"
)

// previewContext is how many unchanged lines a preview shows around a change: enough to
// see where it lands, few enough that a one-line restore stays one screen.
const previewContext = 3

// RestorePreview is what Restore(rev, file) would change in file as it is now: the
// unified diff from the current text to the text right after rev ("" when restoring
// changes nothing). It is what History shows before Restore's second click — not the
// change rev made, which may be long undone or redone by later changes. It writes and
// records nothing.
func (s *Service) RestorePreview(rev, file string) (string, error) {
	n, err := fileName(file)
	if err != nil {
		return "", err
	}
	if n == "" {
		return "", fmt.Errorf("name a file to preview its restore")
	}
	v := s.currentVersions()
	full, err := v.repo.Resolve(rev)
	if errors.Is(err, memrepo.ErrUnknownRev) {
		return "", &Error{Msg: i18n.M("memory.rev.unknown", "rev", rev), Err: err}
	}
	if err != nil {
		return "", err
	}
	b, ok, err := v.repo.Show(full, n)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", &Error{Msg: i18n.M("memory.restore.absent", "file", n, "rev", full[:10], "name", strings.TrimPrefix(n, "memory/"))}
	}
	cur, err := v.store.Read(n)
	if err != nil {
		return "", err
	}
	return unifiedDiff(cur.Content, string(b), previewContext), nil
}

// unifiedDiff is the line diff from a to b as unified-diff hunks ("@@ -l,n +l,n @@", then
// " ", "-" and "+" lines), with ctx unchanged lines around each change; "" when a == b.
// A line without its final newline is shown as if it had one.
func unifiedDiff(a, b string, ctx int) string {
	type line struct {
		op   byte // ' ', '-', '+'
		text string
	}
	var all []line
	for _, d := range diff.Do(a, b) {
		op := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			op = '-'
		case diffmatchpatch.DiffInsert:
			op = '+'
		}
		for l := range strings.Lines(d.Text) {
			all = append(all, line{op, strings.TrimSuffix(l, "\n")})
		}
	}
	var out strings.Builder
	oldAt, newAt := make([]int, len(all)+1), make([]int, len(all)+1) // line numbers before each line
	for i, l := range all {
		oldAt[i+1], newAt[i+1] = oldAt[i], newAt[i]
		if l.op != '+' {
			oldAt[i+1]++
		}
		if l.op != '-' {
			newAt[i+1]++
		}
	}
	for i := 0; i < len(all); {
		if all[i].op == ' ' {
			i++
			continue
		}
		// A hunk: from ctx lines before this change to ctx lines after the last change
		// that is no more than 2*ctx unchanged lines from the one before it.
		start, end := max(0, i-ctx), i
		for j := i; j < len(all); j++ {
			if all[j].op != ' ' {
				end = j + 1
			} else if j-end >= 2*ctx {
				break
			}
		}
		end = min(len(all), end+ctx)
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", span(oldAt[start], oldAt[end]-oldAt[start]), span(newAt[start], newAt[end]-newAt[start]))
		for _, l := range all[start:end] {
			out.WriteByte(l.op)
			out.WriteString(l.text)
			out.WriteByte('\n')
		}
		i = end
	}
	return out.String()
}

// span is a hunk header's "l,n": l is 1-based, or the line before an empty range.
func span(at, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", at)
	}
	return fmt.Sprintf("%d,%d", at+1, n)
}
