package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

type strictArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
	Count   int    `json:"count,omitempty" min:"1" max:"9"`
	Force   bool   `json:"force,omitempty"`
}

func (a strictArgs) WritePath() string { return a.Path }

func strictTool(got *strictArgs) Tool {
	return New(Def[strictArgs]{Name: "put", Run: func(_ context.Context, a strictArgs) (Result, error) {
		*got = a
		return Text("ok"), nil
	}})
}

// looseTool has a hand-made schema, as MCP servers give them.
func looseTool(extra bool) Tool {
	s := object([]string{"path"}, map[string]*jsonschema.Schema{
		"path": str(""),
		"opts": object(nil, map[string]*jsonschema.Schema{"deep": boolean("")}),
	})
	name := "loose"
	if !extra {
		s.AdditionalProperties = &jsonschema.Schema{Not: &jsonschema.Schema{}}
		name = "closed"
	}
	return &fakeTool{name: name, schema: s}
}

// TestStrictDecode is the table of what Prepare refuses and what it keeps:
// every refusal is an error the model reads, naming the keys at fault.
func TestStrictDecode(t *testing.T) {
	var got strictArgs
	r := newTestRegistry(t, strictTool(&got), looseTool(true), looseTool(false))
	deep := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	cases := []struct {
		name, tool, raw string
		want            string // the decoded JSON, or a fragment of the error
		ok              bool
	}{
		{"plain", "put", `{"path":"a","content":"x"}`, `{"path":"a","content":"x"}`, true},
		{"cast kept strict", "put", `{"path":"a","content":42,"count":"3"}`, `{"path":"a","content":"42","count":3}`, true},
		{"repaired", "put", `{'path': 'a', 'content': 'x',}`, `{"path":"a","content":"x"}`, true},
		{"double encoded", "put", `"{\"path\":\"a\",\"content\":\"x\"}"`, `{"path":"a","content":"x"}`, true},
		{"null optional", "put", `{"path":"a","content":"","count":null}`, `{"path":"a","content":""}`, true},
		{"false optional omitted", "put", `{"path":"a","content":"","force":false}`, `{"path":"a","content":""}`, true},

		{"duplicate", "put", `{"path":"a","path":"b","content":""}`, `the key "path" is given twice`, false},
		{"duplicate by escape", "put", `{"path":"a","pa\u0074h":"b","content":""}`, `the key "path" is given twice`, false},
		{"case variant", "put", `{"path":"AGENTS.md","Path":"memory/MEMORY.md","content":""}`, `the keys "path" and "Path" differ only in case`, false},
		{"case variant first", "put", `{"Path":"memory/MEMORY.md","path":"AGENTS.md","content":""}`, `the keys "Path" and "path" differ only in case`, false},
		{"upper case", "put", `{"path":"a","PATH":"b","content":""}`, `differ only in case`, false},
		{"kelvin sign folds to k", "loose", `{"path":"a","opts":{"k":1,"\u212a":2}}`, "opts: the keys \"k\" and \"\u212a\" differ only in case", false},
		{"invalid utf-8 keys collide", "loose", "{\"path\":\"a\",\"\xff\":1,\"\xfe\":2}", `is given twice`, false},
		{"repaired still strict", "put", `{'path': 'a', 'Path': 'b', 'content': ''`, `differ only in case`, false},
		{"repaired duplicate", "put", `{path: "a", path: "b", content: "",}`, `is given twice`, false},
		{"double encoded duplicate", "put", `"{\"path\":\"a\",\"path\":\"b\",\"content\":\"\"}"`, `is given twice`, false},
		{"nested duplicate", "loose", `{"path":"a","opts":{"deep":true,"deep":false}}`, `opts: the key "deep" is given twice`, false},
		{"too deep", "loose", `{"path":"a","x":` + deep + `}`, `nest more than 64 levels`, false},

		{"only the variant", "put", `{"Path":"a","content":""}`, `Path: unknown field; did you mean "path"?`, false},
		{"unknown key", "put", `{"path":"a","content":"","mode":"x"}`, `mode: unknown field (valid fields: content, count, force, path)`, false},
		{"unknown key, closed schema", "closed", `{"path":"a","extra":1}`, `extra: unknown field (valid fields: opts, path)`, false},
		{"unknown key, open schema", "loose", `{"path":"a","extra":1}`, `{"extra":1,"path":"a"}`, true},
		{"missing field", "put", `{"path":"a"}`, `content: required field is missing (string)`, false},
		{"out of range", "put", `{"path":"a","content":"","count":12}`, `count: 12 is above the maximum 9`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := r.Prepare(c.tool, json.RawMessage(c.raw))
			if !c.ok {
				if p.Err == nil {
					t.Fatalf("accepted %s as %s", c.raw, p.Args.JSON())
				}
				if msg := p.Err.Error(); !strings.Contains(msg, c.want) || !strings.HasPrefix(msg, "invalid arguments for tool") {
					t.Fatalf("error %q lacks %q", msg, c.want)
				}
				if res := r.Run(context.Background(), p); !res.IsError || !strings.Contains(res.Content, c.want) {
					t.Fatalf("Run of a refused call: %+v", res)
				}
				return
			}
			if p.Err != nil {
				t.Fatalf("refused %s: %v", c.raw, p.Err)
			}
			if js := string(p.Args.JSON()); js != c.want {
				t.Fatalf("decoded %s, want %s", js, c.want)
			}
		})
	}
}

