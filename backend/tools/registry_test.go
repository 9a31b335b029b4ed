package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
)

// fakeTool is a configurable tool for registry tests.
type fakeTool struct {
	name     string
	schema   *jsonschema.Schema
	readOnly bool
	origin   Origin
	run      func(ctx context.Context, args Args) (Result, error)
}

func (f *fakeTool) Name() string                   { return f.name }
func (f *fakeTool) Description() string            { return "test tool " + f.name }
func (f *fakeTool) Parameters() *jsonschema.Schema { return f.schema }
func (f *fakeTool) ReadOnly() bool                 { return f.readOnly }
func (f *fakeTool) Exclusive() bool                { return false }
func (f *fakeTool) Origin() Origin                 { return f.origin }
func (f *fakeTool) Execute(ctx context.Context, args Args) (Result, error) {
	if f.run == nil {
		return Text(string(args.JSON())), nil
	}
	return f.run(ctx, args)
}

func echoSchema() *jsonschema.Schema {
	return object([]string{"path"}, map[string]*jsonschema.Schema{
		"path":    str(""),
		"timeout": integer("", 1, 600),
		"ratio":   {Type: "number"},
		"verbose": boolean(""),
		"mode":    enum("", "a", "b"),
		"ids":     {Type: "array", Items: &jsonschema.Schema{Type: "integer"}},
		"opts":    object(nil, map[string]*jsonschema.Schema{"deep": boolean("")}),
	})
}

