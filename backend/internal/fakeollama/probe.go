package fakeollama

import (
	"encoding/json"
	"slices"
	"strings"
)

// probeReply answers a request of the model fitness check (it carries
// CheckHeader) the way a model of m's ToolStyle would, without touching the
// reply queue: the desktop checks a model in the background after its first
// reply, and that must not take the replies a test scripted for its chats.
//
//   - "structured" calls get_weather for a weather question, answers "4" to
//     "2 + 2", and answers with the tool's result once it has one;
//   - "text" prints the call as a JSON object instead;
//   - "eager" calls the tool for every question, even "2 + 2";
//   - "none" never calls;
//   - "reads" leaves the made-up get_weather alone but uses Hearth's read_file;
//   - "broken" fails every request with HTTP 500.
//
// Every reply reports 25 tokens per second and takes the model's ProbeDelayMS.
func probeReply(m Model, req ChatRequest) Reply {
	style := m.ToolStyle
	if style == "" {
		style = "none"
		if slices.Contains(m.Capabilities, "tools") {
			style = "structured"
		}
	}
	last := ChatMessage{}
	if n := len(req.Messages); n > 0 {
		last = req.Messages[n-1]
	}
	text := strings.ToLower(last.Content)
	r := Reply{DelayMS: m.ProbeDelayMS}
	switch {
	case style == "broken":
		return Reply{Status: 500, Error: "llama runner process has terminated"}
	case last.Role == "tool" && style == "reads":
		r.Content = "The file says: " + last.Content
	case last.Role == "tool":
		r.Content = "It is 18 °C and sunny in Paris."
	case style == "reads" && offers(req, "read_file"):
		r.ToolCalls = []ToolCall{{Name: "read_file", Arguments: json.RawMessage(`{"path": "note.txt"}`)}}
	case style == "reads" && strings.Contains(text, "weather"):
		r.Content = "I cannot look up the weather, sorry."
	case len(req.Tools) > 0 && style != "none" && (strings.Contains(text, "weather") || style == "eager"):
		args := json.RawMessage(`{"city": "Paris"}`)
		if style == "text" {
			r.Content = `{"name": "get_weather", "arguments": ` + string(args) + `}`
		} else {
			r.ToolCalls = []ToolCall{{Name: "get_weather", Arguments: args}}
		}
	case strings.Contains(text, "2 + 2"):
		r.Content = "4"
	case strings.Contains(text, "weather"):
		r.Content = "I cannot look up the weather, sorry."
	default:
		r.Content = "OK."
	}
	if r.Content != "" {
		r.Chunks = []string{r.Content} // one line: ProbeDelayMS is paid once per answer
	}
	r.EvalCount = 8
	r.EvalDurationMS = 320
	return r
}

// offers reports whether the request offers the tool name.
func offers(req ChatRequest, name string) bool {
	for _, raw := range req.Tools {
		var t struct {
			Function struct{ Name string } `json:"function"`
		}
		if json.Unmarshal(raw, &t) == nil && t.Function.Name == name {
			return true
		}
	}
	return false
}
