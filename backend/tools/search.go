package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/boyter/gocodewalker"
	"github.com/boyter/gocodewalker/go-gitignore"

	"hearth/backend/internal/confined"
	"hearth/backend/internal/safefile"
)

const (
	maxGlobResults = 200
	maxGrepFileLen = 20 << 20 // larger files are skipped by grep
)

// walkFiles calls fn with every file under root that a search should see:
// .gitignore and .ignore honoured, .git, node_modules and Hearth's own .hearth
// folder skipped, and symlinks leading outside the sandbox dropped. fn returns
// false to stop the walk.
func walkFiles(ctx context.Context, pol *Policy, root string, fn func(abs string) bool) error {
	ch := make(chan *gocodewalker.File, 256)
	w := gocodewalker.NewFileWalker(root, ch)
	w.IncludeHidden = true
	w.ExcludeDirectory = []string{".git", "node_modules", ".hearth"}
	w.SetErrorHandler(func(error) bool { return true }) // unreadable folders are skipped
	outer := ancestorIgnores(root, pol.workspaceDir())
	errc := make(chan error, 1)
	go func() { errc <- w.Start() }()
	stopped := false
	for f := range ch { // always drained, so the walker's goroutines end
		if stopped || ignoredByAncestors(outer, root, f.Location) {
			continue
		}
		if ctx.Err() != nil {
			w.Terminate()
			stopped = true
			continue
		}
		if fi, err := os.Lstat(f.Location); err != nil || fi.Mode()&fs.ModeSymlink != 0 {
			if err != nil {
				continue
			}
			if _, err := pol.Resolve(f.Location); err != nil {
				continue
			}
		}
		if !fn(f.Location) {
			w.Terminate()
			stopped = true
		}
	}
	err := <-errc
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, gocodewalker.ErrTerminateWalk) {
		return nil
	}
	return err
}

// ancestorIgnores reads the .gitignore files of the folders between the
// workspace and root (exclusive), outermost first: the walker only sees those
// inside root, but a search of a subfolder must honour the project's ignores too.
func ancestorIgnores(root, ws string) []gitignore.GitIgnore {
	if root == ws || !confined.Within(root, ws) {
		return nil
	}
	var out []gitignore.GitIgnore
	for d := filepath.Dir(root); ; d = filepath.Dir(d) {
		// The workspace is the agent's to write: a pipe or a huge file named
		// .gitignore must not hang or sink the search.
		if c, err := safefile.ReadFile(filepath.Join(d, ".gitignore"), maxIgnoreBytes); err == nil {
			out = append([]gitignore.GitIgnore{gitignore.New(bytes.NewReader(c), d, nil)}, out...)
		}
		if d == ws || d == filepath.Dir(d) {
			return out
		}
	}
}

// maxIgnoreBytes bounds an ancestor's .gitignore.
const maxIgnoreBytes = 1 << 20

// ignoredByAncestors applies outer ignores to every folder below root on the
// way to file, and to file itself; the last matching pattern wins.
func ignoredByAncestors(outer []gitignore.GitIgnore, root, file string) bool {
	if len(outer) == 0 {
		return false
	}
	rel, err := filepath.Rel(root, file)
	if err != nil {
		return false
	}
	parts := strings.Split(rel, string(filepath.Separator))
	p := root
	for i, part := range parts {
		p = filepath.Join(p, part)
		ignored := false
		for _, ig := range outer {
			if m := ig.Absolute(p, i < len(parts)-1); m != nil {
				ignored = m.Ignore()
			}
		}
		if ignored {
			return true
		}
	}
	return false
}

// globMatcher matches a workspace-style pattern against a path relative to the
// search root. A pattern without "/" matches file names at any depth.
func globMatcher(pattern string) (func(rel string) bool, error) {
	pattern = filepath.ToSlash(pattern)
	if !doublestar.ValidatePattern(pattern) {
		return nil, fmt.Errorf("invalid glob pattern %q; use forms like *.go, **/*.md, src/**/test_*.py", pattern)
	}
	if !strings.Contains(pattern, "/") {
		return func(rel string) bool {
			ok, _ := doublestar.Match(pattern, path.Base(rel))
			return ok
		}, nil
	}
	pattern = strings.TrimPrefix(pattern, "./")
	return func(rel string) bool {
		ok, _ := doublestar.Match(pattern, rel)
		return ok
	}, nil
}

