package testmodel

import (
	"regexp"
	"strings"
)

// Window is a bigram chat model for context-window tests: it declares its
// own maximum context (the figure /api/show reports and Hearth budgets
// against) and chooses how densely its tokenizer packs text.
type Window struct {
	// Name is the model's general.name.
	Name string
	// ContextLength is the window the model declares (qwen3.context_length).
	ContextLength int
	// Words are texts whose pre-tokenised pieces (" the", "Hello", ",\n", …)
	// become whole tokens, so the tokenizer spends about one token per word
	// on them, as trained vocabularies do on common text. Without Words every
	// byte of the prompt is its own token: the densest tokenizer there is.
	Words []string
	// Tool and Args are the call the model makes when tools are offered and
	// the last message is not a tool result (Args a JSON object). Without a
	// Tool it answers ChatReply whether tools are offered or not.
	Tool, Args string
}

// WindowTemplate is the Modelfile TEMPLATE for Window models: Template, but
// the system prompt rendered once. (Template renders it twice, as .System
// and again among the messages; Ollama fills both from the system message.
// Real chat templates render it once, and in a small window the difference
// is the whole budget.)
var WindowTemplate = strings.Replace(Template, `{{- if .System }}<|im_start|>system
{{ .System }}<|im_end|>
{{ end -}}
`, "", 1)

// pieceRE approximates the qwen2 pre-tokenizer Ollama applies before looking
// pieces up (the real pattern's `\s+(?!\S)` needs a lookahead Go lacks; it
// only decides which piece a run of spaces joins, which matters little here).
var pieceRE = regexp.MustCompile(`(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+| ?[^\s\p{L}\p{N}]+[\r\n]*`)

// Pieces splits text into the pieces that Window.Words adds as tokens.
func Pieces(text string) []string { return pieceRE.FindAllString(text, -1) }

// Model returns the GGUF bytes of the model.
func (w Window) Model() ([]byte, error) {
	v := newVocab()
	var extra []string
	add := func(t string) {
		if _, ok := v.ids[t]; !ok && len(t) > 1 {
			v.add(t, typeNormal)
			extra = append(extra, t)
		}
	}
	var toolPath [][2]string
	if w.Tool != "" {
		call := "\n{\"name\": \"" + w.Tool + "\", \"arguments\": " + w.Args + "}\n"
		add(call)
		toolPath = [][2]string{{tokToolStart, tokCallOpen}, {tokCallOpen, call}, {call, tokCallClose}}
	} else {
		// The template still starts a call when tools are offered: go on
		// into the reply instead.
		toolPath = [][2]string{{tokToolStart, replyWords[0]}}
	}
	for _, text := range w.Words {
		for _, p := range Pieces(text) {
			add(p)
		}
	}
	return wiredModel(w.Name, w.ContextLength, v, toolPath)
}
