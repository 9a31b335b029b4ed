package tools

import (
	"bytes"
	"encoding/json"
	"errors"
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
		if json.Valid(raw) {
			for _, folded := range []bool{true, false} {
				if got, want := scanKeys(raw, folded), refKeys(raw, folded); (got == nil) != (want == nil) {
					t.Fatalf("scanKeys(%q, %v) = %v, the token walk says %v", raw, folded, got, want)
				}
			}
		}
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

// refKeys is the slow, obvious check scanKeys must agree with: every object
// walked through encoding/json's token API.
func refKeys(text []byte, folded bool) error {
	dec := json.NewDecoder(bytes.NewReader(text))
	var walk func(depth int) error
	walk = func(depth int) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if (tok == json.Delim('{') || tok == json.Delim('[')) && depth > maxArgDepth {
			return errors.New("too deep")
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				kt, _ := dec.Token()
				k := kt.(string)
				if folded {
					k = foldKey(k)
				}
				if seen[k] {
					return errors.New("repeated")
				}
				seen[k] = true
				if err := walk(depth + 1); err != nil {
					return err
				}
			}
			_, err = dec.Token()
		case json.Delim('['):
			for dec.More() {
				if err := walk(depth + 1); err != nil {
					return err
				}
			}
			_, err = dec.Token()
		}
		return err
	}
	return walk(0)
}
