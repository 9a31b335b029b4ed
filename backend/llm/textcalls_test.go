package llm

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// familyTools are the tools offered in the family tests.
var familyTools = []string{"get_weather", "read_file", "exec", "web_search"}

const paris = `{"city":"Paris"}`

// familyCase is one reply as a model family prints it. The comment before
// each group says where the shape comes from.
type familyCase struct {
	name    string
	text    string
	visible string
	calls   []wantCall
}

func weather() []wantCall { return []wantCall{{name: "get_weather", args: paris}} }

var familyCases = []familyCase{
	// Hermes 2 Pro, Qwen2.5 and Qwen3 templates print a JSON object between
	// <tool_call> tags, one block per call.
	{name: "hermes", text: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>", calls: weather()},
	{name: "qwen with prose and two calls", text: "Let me check both.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"notes.md\"}}\n</tool_call>",
		visible: "Let me check both.\n\n", calls: []wantCall{{name: "get_weather", args: paris}, {name: "read_file", args: `{"path":"notes.md"}`}}},
	{name: "hermes closing tag inside an argument", text: "<tool_call>{\"name\": \"exec\", \"arguments\": {\"command\": \"echo '</tool_call>'\"}}</tool_call>",
		calls: []wantCall{{name: "exec", args: `{"command":"echo '</tool_call>'"}`}}},
	{name: "bare call between paragraphs", text: "Sure!\n\n{\"name\": \"exec\", \"arguments\": {\"command\": \"ls\"}}\n\nThen I'll sum up.",
		visible: "Sure!\n\n\n\nThen I'll sum up.", calls: []wantCall{{name: "exec", args: `{"command":"ls"}`}}},
	// Hermes 2 Pro also answers with <function=NAME>{json}</function> and
	// <function name="NAME">{json}</function> (as llama.cpp's Hermes parser accepts).
	{name: "hermes function-name form", text: `<function name="get_weather">{"city": "Paris"}</function>`, calls: weather()},
	// Qwen3-Coder's template: XML-ish parameters inside <tool_call>, each
	// value on its own lines.
	{name: "qwen3-coder", text: "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>", calls: weather()},
	{name: "qwen3-coder multi-line value", text: "I'll write it.\n<tool_call>\n<function=exec>\n<parameter=command>\nprintf 'a\\n'\necho <done>\n</parameter>\n</function>\n</tool_call>",
		visible: "I'll write it.\n", calls: []wantCall{{name: "exec", args: `{"command":"printf 'a\\n'\necho <done>"}`}}},
	{name: "qwen3-coder without wrapper", text: "<function=read_file>\n<parameter=path>\na.txt\n</parameter>\n</function>", calls: []wantCall{{name: "read_file", args: `{"path":"a.txt"}`}}},
	// GLM-4.5/4.6 templates: the name, then <arg_key>/<arg_value> pairs on
	// their own lines; GLM-4.7 writes them without newlines.
	{name: "glm-4.5", text: "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>", calls: weather()},
	{name: "glm-4.7", text: "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>", calls: weather()},
	// GLM-4 (glm-4-9b-chat) starts its reply with the function name on the
	// first line and the JSON arguments on the next.
	{name: "glm-4 name line", text: "get_weather\n{\"city\": \"Paris\"}", calls: weather()},
	// Llama 3.1–3.3 templates: a JSON object with "parameters", optionally
	// after <|python_tag|>, several separated by ";"; built-in tools as
	// name.call(…) after <|python_tag|>.
	{name: "llama 3.1 json", text: `{"name": "get_weather", "parameters": {"city": "Paris"}}`, calls: weather()},
	{name: "llama 3.1 python_tag", text: `<|python_tag|>{"type": "function", "name": "get_weather", "parameters": {"city": "Paris"}}<|eom_id|>`, calls: weather()},
	{name: "llama 3.2 two calls", text: `{"name": "get_weather", "parameters": {"city": "Paris"}}; {"name": "read_file", "parameters": {"path": "a.txt"}}`,
		calls: []wantCall{{name: "get_weather", args: paris}, {name: "read_file", args: `{"path":"a.txt"}`}}},
	{name: "llama 3.1 built-in", text: `<|python_tag|>brave_search.call(query="weather in Paris")`,
		calls: []wantCall{{name: "brave_search", args: `{"query":"weather in Paris"}`, unknown: true}}},
	// Llama 3.2 and 4 (pythonic system prompt), Gemma 3's function-calling
	// guide: a Python list of calls; Llama 4 may wrap it in python tokens.
	{name: "pythonic list", text: `[get_weather(city="Paris"), read_file(path='a.txt')]`,
		calls: []wantCall{{name: "get_weather", args: paris}, {name: "read_file", args: `{"path":"a.txt"}`}}},
	{name: "pythonic after prose", text: "Sure.\n[exec(command=\"ls -la\", timeout=30, shell=True, env=None)]\n",
		visible: "Sure.\n\n", calls: []wantCall{{name: "exec", args: `{"command":"ls -la","env":null,"shell":true,"timeout":30}`}}},
	{name: "llama 4 python_start", text: `<|python_start|>[get_weather(city="Paris")]<|python_end|>`, calls: weather()},
	// Gemma's guide also prompts for a ```tool_code block holding the call.
	{name: "gemma tool_code", text: "```tool_code\nget_weather(city=\"Paris\")\n```", calls: weather()},
	{name: "gemma json parameters", text: "```json\n{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}\n```", calls: weather()},
	// Gemma 4's template: call:NAME{key:<|"|>text<|"|>} between its own tokens;
	// FunctionGemma uses <escape> as the string delimiter.
	{name: "gemma 4", text: `<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>`, calls: weather()},
	{name: "gemma 4 nested", text: `<|tool_call>call:exec{command:<|"|>echo "hi", there<|"|>,timeout:5,opts:{shell:true}}<tool_call|>`,
		calls: []wantCall{{name: "exec", args: `{"command":"echo \"hi\", there","opts":{"shell":true},"timeout":5}`}}},
	{name: "functiongemma", text: `<start_function_call>call:get_weather{city:<escape>Paris<escape>}<end_function_call>`, calls: weather()},
	// LFM2's template: a Python call list between its tool-call tokens (the
	// first releases printed a JSON list there).
	{name: "lfm2", text: `<|tool_call_start|>[get_weather(city="Paris")]<|tool_call_end|>Checking.`, visible: "Checking.", calls: weather()},
	{name: "lfm2 json", text: `<|tool_call_start|>[{"name": "get_weather", "arguments": {"city": "Paris"}}]<|tool_call_end|>`, calls: weather()},
	// Mistral 7B v0.3 / Mistral-Nemo: [TOOL_CALLS] then a JSON list with ids.
	{name: "mistral v3", text: `[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "a1b2c3d4e"}]`, calls: weather()},
	// Tokenizer v11 and later (Mistral Small 3.2, Magistral, Ministral 3,
	// Devstral): [TOOL_CALLS]name[ARGS]{json}, repeated per call; some
	// servers drop the [ARGS] token, some templates add [CALL_ID]id.
	{name: "mistral v11", text: `[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}`, calls: weather()},
	{name: "mistral v11 two calls", text: `Checking.[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}[TOOL_CALLS]read_file[ARGS]{"path": "a.txt"}`,
		visible: "Checking.", calls: []wantCall{{name: "get_weather", args: paris}, {name: "read_file", args: `{"path":"a.txt"}`}}},
	{name: "mistral call id", text: `[TOOL_CALLS]get_weather[CALL_ID]a1b2c3d4e[ARGS]{"city": "Paris"}`, calls: weather()},
	{name: "mistral without args token", text: `[TOOL_CALLS]get_weather{"city": "Paris"}`, calls: weather()},
	{name: "mistral unknown tool", text: `[TOOL_CALLS]delete_everything[ARGS]{}`, calls: []wantCall{{name: "delete_everything", args: `{}`, unknown: true}}},
	// Granite 3.0: <|tool_call|> then a JSON list, no closing token; Granite
	// 3.1+: the list inside <tool_call>.
	{name: "granite 3.0", text: `<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris"}}]`, calls: weather()},
	{name: "granite 3.1", text: `<tool_call>[{"name": "get_weather", "arguments": {"city": "Paris"}}]`, calls: weather()},
	// Phi-4-mini: its template prints <|tool_call|>[…]<|/tool_call|>; served
	// by vLLM it answers functools[…], as Firefunction v2 does.
	{name: "phi-4-mini", text: `<|tool_call|>[{"name":"get_weather","arguments":{"city":"Paris"}}]<|/tool_call|>`, calls: weather()},
	{name: "functools", text: ` functools[{"name": "get_weather", "arguments": {"city": "Paris"}}]`, visible: " ", calls: weather()},
	// DeepSeek V3 and R1: calls in a section, each with a fenced JSON body;
	// V3.1: name<｜tool▁sep｜>{json}, sometimes without the section token.
	{name: "deepseek r1", text: "<think>Need the weather.</think>\n\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Paris\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
		visible: "\n\n", calls: weather()},
	{name: "deepseek v3.1", text: "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": \"Paris\"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>read_file<｜tool▁sep｜>{\"path\": \"a.txt\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
		calls: []wantCall{{name: "get_weather", args: paris}, {name: "read_file", args: `{"path":"a.txt"}`}}},
	{name: "deepseek v3.1 without section", text: "<｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": \"Paris\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>", calls: weather()},
	// functionary v3.2: >>>name\n{json} (the first call follows the prompt's
	// own >>>, so it starts the reply with the bare name line); v3.1:
	// <function=NAME>{json}</function>.
	{name: "functionary v3.2", text: "get_weather\n{\"city\": \"Paris\"}>>>read_file\n{\"path\": \"a.txt\"}",
		calls: []wantCall{{name: "get_weather", args: paris}, {name: "read_file", args: `{"path":"a.txt"}`}}},
	{name: "functionary v3.1", text: `<function=get_weather>{"city": "Paris"}</function>`, calls: weather()},
	// Command R7B: a JSON list of {"tool_name","parameters"} between actions.
	{name: "command r7b", text: `<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Paris"}}]<|END_ACTION|>`, calls: weather()},
	// Nemotron: a JSON list inside <TOOLCALL>.
	{name: "nemotron", text: `<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</TOOLCALL>`, calls: weather()},
	// Echoes of the OpenAI wire format, and plain lists of call objects.
	{name: "openai echo", text: `{"tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}`, calls: weather()},
	{name: "json list", text: "Here:\n[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}]", visible: "Here:\n", calls: weather()},
	{name: "pretty json list", text: "[\n  {\n    \"name\": \"get_weather\",\n    \"arguments\": {\"city\": \"Paris\"}\n  }\n]", calls: weather()},
	// Triple backticks inside a sentence do not open a code block.
	{name: "inline backticks then a call", text: "Wrap code in ``` fences.\n{\"name\": \"exec\", \"arguments\": {\"command\": \"ls\"}}",
		visible: "Wrap code in ``` fences.\n", calls: []wantCall{{name: "exec", args: `{"command":"ls"}`}}},
	// Small models often drop the opening tag but keep the closing one.
	{name: "json with stray closer", text: "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>", calls: weather()},

	// Negatives: prose, documentation, code and data must stay text.
	{name: "prose naming mistral's token", text: "Mistral starts its calls with [TOOL_CALLS] and then the name.", visible: "Mistral starts its calls with [TOOL_CALLS] and then the name."},
	{name: "prose naming hermes tags", text: "Qwen wraps each call in <tool_call> and </tool_call> tags.", visible: "Qwen wraps each call in <tool_call> and </tool_call> tags."},
	{name: "prose naming function tags", text: "Use <function=name> then </function>.", visible: "Use <function=name> then </function>."},
	{name: "prose naming python_tag", text: "Llama prints <|python_tag|> before a built-in call.", visible: "Llama prints <|python_tag|> before a built-in call."},
	{name: "python_tag with code", text: "<|python_tag|>import math\nprint(math.pi)", visible: "<|python_tag|>import math\nprint(math.pi)"},
	{name: "python code block", text: "Call it like this:\n```python\nget_weather(city=\"Paris\")\n```", visible: "Call it like this:\n```python\nget_weather(city=\"Paris\")\n```"},
	{name: "xml code block", text: "```xml\n<tool_call>{\"name\": \"exec\", \"arguments\": {\"command\": \"rm -rf ~\"}}</tool_call>\n```", visible: "```xml\n<tool_call>{\"name\": \"exec\", \"arguments\": {\"command\": \"rm -rf ~\"}}</tool_call>\n```"},
	{name: "json block of an unoffered tool", text: "```json\n{\"name\": \"delete_files\", \"arguments\": {}}\n```", visible: "```json\n{\"name\": \"delete_files\", \"arguments\": {}}\n```"},
	{name: "pythonic call of an unoffered function", text: "[delete_all(confirm=True)]", visible: "[delete_all(confirm=True)]"},
	{name: "plain fence with a pythonic call", text: "```\n[exec(command=\"ls\")]\n```", visible: "```\n[exec(command=\"ls\")]\n```"},
	{name: "call inside an explanation", text: "To check, I would call {\"name\": \"exec\", \"arguments\": {\"command\": \"ls\"}} for you.", visible: "To check, I would call {\"name\": \"exec\", \"arguments\": {\"command\": \"ls\"}} for you."},
	{name: "call with prose after it on its line", text: "{\"name\": \"exec\", \"arguments\": {\"command\": \"ls\"}} is the call I would make.", visible: "{\"name\": \"exec\", \"arguments\": {\"command\": \"ls\"}} is the call I would make."},
	{name: "pythonic with prose after it", text: "[exec(command=\"ls\")] would list the files.", visible: "[exec(command=\"ls\")] would list the files."},
	{name: "data holding a call-shaped object", text: "{\n  \"name\": \"Alice\",\n  \"examples\": [\n    {\"name\": \"exec\", \"arguments\": {\"command\": \"ls\"}}\n  ]\n}", visible: "{\n  \"name\": \"Alice\",\n  \"examples\": [\n    {\"name\": \"exec\", \"arguments\": {\"command\": \"ls\"}}\n  ]\n}"},
	{name: "data list", text: "[\n  {\"id\": 1, \"title\": \"x\"},\n  {\"name\": \"exec\", \"arguments\": {}}\n]", visible: "[\n  {\"id\": 1, \"title\": \"x\"},\n  {\"name\": \"exec\", \"arguments\": {}}\n]"},
	{name: "markdown checklist and link", text: "[x] done\n[docs](https://example.org) and [read_file] here", visible: "[x] done\n[docs](https://example.org) and [read_file] here"},
	{name: "python repl", text: ">>> print(\"hi\")\nhi", visible: ">>> print(\"hi\")\nhi"},
	{name: "functools in code", text: "Use functools.partial or functools[0] here.", visible: "Use functools.partial or functools[0] here."},
	{name: "name line followed by prose", text: "exec\nis the tool that runs commands.", visible: "exec\nis the tool that runs commands."},
	{name: "first word is a tool name", text: "read_file is what I would use.", visible: "read_file is what I would use."},
	{name: "name line with unoffered name", text: "delete_all\n{\"confirm\": true}", visible: "delete_all\n{\"confirm\": true}"},
	{name: "arguments-only object", text: "{\"city\": \"Paris\"}", visible: "{\"city\": \"Paris\"}"},
	{name: "tool call token at the end", text: "The token is [TOOL_CALLS]", visible: "The token is [TOOL_CALLS]"},
	{name: "stray closer in prose", text: "It ends with </tool_call> usually.", visible: "It ends with </tool_call> usually."},
	{name: "glm tags naming a word", text: "Wrap it: <tool_call>name</tool_call>.", visible: "Wrap it: <tool_call>name</tool_call>."},
	{name: "echoed tool definition", text: "I can use:\n{\"type\": \"function\", \"function\": {\"name\": \"exec\", \"description\": \"Run a command\", \"parameters\": {\"type\": \"object\", \"properties\": {\"command\": {\"type\": \"string\"}}}}}",
		visible: "I can use:\n{\"type\": \"function\", \"function\": {\"name\": \"exec\", \"description\": \"Run a command\", \"parameters\": {\"type\": \"object\", \"properties\": {\"command\": {\"type\": \"string\"}}}}}"},
	{name: "echoed tools block", text: "<tools>[{\"name\": \"exec\", \"parameters\": {\"type\": \"object\", \"properties\": {}}}]</tools>",
		visible: "<tools>[{\"name\": \"exec\", \"parameters\": {\"type\": \"object\", \"properties\": {}}}]</tools>"},
	{name: "data with an id and a tool's name", text: "{\"id\": 3, \"name\": \"web_search\"}", visible: "{\"id\": 3, \"name\": \"web_search\"}"},
	{name: "call inside reasoning", text: "<think>Maybe [TOOL_CALLS]exec[ARGS]{\"command\": \"ls\"}</think>No need.", visible: "No need."},
}

func TestFamilyShapes(t *testing.T) {
	for _, tc := range familyCases {
		t.Run(tc.name, func(t *testing.T) {
			for _, split := range splitters(tc.text) {
				v, _, calls := parseSplit(tc.text, familyTools, split.cuts)
				if v != tc.visible {
					t.Fatalf("%s: visible = %q, want %q", split.name, v, tc.visible)
				}
				checkCalls(t, split.name, calls, tc.calls)
			}
		})
	}
}

func checkCalls(t *testing.T, how string, got []ToolCall, want []wantCall) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d calls %+v, want %d", how, len(got), got, len(want))
	}
	for i, w := range want {
		c := got[i]
		if c.Name != w.name || string(c.Arguments) != w.args || c.Unknown != w.unknown || !c.FromText {
			t.Fatalf("%s: call %d = {%s %s unknown=%v fromText=%v}, want {%s %s unknown=%v}",
				how, i, c.Name, c.Arguments, c.Unknown, c.FromText, w.name, w.args, w.unknown)
		}
	}
}

