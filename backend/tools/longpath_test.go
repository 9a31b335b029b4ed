package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"hearth/backend/internal/safefile/safefiletest"
)

// A 600 kB path (it once kept a tool busy for two minutes) is answered at once by
// every file tool, with a short error the model can act on (not the path repeated), and
// the tools keep working.
func TestHugePathAnsweredAtOnce(t *testing.T) {
	s := newSandbox(t)
	r := NewRegistry(RegistryOptions{})
	if err := r.Register(Builtins(Options{Policy: *s.policy})...); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, huge := range []string{strings.Repeat("a/", 300_000), strings.Repeat("../", 200_000) + "etc/passwd", strings.Repeat("x", 600_000)} {
		for tool, args := range map[string]map[string]any{
			"read_file":  {"path": huge},
			"write_file": {"path": huge, "content": "x"},
			"edit_file":  {"path": huge, "old_text": "a", "new_text": "b"},
			"list_dir":   {"path": huge},
			"glob":       {"pattern": huge},
			"grep":       {"pattern": "a", "path": huge},
		} {
			raw, _ := json.Marshal(args)
			var res Result
			start := time.Now()
			safefiletest.Answers(t, tool, func() { res = r.Call(ctx, tool, raw) })
			if !res.IsError || strings.Contains(res.Content, "panic") || len(res.Content) > 2000 {
				t.Errorf("%s with a %d-byte path: %.200q", tool, len(huge), res.Content)
			}
			t.Logf("%s: %s, %.120q", tool, time.Since(start).Round(time.Millisecond), res.Content)
		}
	}
	if res := r.Call(ctx, "read_file", json.RawMessage(`{"path":"hello.txt"}`)); !res.OK() || !strings.Contains(res.Content, "world") {
		t.Errorf("read_file after: %+v", res)
	}
}

// BenchmarkHugePath is how long a file tool takes to refuse a 600 kB path (make bench;
// target: well under 2 s, where it once took two minutes).
func BenchmarkHugePath(b *testing.B) {
	s := newSandbox(b)
	r := NewRegistry(RegistryOptions{})
	if err := r.Register(Builtins(Options{Policy: *s.policy})...); err != nil {
		b.Fatal(err)
	}
	raw, _ := json.Marshal(map[string]any{"path": strings.Repeat("../", 200_000) + "etc/passwd", "content": "x"})
	b.ResetTimer()
	for b.Loop() {
		if res := r.Call(context.Background(), "write_file", raw); !res.IsError {
			b.Fatal("a 600 kB path was not refused")
		}
	}
}
