package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// call runs a built-in through a Registry, as the agent will.
func (s *sandbox) call(t *testing.T, name string, args any) Result {
	t.Helper()
	r := NewRegistry(RegistryOptions{})
	if err := r.Register(Builtins(Options{Policy: *s.policy, MaxResultChars: 2000})...); err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return r.Call(context.Background(), name, raw)
}

func wantOK(t *testing.T, r Result, contains ...string) {
	t.Helper()
	if r.IsError {
		t.Fatalf("unexpected error: %s", r.Content)
	}
	for _, c := range contains {
		if !strings.Contains(r.Content, c) {
			t.Fatalf("result lacks %q:\n%s", c, r.Content)
		}
	}
}

func wantErr(t *testing.T, r Result, contains ...string) {
	t.Helper()
	if !r.IsError {
		t.Fatalf("want error, got: %s", r.Content)
	}
	for _, c := range contains {
		if !strings.Contains(r.Content, c) {
			t.Fatalf("error lacks %q:\n%s", c, r.Content)
		}
	}
}

func TestReadFileNumberedAndPaged(t *testing.T) {
	s := newSandbox(t)
	var b strings.Builder
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&b, "line number %03d with some padding text\n", i)
	}
	s.write(t, filepath.Join(s.ws, "big.txt"), b.String())

	r := s.call(t, "read_file", map[string]any{"path": "hello.txt"})
	wantOK(t, r, "1\thello\n2\tworld\n")

	// maxResultChars=2000 in these tests: the first page must stop under it and say how to go on.
	r = s.call(t, "read_file", map[string]any{"path": "big.txt"})
	wantOK(t, r, "1\tline number 001", "of 300. Read on with read_file(path=\"big.txt\", offset=")
	if len(r.Content) > 2000 {
		t.Fatalf("page is %d chars, over maxResultChars", len(r.Content))
	}
	// Follow the hint page by page until the end; every line is seen once.
	seen, offset := 0, 1
	for pages := 0; pages < 50; pages++ {
		r = s.call(t, "read_file", map[string]any{"path": "big.txt", "offset": offset})
		wantOK(t, r)
		seen += strings.Count(r.Content, "with some padding")
		var next int
		if i := strings.LastIndex(r.Content, "offset="); i >= 0 {
			fmt.Sscanf(r.Content[i:], "offset=%d", &next)
		}
		if next == 0 {
			break
		}
		offset = next
	}
	if seen != 300 {
		t.Fatalf("paging saw %d lines, want 300", seen)
	}
	r = s.call(t, "read_file", map[string]any{"path": "big.txt", "offset": "10", "limit": "3"})
	wantOK(t, r, "10\tline number 010", "12\tline number 012", "Showing lines 10-12 of 300", "offset=13")
	if strings.Contains(r.Content, "line number 013") {
		t.Fatal("limit not honoured")
	}
	wantErr(t, s.call(t, "read_file", map[string]any{"path": "big.txt", "offset": 400}), "past the end of the file (300 lines)")
	wantErr(t, s.call(t, "read_file", map[string]any{"path": "nope.txt"}), "no such file", "list_dir or glob")
	wantErr(t, s.call(t, "read_file", map[string]any{"path": "."}), "is a directory; use list_dir")
	s.write(t, filepath.Join(s.ws, "empty.txt"), "")
	wantOK(t, s.call(t, "read_file", map[string]any{"path": "empty.txt"}), "(empty file)")
	s.write(t, filepath.Join(s.ws, "long.txt"), strings.Repeat("x", 5000)+"\n")
	r = s.call(t, "read_file", map[string]any{"path": "long.txt"})
	wantOK(t, r, "[line cut at 1000 of 5000 chars]") // half of maxResultChars=2000
	// A line far longer than the read buffer is cut without being held whole.
	s.write(t, filepath.Join(s.ws, "huge.txt"), "a\r\n"+strings.Repeat("z", 200000)+"\r\nlast")
	r = s.call(t, "read_file", map[string]any{"path": "huge.txt"})
	wantOK(t, r, "1\ta\n2\tzzz", "[line cut at 1000 of 200000 chars]\n3\tlast")
}

