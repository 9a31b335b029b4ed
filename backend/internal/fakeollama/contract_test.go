package fakeollama

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The contract: every request Hearth sends to Ollama, as one table that both
// the fake and the real server (contract_real_test.go) run through. A case
// reduces the answer to its shape — status, content type, framing, JSON field
// names and types, and the few values Hearth branches on (done, done_reason,
// role) — never its text. The fake is trusted only as far as this table goes.

// Names of the models the table asks for: testmodel's, which the real server
// is given and the fake is scripted with (contractScript).
const (
	contractChat  = "hearth-tiny:latest"
	contractEmbed = "hearth-tiny-embed:latest"
	contractNone  = "no-such-model:latest"
)

type contractCase struct {
	name   string
	method string
	path   string
	body   string
	// fake scripts the fake for this case (a chat reply, a pull that fails
	// offline as the real server's does here); the real server needs nothing.
	fake func(*Server)
}

var weatherTool = `[{"type":"function","function":{"name":"get_weather","description":"Current weather",` +
	`"parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}]`

// longPrompt does not fit num_ctx 256 (truncate off, as Hearth sends it).
var longPrompt = strings.Repeat("lorem ipsum dolor sit amet ", 200)

func chatBody(model, content string, stream bool, extra string) string {
	return fmt.Sprintf(`{"model":%q,"messages":[{"role":"user","content":%q}],"stream":%t,"options":{"num_ctx":2048},"truncate":false,"shift":false%s}`,
		model, content, stream, extra)
}

var contractCases = []contractCase{
	{name: "root", method: "GET", path: "/"},
	{name: "version", method: "GET", path: "/api/version"},
	{name: "tags", method: "GET", path: "/api/tags"},
	{name: "show", method: "POST", path: "/api/show", body: `{"model":"` + contractChat + `"}`},
	{name: "show embed model", method: "POST", path: "/api/show", body: `{"model":"` + contractEmbed + `"}`},
	{name: "show unknown model", method: "POST", path: "/api/show", body: `{"model":"` + contractNone + `"}`},
	{name: "show bad json", method: "POST", path: "/api/show", body: `{"model":`},
	{name: "chat stream", method: "POST", path: "/api/chat", body: chatBody(contractChat, "Say hello", true, ""),
		fake: func(s *Server) { s.Enqueue(Reply{Content: "Hello from the tiny model!"}) }},
	{name: "chat no stream", method: "POST", path: "/api/chat", body: chatBody(contractChat, "Say hello", false, ""),
		fake: func(s *Server) { s.Enqueue(Reply{Content: "Hello from the tiny model!"}) }},
	{name: "chat length", method: "POST", path: "/api/chat",
		body: `{"model":"` + contractChat + `","messages":[{"role":"user","content":"Say hello"}],"stream":true,"options":{"num_ctx":2048,"num_predict":2}}`,
		fake: func(s *Server) { s.Enqueue(Reply{Content: "Hello from", DoneReason: "length"}) }},
	{name: "chat tool call", method: "POST", path: "/api/chat", body: chatBody(contractChat, "Weather in Paris?", true, `,"tools":`+weatherTool),
		fake: func(s *Server) {
			s.Enqueue(Reply{ToolCalls: []ToolCall{{Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}}})
		}},
	{name: "chat tool call no stream", method: "POST", path: "/api/chat", body: chatBody(contractChat, "Weather in Paris?", false, `,"tools":`+weatherTool),
		fake: func(s *Server) {
			s.Enqueue(Reply{ToolCalls: []ToolCall{{Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}}})
		}},
	{name: "chat unknown model", method: "POST", path: "/api/chat", body: chatBody(contractNone, "hi", true, "")},
	{name: "chat missing model", method: "POST", path: "/api/chat", body: `{"messages":[{"role":"user","content":"hi"}]}`},
	{name: "chat bad json", method: "POST", path: "/api/chat", body: `{"model":"` + contractChat + `","messages":[`},
	{name: "chat context too long", method: "POST", path: "/api/chat",
		body: `{"model":"` + contractChat + `","messages":[{"role":"user","content":"` + longPrompt + `"}],"stream":true,"options":{"num_ctx":256},"truncate":false,"shift":false}`},
	{name: "embed", method: "POST", path: "/api/embed", body: `{"model":"` + contractEmbed + `","input":["one","two"]}`},
	{name: "embed unknown model", method: "POST", path: "/api/embed", body: `{"model":"` + contractNone + `","input":["one"]}`},
	{name: "ps", method: "GET", path: "/api/ps"},
	{name: "pull unknown model", method: "POST", path: "/api/pull", body: `{"model":"` + contractNone + `"}`,
		fake: func(s *Server) { s.EnqueuePull(offlinePull(contractNone)) }},
	{name: "pull installed model offline", method: "POST", path: "/api/pull", body: `{"model":"` + contractChat + `"}`,
		fake: func(s *Server) { s.EnqueuePull(offlinePull(contractChat)) }},
	{name: "pull bad json", method: "POST", path: "/api/pull", body: `{"model":`},
	{name: "delete unknown model", method: "DELETE", path: "/api/delete", body: `{"model":"` + contractNone + `"}`},
	{name: "unknown path", method: "GET", path: "/api/nothing-here"},
}

