package llm

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// encoderCases are requests whose every field and escape the encoder must write as
// json.Marshal does.
func encoderCases() []wireChatRequest {
	yes, no := true, false
	tricky := []string{"", "plain", "tab\there", "quote \" and \\ backslash", "<b>&amp;</b>",
		"line\u2028sep\u2029para", "ctl \x00\x01\x1f\x7f", "bad utf8 \xff\xfe end", "cut rune \xe2\x82",
		"α β γ 中文 😀", strings.Repeat("abcdefgh", 9) + "<", "12345678\"", "\b\f\n\r"}
	var msgs []wireMessage
	for i, s := range tricky {
		m := wireMessage{Role: "user", Content: s}
		switch i % 4 {
		case 1:
			m = wireMessage{Role: "assistant", Content: s, Thinking: s, ToolCalls: []wireToolCall{
				{ID: "c" + s, Function: wireFunction{Index: 0, Name: "read_file", Arguments: json.RawMessage(`{"path":"a.md"}`)}},
				{Function: wireFunction{Index: 1, Name: s, Arguments: json.RawMessage("{\n \"html\": \"<&>\",\"n\" : [1, 2.50, -3e2, null, true] }")}},
				{Function: wireFunction{Index: 2, Name: "x", Arguments: json.RawMessage(`{"u":"\u2028 é \u003c"}`)}},
			}}
		case 2:
			m = wireMessage{Role: "tool", Content: s, ToolName: s, ToolCallID: "id-" + s}
		case 3:
			m.Images = [][]byte{{1, 2, 3}, {}, nil, []byte(s)}
		}
		msgs = append(msgs, m)
	}
	tools, err := json.Marshal([]map[string]any{{"type": "function", "function": map[string]any{"name": "a", "description": "<x> & y\u2028",
		"parameters": json.RawMessage(` { "type" : "object" } `)}}})
	if err != nil {
		panic(err)
	}
	return []wireChatRequest{
		{Model: "qwen3:4b", Messages: msgs, Stream: true, Tools: tools,
			Options: map[string]any{"num_ctx": 8192, "num_predict": 512, "temperature": 0.3}, Think: true, Truncate: &no, Shift: &no},
		{Model: "m", Options: map[string]any{"num_ctx": 1, "temperature": 1e-9}, Think: "high", Truncate: &yes},
		{Messages: []wireMessage{}, Tools: json.RawMessage("[]")},
	}
}

// The encoder writes exactly what json.Marshal writes for the same request.
func TestChatEncoderMatchesMarshal(t *testing.T) {
	for i, w := range encoderCases() {
		got, err := appendChatRequest(nil, &w, nil)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		want, err := json.Marshal(w)
		if err != nil {
			t.Fatalf("case %d: json.Marshal: %v", i, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("case %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

// Every string and tool argument the fuzzer finds is written as json.Marshal writes it.
func FuzzChatEncoder(f *testing.F) {
	f.Add("hello <world> & \"you\"", `{"a":1}`)
	f.Add("\u2028\xff\x00 中文", " { \"b\" : [ 1 , \"<\" ] } ")
	f.Add(strings.Repeat("x", 17), `{}`)
	f.Fuzz(func(t *testing.T, s, args string) {
		if !json.Valid([]byte(args)) || args[0] != '{' {
			return // arguments are JSON objects (else the encoder refuses them)
		}
		w := wireChatRequest{Model: s, Options: map[string]any{"num_ctx": 2048},
			Messages: []wireMessage{{Role: "assistant", Content: s, Thinking: s, ToolName: s, ToolCallID: s,
				ToolCalls: []wireToolCall{{ID: s, Function: wireFunction{Name: s, Arguments: json.RawMessage(args)}}}}}}
		if tools, err := json.Marshal(json.RawMessage(args)); err == nil {
			w.Tools = tools // as encodeTools gives them: json.Marshal's output
		}
		got, err := appendChatRequest(nil, &w, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(w)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
	})
}

// A request that shares its first messages with an earlier one is encoded as if
// nothing were kept: the next round of a turn, an old result turned placeholder,
// two conversations taking turns, a conversation gone back to its start.
func TestChatEncoderReusesEarlierMessages(t *testing.T) {
	msg := func(role, content string) wireMessage { return wireMessage{Role: role, Content: content} }
	call := func(id string) wireMessage {
		return wireMessage{Role: "assistant", ToolCalls: []wireToolCall{{ID: id, Function: wireFunction{Name: "read_file",
			Arguments: json.RawMessage(`{"path":"<` + id + `>.md"}`)}}}}
	}
	system := msg("system", strings.Repeat("You are Hearth. ", 50))
	a := []wireMessage{system, msg("user", "what is in a.md?")}
	a2 := append(slices.Clone(a), call("c1"), msg("tool", "contents of a"))
	a3 := append(slices.Clone(a2), call("c2"), msg("tool", "more contents"))
	a3placeholder := slices.Clone(a3)
	a3placeholder[3] = msg("tool", "[tool result of read_file omitted]")
	b := []wireMessage{msg("system", "another prompt"), msg("user", "hi")}
	b2 := append(slices.Clone(b), msg("assistant", "hello"), msg("user", "again"))
	image := []wireMessage{system, {Role: "user", Content: "look", Images: [][]byte{{1, 2}}}}
	image2 := []wireMessage{system, {Role: "user", Content: "look", Images: [][]byte{{1, 3}}}}
	args2 := slices.Clone(a2)
	args2[2] = call("c1-other")

	var cache messageCache
	for i, msgs := range [][]wireMessage{a, a2, b, a3, b2, a3placeholder, a, image, image2, args2, a2, {}, a3} {
		w := wireChatRequest{Model: "m", Messages: msgs, Options: map[string]any{"num_ctx": 4096}}
		got, err := appendChatRequest(nil, &w, &cache)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		want, _ := json.Marshal(w)
		if !bytes.Equal(got, want) {
			t.Errorf("request %d:\n got %s\nwant %s", i, got, want)
		}
	}
	// The next round really copies: the kept encoding of a2 is what a3 starts with.
	if s := cache.recent[0]; len(s.msgs) != len(a3) || s.ends[len(a2)-1] == 0 {
		t.Errorf("the last request is not kept: %+v", s)
	}
	if n := sharedPrefix(a2, a3placeholder); n != 3 {
		t.Errorf("sharedPrefix = %d, want 3", n)
	}
}

// An argument that is not a JSON object is refused, as before the encoder kept
// anything.
func TestChatEncoderRefusesNonObjectArguments(t *testing.T) {
	for _, args := range []string{`[1]`, `"x"`, `{"a":`} {
		w := wireChatRequest{Messages: []wireMessage{{Role: "assistant", ToolCalls: []wireToolCall{{Function: wireFunction{Name: "f", Arguments: json.RawMessage(args)}}}}}}
		_, err := appendChatRequest(nil, &w, &messageCache{})
		if e, ok := AsError(err); !ok || e.Kind != KindBadResponse {
			t.Errorf("arguments %s: err %v, want a bad_response error", args, err)
		}
	}
}