func newTestRegistry(t *testing.T, tools ...Tool) *Registry {
	t.Helper()
	r := NewRegistry(RegistryOptions{})
	if err := r.Register(tools...); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestParseArgsRepair(t *testing.T) {
	cases := []struct {
		name, raw, want string
	}{
		{"valid", `{"path":"a"}`, `{"path":"a"}`},
		{"empty", ``, `{}`},
		{"null", `null`, `{}`},
		{"single quotes", `{'path': 'a'}`, `{"path":"a"}`},
		{"trailing comma", `{"path": "a",}`, `{"path":"a"}`},
		{"missing brace", `{"path": "a"`, `{"path":"a"}`},
		{"unquoted key", `{path: "a"}`, `{"path":"a"}`},
		{"code fence", "```json\n{\"path\": \"a\"}\n```", `{"path":"a"}`},
		{"python bools", `{"verbose": True}`, `{"verbose":true}`},
		{"double encoded", `"{\"path\": \"a\"}"`, `{"path":"a"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseArgs(json.RawMessage(c.raw))
			if err != nil {
				t.Fatalf("ParseArgs(%s): %v", c.raw, err)
			}
			if s := compactJSON(got); s != c.want {
				t.Fatalf("ParseArgs(%s) = %s, want %s", c.raw, s, c.want)
			}
		})
	}
	for _, bad := range []string{`[1,2]`, `42`, `"just text"`} {
		if _, err := ParseArgs(json.RawMessage(bad)); err == nil {
			t.Errorf("ParseArgs(%s): want error", bad)
		}
	}
}

func TestCastArgs(t *testing.T) {
	s := echoSchema()
	cases := []struct {
		name, in, want string
	}{
		{"int from string", `{"path":"a","timeout":"60"}`, `{"path":"a","timeout":60}`},
		{"int from float string", `{"path":"a","timeout":"60.0"}`, `{"path":"a","timeout":60}`},
		{"number from string", `{"path":"a","ratio":"0.5"}`, `{"path":"a","ratio":0.5}`},
		{"bool true", `{"path":"a","verbose":"true"}`, `{"path":"a","verbose":true}`},
		{"bool yes", `{"path":"a","verbose":"yes"}`, `{"path":"a","verbose":true}`},
		{"bool 0", `{"path":"a","verbose":0}`, `{"path":"a","verbose":false}`},
		{"string from number", `{"path":42}`, `{"path":"42"}`},
		{"array items", `{"path":"a","ids":["1","2",3]}`, `{"ids":[1,2,3],"path":"a"}`},
		{"array from json string", `{"path":"a","ids":"[1,2]"}`, `{"ids":[1,2],"path":"a"}`},
		{"lone value to array", `{"path":"a","ids":"7"}`, `{"ids":[7],"path":"a"}`},
		{"nested object", `{"path":"a","opts":{"deep":"false"}}`, `{"opts":{"deep":false},"path":"a"}`},
		{"object from json string", `{"path":"a","opts":"{\"deep\":true}"}`, `{"opts":{"deep":true},"path":"a"}`},
		{"null optional dropped", `{"path":"a","timeout":null}`, `{"path":"a"}`},
		{"uncastable left alone", `{"path":"a","timeout":"soon"}`, `{"path":"a","timeout":"soon"}`},
		{"bool not number", `{"path":"a","timeout":true}`, `{"path":"a","timeout":true}`},
		{"unknown kept", `{"path":"a","extra":"1"}`, `{"extra":"1","path":"a"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, err := ParseArgs(json.RawMessage(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if got := compactJSON(CastArgs(s, in)); got != c.want {
				t.Fatalf("CastArgs(%s) = %s, want %s", c.in, got, c.want)
			}
		})
	}
}

func TestCallValidation(t *testing.T) {
	r := newTestRegistry(t, &fakeTool{name: "echo", schema: echoSchema()}, &fakeTool{name: "other", schema: object(nil, nil)})
	ok := []struct{ raw, want string }{
		{`{"path":"a","timeout":"60"}`, `{"path":"a","timeout":60}`},
		{`{'path':'a','verbose':'true',}`, `{"path":"a","verbose":true}`},
		{`{"path":"a","mode":"b"}`, `{"mode":"b","path":"a"}`},
	}
	for _, c := range ok {
		res := r.Call(context.Background(), "echo", json.RawMessage(c.raw))
		if res.IsError || res.Content != c.want {
			t.Errorf("Call(%s) = %+v, want %s", c.raw, res, c.want)
		}
	}
	bad := []struct {
		raw   string
		wants []string
	}{
		{`{}`, []string{"path: required field is missing (string)"}},
		{`{"file_path":"a"}`, []string{"path: required field is missing", "file_path: unknown field (valid fields: ids, mode, opts, path, ratio, timeout, verbose)"}},
		{`{"path":"a","timeout":"soon"}`, []string{`timeout: expected integer, got string "soon"`}},
		{`{"path":"a","timeout":999}`, []string{"timeout: 999 is above the maximum 600"}},
		{`{"path":"a","timeout":0}`, []string{"timeout: 0 is below the minimum 1"}},
		{`{"path":"a","mode":"c"}`, []string{`mode: "c" is not one of ["a","b"]`}},
		{`{"path":"a","ids":["x"]}`, []string{`ids[0]: expected integer, got string "x"`}},
		{`{"path":"a","opts":{"deep":"maybe"}}`, []string{`opts.deep: expected boolean, got string "maybe"`}},
		{`{"path":["a","b"]}`, []string{`path: expected string, got array`}},
		{`[1]`, []string{"arguments must be a JSON object, got array"}},
	}
	for _, c := range bad {
		res := r.Call(context.Background(), "echo", json.RawMessage(c.raw))
		if !res.IsError {
			t.Errorf("Call(%s) succeeded: %s", c.raw, res.Content)
			continue
		}
		for _, w := range append(c.wants, `invalid arguments for tool "echo"`, "Valid tools: echo, other", "Expected: ids (array), mode (string [\"a\",\"b\"])") {
			if !strings.Contains(res.Content, w) {
				t.Errorf("Call(%s) message lacks %q:\n%s", c.raw, w, res.Content)
			}
		}
	}
}

func TestCallUnknownTool(t *testing.T) {
	r := newTestRegistry(t, &fakeTool{name: "b_tool"}, &fakeTool{name: "a_tool"})
	res := r.Call(context.Background(), "read_fil", json.RawMessage(`{}`))
	if !res.IsError || !strings.Contains(res.Content, `unknown tool "read_fil"`) || !strings.Contains(res.Content, "Valid tools: a_tool, b_tool") ||
		strings.Contains(res.Content, "Did you mean") {
		t.Fatalf("unknown tool result: %+v", res)
	}
	for _, n := range []string{"ATool", "functions.a_tool", "a-tool"} {
		wantErr(t, r.Call(context.Background(), n, nil), `Did you mean "a_tool"?`)
	}
	wantOK(t, r.Call(context.Background(), " a_tool\n", nil))
}

func TestCallPanicBecomesError(t *testing.T) {
	r := newTestRegistry(t, &fakeTool{name: "boom", run: func(context.Context, Args) (Result, error) {
		var m map[string]int
		m["x"] = 1 // nil map write panics
		return Result{}, nil
	}})
	res := r.Call(context.Background(), "boom", nil)
	t.Log(res.Content)
	if !res.IsError || !strings.Contains(res.Content, "tool boom crashed") || !strings.Contains(res.Content, "nil map") ||
		!strings.Contains(res.Content, "registry_test.go:") || !strings.Contains(res.Meta[MetaStack], "goroutine") {
		t.Fatalf("panic result: %+v", res)
	}
}

func TestCallErrorAndMasking(t *testing.T) {
	r := NewRegistry(RegistryOptions{Masker: NewMasker("sk-secret-123")})
	if err := r.Register(&fakeTool{name: "leak", run: func(context.Context, Args) (Result, error) {
		return Result{Content: "key sk-secret-123"}, errFake("failed with sk-secret-123")
	}}); err != nil {
		t.Fatal(err)
	}
	res := r.Call(context.Background(), "leak", nil)
	if !res.IsError || strings.Contains(res.Content, "sk-secret") || strings.Count(res.Content, Redacted) != 2 {
		t.Fatalf("masked error result: %+v", res)
	}
}

type errFake string

func (e errFake) Error() string { return string(e) }

type slowTool struct{ fakeTool }

func (s *slowTool) Timeout(Args) time.Duration { return 50 * time.Millisecond }

func TestCallTimeout(t *testing.T) {
	lateButHonest := func(ctx context.Context, _ Args) (Result, error) {
		<-ctx.Done()
		time.Sleep(20 * time.Millisecond) // a tool slow to notice
		return Text("partial"), nil
	}
	deaf := func(ctx context.Context, _ Args) (Result, error) {
		time.Sleep(3 * time.Second) // ignores its context entirely
		return Text("never seen"), nil
	}
	r := NewRegistry(RegistryOptions{Timeout: 80 * time.Millisecond})
	if err := r.Register(&fakeTool{name: "slow", run: lateButHonest}, &slowTool{fakeTool{name: "own", run: lateButHonest}},
		&fakeTool{name: "deaf", run: deaf}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		limit time.Duration
		want  []string
	}{
		{"slow", 80 * time.Millisecond, []string{"partial", "timed out after 80ms"}},
		{"own", 50 * time.Millisecond, []string{"partial", "timed out after 50ms"}},
		{"deaf", 80 * time.Millisecond, []string{"tool deaf timed out after 80ms"}},
	} {
		start := time.Now()
		res := r.Call(context.Background(), c.name, nil)
		took := time.Since(start)
		wantErr(t, res, c.want...)
		if took > c.limit+cancelGrace+300*time.Millisecond {
			t.Errorf("%s: took %s", c.name, took)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	wantErr(t, r.Call(ctx, "slow", nil), "partial", "tool slow was cancelled")
}

func TestDefinitionsStableOrder(t *testing.T) {
	r := newTestRegistry(t,
		&fakeTool{name: "mcp_b_x", origin: OriginMCP}, &fakeTool{name: "zeta"},
		&fakeTool{name: "mcp_a_y", origin: OriginMCP}, &fakeTool{name: "alpha", readOnly: true})
	want := "alpha,zeta,mcp_a_y,mcp_b_x"
	for i := 0; i < 5; i++ {
		if got := strings.Join(r.Names(), ","); got != want {
			t.Fatalf("order %s, want %s", got, want)
		}
	}
	if !r.IsReadOnly("alpha") || r.IsReadOnly("zeta") || r.IsReadOnly("nope") {
		t.Error("IsReadOnly wrong")
	}
	if r.IsExclusive("alpha") || !r.IsExclusive("nope") {
		t.Error("IsExclusive wrong")
	}
	r.Unregister("zeta")
	if got := strings.Join(r.Names(), ","); got != "alpha,mcp_a_y,mcp_b_x" {
		t.Fatalf("after unregister: %s", got)
	}
}

// TestBuiltinDefinitionsSize enforces the tools' share of the
// first-request target (docs/design/prompt-size.md#the-first-request-target): the JSON
// of all seven built-in definitions, in the OpenAI function shape, ≤ 3600 chars.
func TestBuiltinDefinitionsSize(t *testing.T) {
	r := newTestRegistry(t, Builtins(Options{Policy: Policy{Workspace: t.TempDir()}})...)
	defs := r.Definitions()
	if len(defs) != 7 {
		t.Fatalf("got %d built-ins", len(defs))
	}
	type fn struct {
		Type     string     `json:"type"`
		Function Definition `json:"function"`
	}
	var wire []fn
	for _, d := range defs {
		wire = append(wire, fn{"function", d})
	}
	b, err := json.Marshal(wire)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("built-in tool definitions: %d chars (limit 3600) for %s", len(b), strings.Join(r.Names(), ", "))
	if len(b) > 3600 {
		t.Fatalf("built-in tool definitions are %d chars, over the 3600 limit:\n%s", len(b), b)
	}
	if r.IsReadOnly("exec") || !r.IsExclusive("exec") || !r.IsReadOnly("grep") || r.IsReadOnly("write_file") {
		t.Error("built-in flags wrong")
	}
}

// BenchmarkCall measures the Registry's own overhead per call (repair, cast,
// validate, goroutine + timeout, masking). Target: under 50 µs per call on the
// 2-core CI machine (measured 12–25 µs), negligible beside any real tool.
func BenchmarkCall(b *testing.B) {
	r := NewRegistry(RegistryOptions{Masker: NewMasker("sk-abcdef")})
	if err := r.Register(&fakeTool{name: "echo", schema: echoSchema(), run: func(context.Context, Args) (Result, error) {
		return Text("ok"), nil
	}}); err != nil {
		b.Fatal(err)
	}
	raw := json.RawMessage(`{"path":"a/b.txt","timeout":"60","verbose":"true","ids":["1","2"]}`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := r.Call(ctx, "echo", raw); res.IsError {
			b.Fatal(res.Content)
		}
	}
}

func TestBatches(t *testing.T) {
	r := newTestRegistry(t, Builtins(Options{Policy: Policy{Workspace: t.TempDir()}})...)
	got := r.Batches([]string{"read_file", "grep", "write_file", "glob", "list_dir", "exec", "nope", "read_file"})
	want := "[[0 1] [2] [3 4] [5] [6] [7]]"
	if s := fmt.Sprint(got); s != want {
		t.Fatalf("Batches = %s, want %s", s, want)
	}
}

// TestCallConcurrent runs read-only calls in parallel while tools are added and
// removed, as the agent (docs/design/agent-loop.md#parallel-read-only-tools) and MCP reconnects will; run with -race.
func TestCallConcurrent(t *testing.T) {
	s := newSandbox(t)
	r := newTestRegistry(t, Builtins(Options{Policy: *s.policy})...)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			name := []string{"read_file", "grep", "glob", "list_dir"}[i%4]
			args := map[string]string{"read_file": `{"path":"hello.txt"}`, "grep": `{"pattern":"hello"}`,
				"glob": `{"pattern":"*.txt"}`, "list_dir": `{"path":"."}`}[name]
			if res := r.Call(context.Background(), name, json.RawMessage(args)); res.IsError {
				t.Errorf("%s: %s", name, res.Content)
			}
			_ = r.Register(&fakeTool{name: fmt.Sprintf("mcp_x_%d", i), origin: OriginMCP})
			_ = r.Definitions()
			r.Unregister(fmt.Sprintf("mcp_x_%d", i))
		}(i)
	}
	wg.Wait()
}
