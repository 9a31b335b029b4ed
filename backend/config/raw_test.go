package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestReadRaw(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "config.json")
	text := `{"providers": {"openai": {"apiKey": "${OPENAI_API_KEY}"},
	  "custom": {"z.ai": {"apiKey": "k1"}, "a": {"apiKey": 3}, "n": {"apiKey": null}}}}`
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := ReadRaw(p)
	if err != nil {
		t.Fatal(err)
	}
	// Values as written: a ${VAR} reference is not expanded.
	if v, ok := r.String("providers", "openai", "apiKey"); !ok || v != "${OPENAI_API_KEY}" {
		t.Errorf("openai = %q %v", v, ok)
	}
	// A name holding a dot is one key; members keep file order.
	if v, ok := r.String("providers", "custom", "z.ai", "apiKey"); !ok || v != "k1" {
		t.Errorf("z.ai = %q %v", v, ok)
	}
	if m := r.Members("providers", "custom"); !slices.Equal(m, []string{"z.ai", "a", "n"}) {
		t.Errorf("members %v", m)
	}
	for _, keys := range [][]string{{"providers", "custom", "a", "apiKey"}, {"providers", "custom", "n", "apiKey"},
		{"providers", "nope", "apiKey"}, {"providers", "openai", "apiKey", "deeper"}} {
		if v, ok := r.String(keys...); ok {
			t.Errorf("%v = %q, want none", keys, v)
		}
	}
	if m := r.Members("providers", "openai", "apiKey"); m != nil {
		t.Errorf("members of a string: %v", m)
	}

	// A missing file is empty; a file that is not JSON is an error naming it.
	if r, err := ReadRaw(filepath.Join(dir, "none.json")); err != nil || r.Members() != nil {
		t.Errorf("missing file: %v %v", r, err)
	}
	if err := os.WriteFile(p, []byte(`{"a": 1,}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRaw(p); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("bad JSON: %v", err)
	}
}
