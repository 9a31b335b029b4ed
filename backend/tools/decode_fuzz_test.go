package tools

import (
	"encoding/json"
	"testing"
)

// FuzzPrepare feeds arbitrary argument text to Prepare, for a typed tool and
// a schema-only one. Whatever it accepts must be unambiguous and stable:
// valid JSON with no key given twice or in two spellings of case, decoded
// to the same value again when fed back, and for the typed tool the path the
// gate reads is the "path" of that JSON, exactly. Raw JSON with a repeated
// or case-variant key is never accepted. Seeds: testdata/fuzz/FuzzPrepare.
func FuzzPrepare(f *testing.F) {
	for _, s := range []string{
		`{"path":"a","content":"x"}`,
		`{"path":"AGENTS.md","Path":"memory/MEMORY.md","content":"x"}`,
		`{'path': 'a', 'content': 42,}`,
		`"{\"path\":\"a\",\"content\":\"x\"}"`,
		`{"path":"a","opts":{"deep":"true"}}`,
		"```json\n{\"path\": \"a\"}\n```",
	} {
		f.Add([]byte(s))
	}
	var got strictArgs
	r := NewRegistry(RegistryOptions{})
	if err := r.Register(strictTool(&got), looseTool(true)); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		ambiguous := json.Valid(raw) && checkKeys(raw) != nil
		for _, tool := range []string{"put", "loose"} {
			p := r.Prepare(tool, raw)
			if p.Err != nil {
				continue
			}
			if ambiguous {
				t.Fatalf("%s accepted ambiguous %q as %s", tool, raw, p.Args.JSON())
			}
			js := p.Args.JSON()
			if !json.Valid(js) || checkKeys(js) != nil {
				t.Fatalf("%s: decoded %q to ambiguous %s", tool, raw, js)
			}
			again := r.Prepare(tool, js)
			if again.Err != nil || string(again.Args.JSON()) != string(js) {
				t.Fatalf("%s: %s does not decode to itself: %s %v", tool, js, again.Args.JSON(), again.Err)
			}
			if tool == "put" {
				var m map[string]any
				_ = json.Unmarshal(js, &m)
				w, ok := p.Args.Value().(FileWrite)
				if !ok || m["path"] != w.WritePath() {
					t.Fatalf("gate reads %v, JSON says %v", p.Args.Value(), m["path"])
				}
			}
		}
	})
}