type split struct {
	name string
	cuts []int
}

// tokenRE cuts text roughly the way tokenizers and Ollama's stream do:
// special tokens whole, words, runs of blanks, single punctuation.
var tokenRE = regexp.MustCompile(`<\|[^|<>\s]{1,40}\|>|<｜[^｜]{1,40}｜>|\[[A-Z_]{2,12}\]|[\p{L}\p{N}_]+|\s+|.`)

// splitters returns the ways a reply is fed in the tests: whole, at every
// byte boundary, byte by byte, in random pieces and in token-like pieces.
func splitters(text string) []split {
	out := []split{{name: "whole"}}
	for i := 1; i < len(text); i++ {
		out = append(out, split{name: fmt.Sprintf("cut at %d", i), cuts: []int{i}})
	}
	bytes := split{name: "byte by byte"}
	for i := 1; i < len(text); i++ {
		bytes.cuts = append(bytes.cuts, i)
	}
	out = append(out, bytes)
	for seed := uint64(1); seed <= 5; seed++ {
		r := rand.New(rand.NewPCG(seed, 99))
		s := split{name: fmt.Sprintf("random %d", seed)}
		for i := 1 + r.IntN(8); i < len(text); i += 1 + r.IntN(8) {
			s.cuts = append(s.cuts, i)
		}
		out = append(out, s)
	}
	tok := split{name: "tokens"}
	for _, loc := range tokenRE.FindAllStringIndex(text, -1) {
		if loc[0] > 0 {
			tok.cuts = append(tok.cuts, loc[0])
		}
	}
	return append(out, tok)
}

