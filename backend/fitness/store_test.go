package fitness

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func result(model, digest string) Result {
	r := Result{Model: model, Digest: digest, ToolCalls: CallsStructured, Restraint: true, StopsAfterResult: true,
		ContextMax: 40960, TokensPerSecond: 12.5, Version: Version, CheckedAt: time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)}
	r.judge(false)
	return r
}

// A result is current for the digest it was taken with; a changed model (another
// digest) or an older probe set has none, so it is checked again.
func TestStoreKeysResultsByDigest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", FileName)
	s := NewStore(path)
	if _, ok := s.Get("ollama/qwen3:4b", "d1"); ok {
		t.Fatal("result in an empty store")
	}
	if err := s.Put("ollama/qwen3:4b", result("ollama/qwen3:4b", "d1")); err != nil {
		t.Fatal(err)
	}
	if r, ok := s.Get("ollama/qwen3:4b", "d1"); !ok || r.TokensPerSecond != 12.5 || r.Verdict != VerdictGood {
		t.Errorf("get %+v %v", r, ok)
	}
	if _, ok := s.Get("ollama/qwen3:4b", "d2"); ok {
		t.Error("a result for another digest counts as current")
	}
	if r, ok := s.Lookup("ollama/qwen3:4b"); !ok || r.Digest != "d1" {
		t.Errorf("lookup %+v %v", r, ok)
	}
	// Unknown digest (a provider without one): the stored result stands.
	if _, ok := s.Get("ollama/qwen3:4b", ""); !ok {
		t.Error("no result when the digest is unknown")
	}
	old := result("ollama/llama3.2:latest", "d3")
	old.Version = Version - 1
	if err := s.Put("ollama/llama3.2:latest", old); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Get("ollama/llama3.2:latest", "d3"); ok {
		t.Error("a result of an older probe set counts as current")
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("file %v %v", fi, err)
	}
}

// Two processes (the desktop and `hearth models check`) each add their model;
// neither loses the other's.
func TestStoreKeepsOtherWritersResults(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	desktop, cli := NewStore(path), NewStore(path)
	if err := desktop.Put("ollama/a:1b", result("ollama/a:1b", "da")); err != nil {
		t.Fatal(err)
	}
	if _, ok := cli.Get("ollama/a:1b", "da"); !ok {
		t.Fatal("second store does not see the first one's result")
	}
	if err := cli.Put("ollama/b:2b", result("ollama/b:2b", "db")); err != nil {
		t.Fatal(err)
	}
	if _, ok := desktop.Get("ollama/b:2b", "db"); !ok {
		t.Error("first store misses the second one's result")
	}
	if err := desktop.Put("ollama/c:3b", result("ollama/c:3b", "dc")); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"ollama/a:1b", "ollama/b:2b", "ollama/c:3b"} {
		if _, ok := NewStore(path).Lookup(k); !ok {
			t.Errorf("%s lost", k)
		}
	}
}

// A damaged file is a cache miss, never an error that stops a chat; the next
// check replaces it.
func TestStoreDamagedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(path, []byte(`{"models": {"ollama/a:1b": {"toolCalls": "structured"`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := NewStore(path)
	if _, ok := s.Lookup("ollama/a:1b"); ok {
		t.Fatal("result read from a damaged file")
	}
	if err := s.Put("ollama/b:2b", result("ollama/b:2b", "db")); err != nil {
		t.Fatal(err)
	}
	if _, ok := NewStore(path).Get("ollama/b:2b", "db"); !ok {
		t.Error("damaged file not replaced")
	}
}

func TestKey(t *testing.T) {
	for in, want := range map[[2]string]string{
		{"ollama", "llama3.2"}:                       "ollama/llama3.2:latest",
		{"ollama", "qwen3:4b"}:                       "ollama/qwen3:4b",
		{"ollama", "hf.co/org/model:Q4_K_M"}:         "ollama/hf.co/org/model:Q4_K_M",
		{"ollama", "127.0.0.1:1/library/none"}:       "ollama/127.0.0.1:1/library/none:latest",
		{"custom.lmstudio", "qwen3-8b"}:              "custom.lmstudio/qwen3-8b",
		{"openai", "gpt-4.1-mini"}:                   "openai/gpt-4.1-mini",
		{"ollama", "registry.local:5000/m/x:latest"}: "ollama/registry.local:5000/m/x:latest",
	} {
		if got := Key(in[0], in[1]); got != want {
			t.Errorf("Key(%q, %q) = %q, want %q", in[0], in[1], got, want)
		}
	}
}

// FuzzParse: whatever the file holds, reading it neither panics nor yields an
// entry Hearth could misuse (no model name, an unknown call style).
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"models":{"ollama/qwen3:4b":{"model":"ollama/qwen3:4b","digest":"d","toolCalls":"structured","restraint":true,"contextMax":40960,"tokensPerSecond":9.5,"verdict":"good","version":1}}}`))
	f.Add([]byte(`{"models":{"":{"toolCalls":"text"},"x":{"toolCalls":"sometimes"}}}`))
	f.Add([]byte(`{"models":null}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"models":{"a":{"toolCalls":"none","caveats":["slow",7]}}}`))
	f.Add([]byte(`{"models":{},"evidence":{"ollama/a:latest":{"digest":"d","tool":"read_file"},"":{"tool":"x"},"b":{}},"toolsAnyway":{"a":{"digest":"d"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fl, err := parse(data)
		if err != nil {
			return
		}
		for k, e := range fl.Evidence {
			if k == "" || e.Tool == "" {
				t.Errorf("evidence %q without a name or tool", k)
			}
		}
		if _, ok := fl.Anyway[""]; ok {
			t.Errorf("override without a name")
		}
		for k, r := range fl.Models {
			if k == "" {
				t.Errorf("entry without a name")
			}
			switch r.ToolCalls {
			case CallsStructured, CallsText, CallsNone:
			default:
				t.Errorf("entry %q with call style %q", k, r.ToolCalls)
			}
		}
	})
}
