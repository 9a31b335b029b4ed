package config

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad: any bytes in config.json load to a config or to a *LoadError with the
// defaults — never a panic, never a nil config. Seeds: testdata/fuzz/FuzzLoad.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"agents":{"defaults":{"model":"ollama/qwen3:4b","contextTokens":4096}}}`))
	f.Add([]byte(`{"tools":{"mcpServers":{"x":{"command":"npx","args":["-y","s"],"env":{"TOKEN":"${GH}"}}}}}`))
	f.Add([]byte(`{"providers":{"custom":{"a":{"apiBase":"http://h/v1","apiKey":"${K}"}}},"localOnly":true}`))
	f.Add([]byte(`{"agents": [[[[[[[[[[[[]]]]]]]]]]]]}`))
	f.Add([]byte("{\"a\":1,}"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "config.json")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		cfg, _, err := Load(p, func(k string) string { return "v-" + k })
		if cfg == nil {
			t.Fatalf("nil config (err %v)", err)
		}
		if err != nil {
			if _, ok := err.(*LoadError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
		}
		if _, err := ReadRaw(p); err == nil && len(data) == 0 {
			t.Fatal("empty file read as raw JSON")
		}
	})
}