// TestFilterReleasesNonCalls checks the other half of the streaming promise:
// text that looked like the start of a call goes out as soon as it cannot
// be one, not at the end of the reply.
func TestFilterReleasesNonCalls(t *testing.T) {
	steps := []struct {
		feed, shown string // shown: all visible text after feeding
	}{
		{"Mistral uses [TOOL_CALLS]", "Mistral uses "},
		{" to", "Mistral uses [TOOL_CALLS] to"},
		{" call. Qwen uses <tool_call>", "Mistral uses [TOOL_CALLS] to call. Qwen uses "},
		{" tags.", "Mistral uses [TOOL_CALLS] to call. Qwen uses <tool_call> tags."},
		{"\n{\"name\": \"Alice\"", "Mistral uses [TOOL_CALLS] to call. Qwen uses <tool_call> tags.\n{\"name\": \"Alice\""},
		{", \"age\": 3}\n[x", "Mistral uses [TOOL_CALLS] to call. Qwen uses <tool_call> tags.\n{\"name\": \"Alice\", \"age\": 3}\n[x"},
		// An object that starts with "id" may still be a call: held.
		{"] ok\n```json\n{\"id\": 7,", "Mistral uses [TOOL_CALLS] to call. Qwen uses <tool_call> tags.\n{\"name\": \"Alice\", \"age\": 3}\n[x] ok\n"},
		{" \"title\": \"t\"}\n```\n", "Mistral uses [TOOL_CALLS] to call. Qwen uses <tool_call> tags.\n{\"name\": \"Alice\", \"age\": 3}\n[x] ok\n```json\n{\"id\": 7, \"title\": \"t\"}\n```\n"},
	}
	f := newTextFilter(toolSet(familyTools))
	var shown strings.Builder
	for _, s := range steps {
		for _, c := range f.write(s.feed) {
			if c.Kind != ChunkText {
				t.Fatalf("unexpected %s chunk %+v", c.Kind, c)
			}
			shown.WriteString(c.Text)
		}
		if shown.String() != s.shown {
			t.Fatalf("after %q shown %q, want %q", s.feed, shown.String(), s.shown)
		}
	}
}

