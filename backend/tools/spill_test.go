package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSpill(t *testing.T) {
	s := newSandbox(t)
	var b strings.Builder
	for i := 1; i <= 2000; i++ {
		fmt.Fprintf(&b, "result line %d\n", i)
	}
	full := b.String()

	short, path, err := Spill(s.ws, "sess-1", "call-1", "small", 16000)
	if err != nil || short != "small" || path != "" {
		t.Fatalf("small result spilled: %q %q %v", short, path, err)
	}
	res, err := SpillResult(s.ws, "sess/1", "../call:2", Result{Content: full, Meta: map[string]string{"a": "b"}}, 4000)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(s.ws, ".hearth", "results", "sess_1", "_call_2.txt")
	if res.Meta[MetaSpilledPath] != want || res.Meta["a"] != "b" {
		t.Fatalf("meta %v, want path %s", res.Meta, want)
	}
	if len(res.Content) > 4000 {
		t.Fatalf("spilled text is %d chars, over the limit", len(res.Content))
	}
	for _, w := range []string{"result line 1\n", "the full text is in .hearth/results/sess_1/_call_2.txt",
		`read_file(path=".hearth/results/sess_1/_call_2.txt", offset=`} {
		if !strings.Contains(res.Content, w) {
			t.Fatalf("spilled text lacks %q:\n%s", w, res.Content)
		}
	}
	if got, _ := os.ReadFile(want); string(got) != full {
		t.Fatal("spilled file differs from the result")
	}
	// The hint works: read_file pages on from the line after the head.
	var offset int
	i := strings.LastIndex(res.Content, "offset=")
	fmt.Sscanf(res.Content[i:], "offset=%d", &offset)
	next := s.call(t, "read_file", map[string]any{"path": ".hearth/results/sess_1/_call_2.txt", "offset": offset, "limit": 2})
	wantOK(t, next, fmt.Sprintf("%d\tresult line %d", offset, offset))
	if strings.Contains(res.Content, fmt.Sprintf("result line %d\n", offset)) {
		t.Fatal("head and next page overlap")
	}

	// One huge line is wrapped in the file so read_file can page through it.
	_, path, err = Spill(s.ws, "s", "wide", strings.Repeat("y", 5000), 1000)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if n := strings.Count(string(data), "\n"); n != 4 || strings.Count(string(data), "y") != 5000 {
		t.Fatalf("wide line wrapped into %d breaks", n)
	}
}

func TestMasker(t *testing.T) {
	var none *Masker
	if none.Mask("abc") != "abc" || NewMasker("", "ab", " ") != nil {
		t.Fatal("nil or trivial masker must pass text through")
	}
	m := NewMasker("secret", "secret-long-key", "secret")
	got := m.Mask("a secret-long-key and a secret, secretive")
	if want := "a [redacted] and a [redacted], [redacted]ive"; got != want {
		t.Fatalf("Mask = %q, want %q", got, want)
	}
	r := m.MaskResult(Result{Content: "secret", Meta: map[string]string{"p": "/x/secret"}})
	if r.Content != Redacted || r.Meta["p"] != "/x/"+Redacted {
		t.Fatalf("MaskResult = %+v", r)
	}
}