// searchRoot resolves the path argument of glob/grep (default: workspace).
func (b fsBase) searchRoot(p string) (string, error) {
	if strings.TrimSpace(p) == "" {
		p = "."
	}
	return b.policy.Resolve(p)
}

type globArgs struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path,omitempty" jsonschema:"folder, default workspace"`
}

func globTool(b fsBase) Tool {
	return New(Def[globArgs]{Name: "glob", Short: "Find files by glob pattern.", ReadOnly: true, Run: b.glob,
		Description: "Find files by glob pattern (e.g. **/*.go; no / = any depth), newest first. Honours .gitignore."})
}

func (t fsBase) glob(ctx context.Context, a globArgs) (Result, error) {
	pattern, dir := a.Pattern, a.Path
	if len(pattern) > maxPathBytes {
		return Result{}, fmt.Errorf("glob pattern is %d bytes long; a path is at most %d bytes: give a shorter pattern", len(pattern), maxPathBytes)
	}
	if filepath.IsAbs(pattern) {
		// "/abs/dir/**/*.md": walk the fixed folder, match the rest.
		base, pat := doublestar.SplitPattern(filepath.ToSlash(pattern))
		dir, pattern = base, pat
	}
	root, err := t.searchRoot(dir)
	if err != nil {
		return Result{}, fmt.Errorf("glob: %w", err)
	}
	match, err := globMatcher(pattern)
	if err != nil {
		return Result{}, fmt.Errorf("glob: %w", err)
	}
	// Binary files are noise in a broad listing, but "*.png" asks for them.
	lastSeg := pattern[strings.LastIndexByte(pattern, '/')+1:]
	wantBinary := strings.Contains(lastSeg, ".") && !strings.HasSuffix(lastSeg, "*")
	type hit struct {
		path string
		mod  time.Time
	}
	var hits []hit
	acc := t.policy.access()
	defer acc.close()
	err = walkFiles(ctx, t.policy, root, func(abs string) bool {
		rel, _ := filepath.Rel(root, abs)
		if !match(filepath.ToSlash(rel)) {
			return true
		}
		fi, binary, err := sniff(acc, abs)
		if err != nil || (!wantBinary && binary) {
			return true
		}
		hits = append(hits, hit{abs, fi.ModTime()})
		return true
	})
	if err != nil {
		return Result{}, fmt.Errorf("glob %s: %w", pattern, err)
	}
	if len(hits) == 0 {
		return Text(fmt.Sprintf("No files match %q under %s.", pattern, t.policy.display(root))), nil
	}
	sort.Slice(hits, func(i, j int) bool {
		if !hits[i].mod.Equal(hits[j].mod) {
			return hits[i].mod.After(hits[j].mod)
		}
		return hits[i].path < hits[j].path
	})
	var b strings.Builder
	shown := 0
	for _, h := range hits {
		line := t.policy.display(h.path) + "\n"
		if shown >= maxGlobResults || b.Len()+len(line) > t.maxChars-200 {
			break
		}
		b.WriteString(line)
		shown++
	}
	out := strings.TrimSuffix(b.String(), "\n")
	if shown < len(hits) {
		out += fmt.Sprintf("\n[%d of %d files shown; use a narrower pattern or path.]", shown, len(hits))
	}
	return Text(out), nil
}

// sniff opens a file through the confined root and tells whether its start
// looks binary; folders and files that cannot be opened are errors.
func sniff(acc *access, abs string) (fs.FileInfo, bool, error) {
	f, fi, _, err := acc.open(abs)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	if !fi.Mode().IsRegular() {
		return nil, false, fmt.Errorf("%s is not a file", abs)
	}
	buf := make([]byte, sniffLen)
	n, _ := f.Read(buf)
	return fi, isBinary(buf[:n]), nil
}
