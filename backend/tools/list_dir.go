package tools

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

const defaultMaxEntries = 200

type listDirTool struct{ fsBase }

func (t *listDirTool) Name() string             { return "list_dir" }
func (t *listDirTool) ShortDescription() string { return "List a folder." }
func (t *listDirTool) Description() string {
	return "List a folder; folders end with /. recursive skips .git and node_modules."
}
func (t *listDirTool) Parameters() *jsonschema.Schema {
	return object([]string{"path"}, map[string]*jsonschema.Schema{
		"path":        str(""),
		"recursive":   boolean(""),
		"max_entries": integer("default 200", 1, 0),
	})
}
func (t *listDirTool) ReadOnly() bool  { return true }
func (t *listDirTool) Exclusive() bool { return false }

func (t *listDirTool) Execute(ctx context.Context, args Args) (Result, error) {
	path := args.String("path")
	abs, err := t.policy.Resolve(path)
	if err != nil {
		return Result{}, fmt.Errorf("list_dir: %w", err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return Result{}, fmt.Errorf("list_dir %s: %w", path, err)
	}
	if !st.IsDir() {
		return Result{}, fmt.Errorf("list_dir %s: not a folder; use read_file for files", path)
	}
	max := args.Int("max_entries", defaultMaxEntries)
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
	if args.Bool("recursive") {
		err = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
			if err != nil || p == abs {
				return nil // unreadable entries are skipped, not fatal
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if d.IsDir() && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			rel, _ := filepath.Rel(abs, p)
			add(rel, d)
			return nil
		})
	} else {
		var des []fs.DirEntry
		des, err = os.ReadDir(abs)
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
	s = s[:n]
	if i := strings.LastIndexByte(s, '\n'); i > 0 {
		return s[:i]
	}
	return strings.ToValidUTF8(s, "")
}