func TestReadFileImageBinaryDevice(t *testing.T) {
	s := newSandbox(t)
	var png1 bytes.Buffer
	if err := png.Encode(&png1, image.NewRGBA(image.Rect(0, 0, 4, 3))); err != nil {
		t.Fatal(err)
	}
	s.write(t, filepath.Join(s.ws, "pic.png"), png1.String())
	r := s.call(t, "read_file", map[string]any{"path": "pic.png"})
	wantOK(t, r, "is an image (image/png", "4x3 pixels", "not shown")
	if strings.Contains(r.Content, "PNG") {
		t.Fatal("image bytes leaked into the result")
	}
	s.write(t, filepath.Join(s.ws, "prog.bin"), "\x7fELF\x00\x01\x02binary")
	wantErr(t, s.call(t, "read_file", map[string]any{"path": "prog.bin"}), "binary file")
	wantErr(t, s.call(t, "read_file", map[string]any{"path": "/dev/zero"}), "device or kernel file")
	wantErr(t, s.call(t, "read_file", map[string]any{"path": "/proc/self/environ"}), "device or kernel file")
	wantErr(t, s.call(t, "read_file", map[string]any{"path": "~/.ssh/id_rsa"}), "outside the workspace")
	wantErr(t, s.call(t, "read_file", map[string]any{"path": "../outside/secret.txt"}), "outside the workspace")
}

func TestWriteFile(t *testing.T) {
	s := newSandbox(t)
	wantOK(t, s.call(t, "write_file", map[string]any{"path": "a/b/c.txt", "content": "x\ny\n"}), "Created a/b/c.txt (4 bytes, 2 lines)")
	got, err := os.ReadFile(filepath.Join(s.ws, "a/b/c.txt"))
	if err != nil || string(got) != "x\ny\n" {
		t.Fatalf("content %q, %v", got, err)
	}
	// Overwrite keeps the mode.
	script := filepath.Join(s.ws, "run.sh")
	if err := os.WriteFile(script, []byte("old"), 0o750); err != nil {
		t.Fatal(err)
	}
	wantOK(t, s.call(t, "write_file", map[string]any{"path": "run.sh", "content": "#!/bin/sh\n"}), "Overwrote run.sh")
	if st, _ := os.Stat(script); st.Mode().Perm() != 0o750 {
		t.Fatalf("mode %v, want 0750", st.Mode().Perm())
	}
	// No temp files are left behind.
	entries, _ := os.ReadDir(s.ws)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Fatalf("temp file left: %s", e.Name())
		}
	}
	wantErr(t, s.call(t, "write_file", map[string]any{"path": "config.json", "content": "{}"}), "protected path")
	wantOK(t, s.call(t, "read_file", map[string]any{"path": "config.json"}), `{"k":1}`)
	wantErr(t, s.call(t, "write_file", map[string]any{"path": "../outside/x.txt", "content": "x"}), "outside the workspace")
	wantErr(t, s.call(t, "write_file", map[string]any{"path": "a", "content": "x"}), "is a directory")
	wantErr(t, s.call(t, "write_file", map[string]any{"path": "x.txt"}), "content: required field is missing")
	if _, err := os.Stat(filepath.Join(s.outside, "x.txt")); err == nil {
		t.Fatal("write escaped the workspace")
	}
}