// offlinePull is how a pull fails on a machine without the registry: the
// manifest step, then an error line (the real server's answer in the tests,
// which never reach the network).
func offlinePull(name string) PullReply {
	return PullReply{Steps: []Progress{{Status: "pulling manifest"}},
		Error: "pull model manifest: Get \"https://registry.ollama.ai/v2/library/" + name + "\": dial tcp: lookup registry.ollama.ai: no such host"}
}

// contractScript is the fake's side of the table's models: testmodel's names
// and capabilities.
func contractScript() Script {
	chat := DefaultModel()
	chat.Name, chat.Capabilities, chat.ContextLength = contractChat, []string{"completion", "tools"}, 16384
	embed := EmbedModel()
	embed.Name = contractEmbed
	return Script{Models: []Model{chat, embed}}
}

// runContract sends every case to base and returns each answer's shape by
// case name. prepare, if set, runs before each case.
func runContract(t *testing.T, base string, prepare func(contractCase)) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, c := range contractCases {
		if prepare != nil {
			prepare(c)
		}
		req, err := http.NewRequest(c.method, base+c.path, strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		if c.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
		resp.Body.Close()
		if err != nil {
			t.Fatalf("%s: read: %v", c.name, err)
		}
		out[c.name] = answerShape(c, resp, body)
		t.Logf("%s: %d %.300s", c.name, resp.StatusCode, body) // the text, for a person reading -v
	}
	return out
}

// answerShape is status, media type and the body's shape: JSON as one value,
// an ndjson stream as its distinct line shapes (the last line apart), text as "text".
func answerShape(c contractCase, resp *http.Response, body []byte) string {
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	head := fmt.Sprintf("%d %s", resp.StatusCode, media)
	switch media {
	case "application/json":
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			return head + " invalid JSON: " + err.Error()
		}
		return head + " " + shapeOf(c.path, "", v)
	case "application/x-ndjson":
		var ls []string
		sc := bufio.NewScanner(bytes.NewReader(body))
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var v any
			if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
				return head + " invalid line: " + sc.Text()
			}
			ls = append(ls, shapeOf(c.path, "", v))
		}
		if !bytes.HasSuffix(body, []byte("\n")) {
			head += " (last line unterminated)"
		}
		if len(ls) == 0 {
			return head + " no lines"
		}
		mid := slices.Compact(slices.Sorted(slices.Values(ls[:len(ls)-1])))
		return head + " lines " + strings.Join(mid, " | ") + " last " + ls[len(ls)-1]
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return head + " empty"
	}
	return head + " text"
}

// valueKeys are the fields whose values (not only types) belong to the shape:
// Hearth branches on them.
var valueKeys = map[string]bool{"done": true, "done_reason": true, "role": true}

// shapeOf renders v's shape. key is v's field name; path is the endpoint,
// for the few fields whose contents vary by model rather than by server.
func shapeOf(path, key string, v any) string {
	switch x := v.(type) {
	case map[string]any:
		if key == "model_info" {
			x = modelInfoShape(x)
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + ":" + shapeOf(path, k, x[k])
		}
		return "{" + strings.Join(parts, ",") + "}"
	case []any:
		var el []string
		for _, e := range x {
			el = append(el, shapeOf(path, key, e))
		}
		el = slices.Compact(slices.Sorted(slices.Values(el)))
		return "[" + strings.Join(el, "|") + "]"
	case string:
		if valueKeys[key] {
			return fmt.Sprintf("%q", x)
		}
		return "string"
	case bool:
		if valueKeys[key] {
			return fmt.Sprint(x)
		}
		return "bool"
	case float64:
		return "number"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// modelInfoShape keeps what Hearth reads of /api/show's model_info (the
// architecture and its context length); the rest is the model file's own
// metadata, which differs from model to model.
func modelInfoShape(info map[string]any) map[string]any {
	out := map[string]any{}
	arch, _ := info["general.architecture"].(string)
	if _, ok := info["general.architecture"]; ok {
		out["general.architecture"] = info["general.architecture"]
	}
	if v, ok := info[arch+".context_length"]; ok {
		out["ARCH.context_length"] = v
	}
	return out
}

func TestContractFake(t *testing.T) {
	srv, base := Start(t, contractScript())
	got := runContract(t, base, func(c contractCase) {
		if c.fake != nil {
			c.fake(srv)
		}
	})
	checkGolden(t, "fake", got)
}
