package tools

import (
	"cmp"
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"hearth/backend/internal/clip"
)

const defaultMaxEntries = 200

type listDirArgs struct {
	Path       string `json:"path"`
	Recursive  bool   `json:"recursive,omitempty"`
	MaxEntries int    `json:"max_entries,omitempty" jsonschema:"default 200" min:"1"`
}

func listDirTool(b fsBase) Tool {
	return New(Def[listDirArgs]{Name: "list_dir", Short: "List a folder.", ReadOnly: true, Run: b.listDir,
		Description: "List a folder; folders end with /. recursive skips .git and node_modules."})
}

func (t fsBase) listDir(ctx context.Context, a listDirArgs) (Result, error) {
	path := a.Path
	acc := t.policy.access()
	defer acc.close()
	root, dir, abs, err := acc.at(path, false)
	if err != nil {
		return Result{}, fmt.Errorf("list_dir: %w", err)
	}
	st, err := root.Stat(dir)
	if err != nil {
		return Result{}, fmt.Errorf("list_dir %s: %w", path, acc.why(path, err))
	}
	if !st.IsDir() {
		return Result{}, fmt.Errorf("list_dir %s: not a folder; use read_file for files", path)
	}
	max := cmp.Or(a.MaxEntries, defaultMaxEntries)
	var entries []string
	total := 0
	add := func(rel string, d fs.DirEntry) {
		total++
		if len(entries) >= max {
			return
		}
		switch {
		case d.IsDir():
			rel += "/"
		case d.Type()&fs.ModeSymlink != 0:
			rel += "@"
		}
		entries = append(entries, filepath.ToSlash(rel))
	}
	if a.Recursive {
		// Walked through the confined root: a folder swapped for a
		// symlink mid-walk is not entered.
		err = fs.WalkDir(root.FS(), dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || p == dir {
				return nil // unreadable entries are skipped, not fatal
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if d.IsDir() && skipDir(d.Name()) {
				return fs.SkipDir
			}
			add(strings.TrimPrefix(p, dir+"/"), d)
			return nil
		})
	} else {
		var des []fs.DirEntry
		des, err = root.ReadDir(dir)
		for _, d := range des {
			add(d.Name(), d)
		}
	}
	if err != nil {
		return Result{}, fmt.Errorf("list_dir %s: %w", path, err)
	}
	sort.Strings(entries)
	if len(entries) == 0 {
		return Text(fmt.Sprintf("%s is empty.", path)), nil
	}
	out := strings.Join(entries, "\n")
	if len(out) > t.maxChars-200 {
		out = cutAtLine(out, t.maxChars-200)
		entries = strings.Split(out, "\n")
	}
	if total > len(entries) {
		out += fmt.Sprintf("\n[%d of %d entries shown; raise max_entries or list a subfolder.]", len(entries), total)
	}
	return Result{Content: out, Meta: map[string]string{MetaPath: abs}}, nil
}

// skipDir names folders that searches and recursive listings never enter.
func skipDir(name string) bool {
	return name == ".git" || name == "node_modules"
}

// cutAtLine cuts s to at most n bytes, at a line end when possible.
func cutAtLine(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = clip.Prefix(s, n)
	if i := strings.LastIndexByte(s, '\n'); i > 0 {
		return s[:i]
	}
	return s
}
