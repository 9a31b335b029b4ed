package tools

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"hearth/backend/internal/clip"
)

const (
	maxGrepFiles = 200
	maxGrepLines = 400
)

type grepArgs struct {
	Pattern         string `json:"pattern"`
	Path            string `json:"path,omitempty" jsonschema:"file or folder, default workspace"`
	Glob            string `json:"glob,omitempty" jsonschema:"file filter, e.g. *.go"`
	OutputMode      string `json:"output_mode,omitempty" jsonschema:"default files_with_matches" enum:"files_with_matches,content,count"`
	Context         int    `json:"context,omitempty" jsonschema:"lines around matches (content mode)" min:"0" max:"20"`
	CaseInsensitive bool   `json:"case_insensitive,omitempty"`
}

func grepTool(b fsBase) Tool {
	return New(Def[grepArgs]{Name: "grep", Short: "Search file contents by regex.", ReadOnly: true, Run: b.grep,
		Description: "Search file contents with a regular expression (RE2). Honours .gitignore, skips binary files."})
}

type grepFile struct {
	rel   string
	lines []string
	hits  []int // 0-based line indexes that match
}

func (t fsBase) grep(ctx context.Context, a grepArgs) (Result, error) {
	pattern := a.Pattern
	expr := "(?m)" + pattern
	if a.CaseInsensitive {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return Result{}, fmt.Errorf("grep: invalid regular expression %q: %v; Go RE2 syntax, escape ( ) [ ] . * + ? with \\", pattern, err)
	}
	root, err := t.searchRoot(a.Path)
	if err != nil {
		return Result{}, fmt.Errorf("grep: %w", err)
	}
	var filter func(string) bool
	if g := a.Glob; g != "" {
		if filter, err = globMatcher(g); err != nil {
			return Result{}, fmt.Errorf("grep: %w", err)
		}
	}
	mode := cmp.Or(a.OutputMode, "files_with_matches")

	acc := t.policy.access()
	defer acc.close()
	var files []grepFile
	visit := func(abs string) bool {
		rel, _ := filepath.Rel(root, abs)
		if filter != nil && !filter(filepath.ToSlash(rel)) {
			return true
		}
		// Read through the confined root: the walk only proposes names.
		data, _, err := acc.readFile(abs, maxGrepFileLen)
		if err != nil || isBinary(data[:min(len(data), sniffLen)]) || !re.Match(data) {
			return true
		}
		gf := grepFile{rel: t.policy.display(abs)}
		if mode != "files_with_matches" {
			gf.lines = strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
			for i, l := range gf.lines {
				if re.MatchString(strings.TrimSuffix(l, "\r")) {
					gf.hits = append(gf.hits, i)
				}
			}
		}
		files = append(files, gf)
		return true
	}
	if fi, _, err := acc.stat(root); err == nil && !fi.IsDir() {
		visit(root) // a single file
	} else if err := walkFiles(ctx, t.policy, root, visit); err != nil {
		return Result{}, fmt.Errorf("grep %s: %w", pattern, err)
	}
	if len(files) == 0 {
		return Text(fmt.Sprintf("No matches for %q under %s.", pattern, t.policy.display(root))), nil
	}
	sort.Slice(files, func(i, j int) bool { return files[i].rel < files[j].rel })
	budget := t.maxChars - 200
	var b strings.Builder
	cut := false
	if mode == "content" {
		cut = writeGrepContent(&b, files, a.Context, budget)
	} else {
		total := 0
		for i, f := range files {
			total += len(f.hits)
			line := f.rel + "\n"
			if mode == "count" {
				line = fmt.Sprintf("%s:%d\n", f.rel, len(f.hits))
			}
			if cut = cut || i >= maxGrepFiles || b.Len()+len(line) > budget; !cut {
				b.WriteString(line)
			}
		}
		if mode == "count" {
			fmt.Fprintf(&b, "[%d matching lines in %d files]", total, len(files))
		}
	}
	out := strings.TrimSuffix(b.String(), "\n")
	if cut {
		out += fmt.Sprintf("\n[Output cut; %d files matched. Narrow with path=, glob= or a stricter pattern, or use output_mode=count first.]", len(files))
	}
	return Text(out), nil
}

// writeGrepContent prints "file:line:text" for matches and "file-line-text" for
// context, with "--" between separate groups, as grep -n does. It reports
// whether output was cut.
func writeGrepContent(b *strings.Builder, files []grepFile, ctxLines, budget int) bool {
	printed := 0
	for _, f := range files {
		last := -1 // last line index printed in this file
		for _, h := range f.hits {
			from, to := max(h-ctxLines, last+1), min(h+ctxLines, len(f.lines)-1)
			if ctxLines > 0 && printed > 0 && (last < 0 || from > last+1) {
				b.WriteString("--\n") // between groups and between files
			}
			for i := from; i <= to; i++ {
				sep := "-"
				if isHit(f.hits, i) {
					sep = ":"
				}
				line := fmt.Sprintf("%s%s%d%s%s\n", f.rel, sep, i+1, sep, clip.Runes(strings.TrimSuffix(f.lines[i], "\r"), 500))
				if printed >= maxGrepLines || b.Len()+len(line) > budget {
					return true
				}
				b.WriteString(line)
				printed++
				last = i
			}
		}
	}
	return false
}

func isHit(hits []int, i int) bool {
	j := sort.SearchInts(hits, i)
	return j < len(hits) && hits[j] == i
}
