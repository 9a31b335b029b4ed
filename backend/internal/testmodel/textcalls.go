package testmodel

import "strings"

// Models that print their tool call as text in the shape of another model
// family, the way a model does when the server's parser does not know its
// shape. Each call is split into several tokens so that it reaches the
// client in pieces, as a real model's does.

// MistralCallPieces are the tokens MistralToolModel prints: Mistral's
// tokenizer-v11 form (Mistral Small 3.2, Magistral, Devstral).
var MistralCallPieces = []string{"[TOOL_CALLS]", ToolName, "[ARGS]", ToolArgs}

// CoderCallPieces are the tokens CoderToolModel prints: Qwen3-Coder's XML form.
var CoderCallPieces = []string{tokCallOpen, "\n<function=" + ToolName + ">\n", "<parameter=city>\nParis\n</parameter>\n", "</function>\n", tokCallClose}

// Names for these models (created by the tests that use them).
const (
	MistralToolModelName = "hearth-tiny-mistral:latest"
	CoderToolModelName   = "hearth-tiny-coder:latest"
)

// TemplateNoCallTag is Template without its {{ if .ToolCalls }} block.
// Ollama takes the text after .ToolCalls as the tag that starts a call and
// then holds back everything after that tag, dropping what it cannot parse
// as JSON; a model whose calls start with <tool_call> but hold XML needs a
// template that does not name the tag, or its call never reaches the client.
var TemplateNoCallTag = strings.Replace(Template,
	"{{ if .ToolCalls }}<tool_call>\n{{ range .ToolCalls }}{\"name\": \"{{ .Function.Name }}\", \"arguments\": {{ .Function.Arguments }}}\n{{ end }}</tool_call>{{ end }}", "", 1)

// MistralToolModel prints [TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}.
// Create it with Template.
func MistralToolModel() ([]byte, error) {
	return pieceModel("hearth-tiny-mistral", MistralCallPieces)
}

// CoderToolModel prints <tool_call><function=get_weather><parameter=city>…
// Create it with TemplateNoCallTag.
func CoderToolModel() ([]byte, error) {
	return pieceModel("hearth-tiny-coder", CoderCallPieces)
}

// pieceModel is ChatModel whose tool path prints pieces one token each.
// Pieces already in the shared vocabulary (the tool-call tags) are used as
// they are; each piece must be a token no other chain link starts from.
func pieceModel(name string, pieces []string) ([]byte, error) {
	known := newVocab().ids
	var extra []string
	path := [][2]string{{tokToolStart, pieces[0]}}
	for i, p := range pieces {
		if _, ok := known[p]; !ok {
			extra = append(extra, p)
		}
		if i > 0 {
			path = append(path, [2]string{pieces[i-1], p})
		}
	}
	return chatModelWith(name, extra, path)
}
