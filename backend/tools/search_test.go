package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// searchTree lays out a small project with ignored, vendored and binary files.
func searchTree(t *testing.T) *sandbox {
	t.Helper()
	s := newSandbox(t)
	files := map[string]string{
		".gitignore":               "build/\n*.log\n",
		"src/main.go":              "package main\n\nfunc main() {\n\tprintln(\"Hello\")\n}\n",
		"src/util/strings.go":      "package util\n\n// Upper is a stub\nfunc Upper(s string) string { return s }\n",
		"src/util/strings_test.go": "package util\n// hello test\n",
		"docs/readme.md":           "# Docs\nhello docs\nmore\nlines\nhere\nhello again\n",
		"build/out.go":             "package build // hello ignored\n",
		"debug.log":                "hello log\n",
		"node_modules/m/index.js":  "hello vendored\n",
		".git/config":              "hello git\n",
		"assets/data.bin":          "hello\x00binary\x01",
	}
	for p, c := range files {
		s.write(t, filepath.Join(s.ws, p), c)
	}
	// Distinct modification times, newest last in this list.
	base := time.Now().Add(-time.Hour)
	for i, p := range []string{"src/util/strings_test.go", "src/main.go", "docs/readme.md", "src/util/strings.go"} {
		ts := base.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(filepath.Join(s.ws, p), ts, ts); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func TestGlob(t *testing.T) {
	s := searchTree(t)
	r := s.call(t, "glob", map[string]any{"pattern": "**/*.go"})
	wantOK(t, r)
	if want := "src/util/strings.go\nsrc/main.go\nsrc/util/strings_test.go"; r.Content != want {
		t.Fatalf("glob **/*.go newest first:\n%s\nwant:\n%s", r.Content, want)
	}
	// A pattern without "/" matches names at any depth; path narrows the walk.
	wantOK(t, s.call(t, "glob", map[string]any{"pattern": "*_test.go"}), "src/util/strings_test.go")
	r = s.call(t, "glob", map[string]any{"pattern": "*.go", "path": "src/util"})
	wantOK(t, r, "src/util/strings.go")
	if strings.Contains(r.Content, "main.go") {
		t.Fatalf("path not honoured: %s", r.Content)
	}
	wantOK(t, s.call(t, "glob", map[string]any{"pattern": "src/*.go"}), "src/main.go")
	wantOK(t, s.call(t, "glob", map[string]any{"pattern": filepath.Join(s.ws, "docs", "*.md")}), "docs/readme.md")
	// Ignored, vendored, .git and binary files are skipped.
	r = s.call(t, "glob", map[string]any{"pattern": "**/*"})
	for _, bad := range []string{"build/", "debug.log", "node_modules", ".git/", "data.bin"} {
		if strings.Contains(r.Content, bad) {
			t.Errorf("glob listed %s:\n%s", bad, r.Content)
		}
	}
	// Naming the extension asks for binary files too.
	wantOK(t, s.call(t, "glob", map[string]any{"pattern": "*.bin"}), "assets/data.bin")
	wantOK(t, s.call(t, "glob", map[string]any{"pattern": "*.rs"}), "No files match")
	wantErr(t, s.call(t, "glob", map[string]any{"pattern": "[a-"}), "invalid glob pattern")
	wantErr(t, s.call(t, "glob", map[string]any{"pattern": "*", "path": ".."}), "outside the workspace")
}

func TestGrepModes(t *testing.T) {
	s := searchTree(t)
	r := s.call(t, "grep", map[string]any{"pattern": "hello"})
	wantOK(t, r)
	if want := "docs/readme.md\nhello.txt\nsrc/util/strings_test.go"; r.Content != want {
		t.Fatalf("files_with_matches:\n%s\nwant:\n%s", r.Content, want)
	}
	r = s.call(t, "grep", map[string]any{"pattern": "hello", "case_insensitive": true})
	wantOK(t, r, "src/main.go")

	r = s.call(t, "grep", map[string]any{"pattern": "hello", "output_mode": "count"})
	wantOK(t, r, "docs/readme.md:2\nhello.txt:1\nsrc/util/strings_test.go:1\n[4 matching lines in 3 files]")

	r = s.call(t, "grep", map[string]any{"pattern": "^hello", "output_mode": "content", "path": "docs"})
	wantOK(t, r)
	if want := "docs/readme.md:2:hello docs\ndocs/readme.md:6:hello again"; r.Content != want {
		t.Fatalf("content:\n%s\nwant:\n%s", r.Content, want)
	}
	r = s.call(t, "grep", map[string]any{"pattern": "hello", "output_mode": "content", "path": "docs/readme.md", "context": "1"})
	wantOK(t, r)
	want := "docs/readme.md-1-# Docs\ndocs/readme.md:2:hello docs\ndocs/readme.md-3-more\n--\ndocs/readme.md-5-here\ndocs/readme.md:6:hello again"
	if r.Content != want {
		t.Fatalf("context:\n%s\nwant:\n%s", r.Content, want)
	}
	r = s.call(t, "grep", map[string]any{"pattern": "package", "glob": "*_test.go"})
	if r.Content != "src/util/strings_test.go" {
		t.Fatalf("glob filter: %s", r.Content)
	}
	// Searching a subfolder still honours the workspace's .gitignore.
	r = s.call(t, "grep", map[string]any{"pattern": "hello", "path": "src", "case_insensitive": true})
	if r.Content != "src/main.go\nsrc/util/strings_test.go" {
		t.Fatalf("subfolder grep ignored the parent .gitignore:\n%s", r.Content)
	}
	wantOK(t, s.call(t, "grep", map[string]any{"pattern": "nothing-here"}), "No matches")
	wantErr(t, s.call(t, "grep", map[string]any{"pattern": "func("}), "invalid regular expression")
	wantErr(t, s.call(t, "grep", map[string]any{"pattern": "x", "output_mode": "lines"}), `output_mode: "lines" is not one of`)
	wantErr(t, s.call(t, "grep", map[string]any{"pattern": "secret", "path": "../outside"}), "outside the workspace")
}

func TestGrepSkipsIgnoredBinaryAndEscapingLinks(t *testing.T) {
	s := searchTree(t)
	if err := os.Symlink(filepath.Join(s.outside, "secret.txt"), filepath.Join(s.ws, "src", "leak.txt")); err != nil {
		t.Fatal(err)
	}
	r := s.call(t, "grep", map[string]any{"pattern": "hello|secret", "case_insensitive": true})
	wantOK(t, r)
	for _, bad := range []string{"build/out.go", "debug.log", "node_modules", ".git", "data.bin", "leak.txt"} {
		if strings.Contains(r.Content, bad) {
			t.Errorf("grep searched %s:\n%s", bad, r.Content)
		}
	}
}

func TestGrepOutputBounded(t *testing.T) {
	s := newSandbox(t)
	var b strings.Builder
	for i := 0; i < 3000; i++ {
		b.WriteString("match this line please\n")
	}
	s.write(t, filepath.Join(s.ws, "many.txt"), b.String())
	r := s.call(t, "grep", map[string]any{"pattern": "match", "output_mode": "content"})
	wantOK(t, r, "[Output cut;")
	if len(r.Content) > 2000 {
		t.Fatalf("grep output %d chars, over maxResultChars", len(r.Content))
	}
}
