package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// serve runs the command with args and returns its base URL.
func serve(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, args, pw)
		pw.Close()
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("run: %v", err)
			}
		case <-time.After(3 * time.Second):
			t.Error("fakeollama did not stop on cancel")
		}
	})
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("no listening line: %v", err)
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "fakeollama listening on ")
	if !ok {
		t.Fatalf("unexpected first line %q", line)
	}
	return url
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func TestDefaultScript(t *testing.T) {
	url := serve(t, "-addr", "127.0.0.1:0")
	if tags := get(t, url+"/api/tags"); !strings.Contains(tags, `"name":"qwen3:4b"`) || !strings.Contains(tags, "nomic-embed-text") {
		t.Errorf("tags %s", tags)
	}
	resp, err := http.Post(url+"/api/chat", "application/json", strings.NewReader(`{"model":"qwen3:4b","messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(b), `" said:"`) || !strings.Contains(string(b), `"done":true`) {
		t.Errorf("chat %s", b)
	}
	if chats := get(t, url+"/_fake/chats"); !strings.Contains(chats, `"role":"user","content":"hi"`) {
		t.Errorf("recorded chats %s", chats)
	}
}

func TestScriptFileAndErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(path, []byte(`{"models":[{"name":"m:1","family":"llama","capabilities":["completion"]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	url := serve(t, "-addr", "127.0.0.1:0", "-script", path)
	if tags := get(t, url+"/api/tags"); !strings.Contains(tags, `"name":"m:1"`) || strings.Contains(tags, "qwen3") {
		t.Errorf("tags %s", tags)
	}
	if err := run(context.Background(), []string{"-script", filepath.Join(t.TempDir(), "none.json")}, io.Discard); err == nil {
		t.Error("missing script accepted")
	}
	if err := run(context.Background(), []string{"-bogus"}, io.Discard); err == nil {
		t.Error("unknown flag accepted")
	}
}

func TestQueueReplies(t *testing.T) {
	url := serve(t, "-addr", "127.0.0.1:0")
	chat := func() string {
		resp, err := http.Post(url+"/api/chat", "application/json", strings.NewReader(`{"model":"qwen3:4b","messages":[{"role":"user","content":"hi"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	resp, err := http.Post(url+"/_fake/replies", "application/json",
		strings.NewReader(`[{"toolCalls":[{"name":"read_file","arguments":{"path":"a.md"}}]},{"content":"Queued answer."}]`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("queue: HTTP %d", resp.StatusCode)
	}
	if first := chat(); !strings.Contains(first, `"name":"read_file"`) {
		t.Errorf("first chat %s", first)
	}
	if second := chat(); !strings.Contains(second, `Queued`) || !strings.Contains(second, `answer.`) {
		t.Errorf("second chat %s", second)
	}
	if third := chat(); !strings.Contains(third, `" said:"`) {
		t.Errorf("after the queue the default reply should come back: %s", third)
	}
	resp, err = http.Post(url+"/_fake/replies", "application/json", strings.NewReader(`{"content":"not an array"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a non-array body: HTTP %d, want 400", resp.StatusCode)
	}
}