func TestEditFile(t *testing.T) {
	s := newSandbox(t)
	code := "func a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 1\n}\n"
	path := filepath.Join(s.ws, "m.go")
	s.write(t, path, code)
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}

	// Two matches without replace_all: refused, with the lines named.
	wantErr(t, s.call(t, "edit_file", map[string]any{"path": "m.go", "old_text": "return 1", "new_text": "return 3"}),
		"matches 2 times (at lines 2, 6)", "replace_all=true")
	wantOK(t, s.call(t, "edit_file", map[string]any{"path": "m.go", "old_text": "func a() {\n\treturn 1", "new_text": "func a() {\n\treturn 2"}),
		"replaced 1 occurrence at line 1")
	wantOK(t, s.call(t, "edit_file", map[string]any{"path": "m.go", "old_text": "return", "new_text": "yield", "replace_all": "true"}),
		"replaced 2 occurrences (first at line 2)")
	got, _ := os.ReadFile(path)
	if want := "func a() {\n\tyield 2\n}\n\nfunc b() {\n\tyield 1\n}\n"; string(got) != want {
		t.Fatalf("file now %q, want %q", got, want)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", st.Mode().Perm())
	}

	// No exact match: the closest lines are shown with their numbers.
	r := s.call(t, "edit_file", map[string]any{"path": "m.go", "old_text": "func b() {\n    yield 1\n}", "new_text": "x"})
	wantErr(t, r, "old_text not found", "Closest match at line 5", "differing only in whitespace", "5\tfunc b() {", "6\t\tyield 1")
	r = s.call(t, "edit_file", map[string]any{"path": "m.go", "old_text": "func b() {\n\tyeld 1", "new_text": "x"})
	wantErr(t, r, "Closest match at line 5", "% similar")
	wantErr(t, s.call(t, "edit_file", map[string]any{"path": "m.go", "old_text": "zzzz qqqq wwww", "new_text": "x"}), "Nothing similar was found")
	wantErr(t, s.call(t, "edit_file", map[string]any{"path": "m.go", "old_text": "", "new_text": "x"}), "old_text is empty")
	wantErr(t, s.call(t, "edit_file", map[string]any{"path": "config.json", "old_text": "1", "new_text": "2"}), "protected path")
	wantErr(t, s.call(t, "edit_file", map[string]any{"path": "missing.go", "old_text": "a", "new_text": "b"}), "no such file")

	// CRLF files still match text written with \n.
	s.write(t, filepath.Join(s.ws, "win.txt"), "one\r\ntwo\r\n")
	wantOK(t, s.call(t, "edit_file", map[string]any{"path": "win.txt", "old_text": "one\ntwo", "new_text": "1\n2"}))
	if got, _ := os.ReadFile(filepath.Join(s.ws, "win.txt")); string(got) != "1\r\n2\r\n" {
		t.Fatalf("crlf edit gave %q", got)
	}
}

func TestListDir(t *testing.T) {
	s := newSandbox(t)
	s.write(t, filepath.Join(s.ws, "src/main.go"), "package main\n")
	s.write(t, filepath.Join(s.ws, ".git/HEAD"), "ref\n")
	s.write(t, filepath.Join(s.ws, "node_modules/x/index.js"), "x\n")
	r := s.call(t, "list_dir", map[string]any{"path": "."})
	wantOK(t, r, "config.json\nhello.txt\nnode_modules/\nsrc/")
	r = s.call(t, "list_dir", map[string]any{"path": ".", "recursive": true})
	wantOK(t, r, "src/\nsrc/main.go")
	if strings.Contains(r.Content, ".git") || strings.Contains(r.Content, "index.js") {
		t.Fatalf("recursive listing entered .git or node_modules:\n%s", r.Content)
	}
	r = s.call(t, "list_dir", map[string]any{"path": ".", "max_entries": 2})
	wantOK(t, r, "[2 of 5 entries shown")
	wantErr(t, s.call(t, "list_dir", map[string]any{"path": "hello.txt"}), "not a folder")
	wantErr(t, s.call(t, "list_dir", map[string]any{"path": ".."}), "outside the workspace")
	wantErr(t, s.call(t, "list_dir", map[string]any{"path": "~/.ssh"}), "outside the workspace")
}