// TestFilterHoldsEachFamilyCall feeds every family's call token by token and
// checks that no part of the call text is ever shown.
func TestFilterHoldsEachFamilyCall(t *testing.T) {
	for _, tc := range familyCases {
		if len(tc.calls) == 0 {
			continue
		}
		f := newTextFilter(toolSet(familyTools))
		var shown strings.Builder
		for _, tok := range tokenRE.FindAllString(tc.text, -1) {
			for _, c := range f.write(tok) {
				if c.Kind == ChunkText {
					shown.WriteString(c.Text)
				}
			}
			if !strings.HasPrefix(tc.visible, shown.String()) {
				t.Fatalf("%s: shown %q while streaming, want only %q", tc.name, shown.String(), tc.visible)
			}
		}
	}
}

// TestFilterLongHeldCall streams a long call (a file written through a tool)
// in small deltas next to long plain text, so the buffer is compacted and
// reused along the way.
func TestFilterLongHeldCall(t *testing.T) {
	content := strings.Repeat("line of the file\\n", 3000)
	text := strings.Repeat("Some words before. ", 500) + "\n<tool_call>\n{\"name\": \"exec\", \"arguments\": {\"command\": \"" + content + "\"}}\n</tool_call>\n" + strings.Repeat("after ", 1000)
	f := newTextFilter(toolSet(familyTools))
	var shown strings.Builder
	var calls []ToolCall
	for i := 0; i < len(text); i += 3 {
		for _, c := range f.write(text[i:min(i+3, len(text))]) {
			switch c.Kind {
			case ChunkText:
				shown.WriteString(c.Text)
			case ChunkToolCall:
				calls = append(calls, *c.ToolCall)
			}
		}
	}
	for _, c := range f.flush() {
		shown.WriteString(c.Text)
	}
	want := strings.Repeat("Some words before. ", 500) + "\n\n" + strings.Repeat("after ", 1000)
	if shown.String() != want || len(calls) != 1 || len(calls[0].Arguments) < len(content) {
		t.Fatalf("shown %d bytes (want %d), calls %d", shown.Len(), len(want), len(calls))
	}
}

// BenchmarkTextFilterMarkup streams a long reply dense in the characters
// that may open a call ('<', '[', '{', '`' at line starts, JSON data, HTML,
// a Python block) in token-sized deltas, then a Mistral call. Target: under
// 2 µs per delta, like BenchmarkTextFilter, and flat in the reply's length.
func BenchmarkTextFilterMarkup(b *testing.B) {
	part := "Here is <b>bold</b> and [a link](https://example.org) and `code`.\n" +
		"- [x] done <br/>\n[1, 2, 3]\n{\"id\": 7, \"title\": \"data\", \"tags\": [\"a\", \"b\"]}\n" +
		"```python\nprint({'name': 'exec'}) # <tool_call>\n```\n> quoted >>> text\n"
	text := strings.Repeat(part, 40) + `[TOOL_CALLS]exec[ARGS]{"command": "ls"}`
	deltas := tokenRE.FindAllString(text, -1)
	offered := toolSet(familyTools)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f := newTextFilter(offered)
		for _, d := range deltas {
			f.write(d)
		}
		f.flush()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(deltas)), "ns/delta")
}