// One problem is named on the first line, which is all an audit entry keeps.
func TestRefusalFirstLine(t *testing.T) {
	var got strictArgs
	r := newTestRegistry(t, strictTool(&got))
	p := r.Prepare("put", json.RawMessage(`{"path":"a","Path":"b","content":""}`))
	first, _, _ := strings.Cut(p.Err.Error(), "\n")
	if !strings.Contains(first, "differ only in case") {
		t.Errorf("first line %q", first)
	}
	p = r.Prepare("put", json.RawMessage(`{}`))
	if msg := p.Err.Error(); !strings.Contains(msg, ":\n- path: required") || !strings.Contains(msg, "\n- content: required") {
		t.Errorf("several problems: %q", msg)
	}
}

// The value the tool runs with is the value Prepare decoded, and the typed
// value is what Args.Value gives the approval gate.
func TestPreparedValueIsWhatRuns(t *testing.T) {
	var got strictArgs
	r := newTestRegistry(t, strictTool(&got))
	p := r.Prepare("put", json.RawMessage(`{'path': 'memory/x.md', 'content': 7, 'count': '2'}`))
	if p.Err != nil {
		t.Fatal(p.Err)
	}
	v, ok := p.Args.Value().(*strictArgs)
	if !ok {
		t.Fatalf("value %T", p.Args.Value())
	}
	if w, ok := p.Args.Value().(FileWrite); !ok || w.WritePath() != "memory/x.md" {
		t.Fatalf("FileWrite: %v", p.Args.Value())
	}
	if res := r.Run(context.Background(), p); !res.OK() {
		t.Fatal(res.Content)
	}
	if got != *v || got != (strictArgs{Path: "memory/x.md", Content: "7", Count: 2}) {
		t.Errorf("ran with %+v, decoded %+v", got, *v)
	}
	// A map is not a typed tool's arguments: nothing decoded, nothing runs.
	res := r.Run(context.Background(), Prepared{Name: "put", Args: Args{value: map[string]any{"path": "x"}, json: json.RawMessage(`{"path":"x"}`)}, tool: p.tool})
	if res.OK() || !strings.Contains(res.Content, "not decoded") {
		t.Errorf("map args ran: %+v", res)
	}
}

// The schema the model sees is derived from the struct and as small as the
// hand-made one was: no "additionalProperties", no null types.
func TestTypedSchema(t *testing.T) {
	type opt struct {
		Items []string `json:"items,omitempty" jsonschema:"names"`
		Mode  string   `json:"mode,omitempty" enum:"a,b"`
		N     *int     `json:"n,omitempty" min:"0" max:"5"`
	}
	s, err := json.Marshal(New(Def[opt]{Name: "o"}).Parameters())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"object","properties":{"items":{"type":"array","items":{"type":"string"},"description":"names"},` +
		`"mode":{"type":"string","enum":["a","b"]},"n":{"type":"integer","minimum":0,"maximum":5}}}`
	if string(s) != want {
		t.Errorf("schema\n%s\nwant\n%s", s, want)
	}
	type bad struct {
		N int `json:"n" min:"x"`
	}
	if err := NewRegistry(RegistryOptions{}).Register(New(Def[bad]{Name: "bad"})); err == nil || !strings.Contains(err.Error(), "min tag") {
		t.Errorf("bad tag: %v", err)
	}
	if err := NewRegistry(RegistryOptions{}).Register(New(Def[int]{Name: "int"})); err == nil {
		t.Error("a non-struct parameter type registered")
	}
}

func TestFaithful(t *testing.T) {
	for raw, want := range map[string]string{
		`{"path":"a","Path":"b"}`: `{"path":"a","Path":"b"}`,
		`{"path":"a","path":"b"}`: `"{\"path\":\"a\",\"path\":\"b\"}"`,
		`{'path': 'a'}`:           `"{'path': 'a'}"`,
		``:                        `{}`,
	} {
		if got := string(Faithful(json.RawMessage(raw))); got != want {
			t.Errorf("Faithful(%s) = %s, want %s", raw, got, want)
		}
	}
}
