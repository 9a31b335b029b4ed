package testmodel

import (
	"math/rand/v2"
)

// What the chat model does, for assertions.
const (
	// ChatReply is the chat model's answer to any prompt (also after a tool result).
	ChatReply = "Hello from the tiny model!"
	// ToolName is the tool the chat model calls when tools are offered.
	ToolName = "get_weather"
	// ToolArgs are the arguments of that call.
	ToolArgs = `{"city": "Paris"}`
	// ContextLength is both models' own maximum context.
	ContextLength = 16384
	// EmbeddingLength is the embedding model's vector size.
	EmbeddingLength = 384
)

// Special tokens.
const (
	tokEndOfText = "<|endoftext|>"
	tokImStart   = "<|im_start|>"
	tokImEnd     = "<|im_end|>"
	// tokToolStart is a control token the template emits (instead of nothing)
	// when tools are offered and the model should call one: the bigram chain
	// continues from it into a <tool_call>.
	tokToolStart = "<|hearth_tool|>"
	tokCallOpen  = "<tool_call>"
	tokCallClose = "</tool_call>"
)

// Token types of tokenizer.ggml.token_type.
const (
	typeNormal      = 1
	typeControl     = 3
	typeUserDefined = 4
)

// replyWords are whole-word tokens of ChatReply (before the final "!").
var replyWords = []string{"Hello", " from", " the", " tiny", " model"}

// toolCallText is the single token holding the call between the tags.
const toolCallText = "\n{\"name\": \"" + ToolName + "\", \"arguments\": " + ToolArgs + "}\n"

// TextToolCall is what the text-call model prints instead of a tagged call:
// a bare JSON object, which Ollama passes through as text (only Hearth's
// fallback turns it into a call).
const TextToolCall = "{\"name\": \"" + ToolName + "\", \"arguments\": " + ToolArgs + "}"

// Template is the Modelfile TEMPLATE for the chat model: ChatML, with .Tools
// (which gives the tools capability), a {{ if .ToolCalls }}<tool_call> block
// (which tells Ollama's parser the tag) and the tool-start token at the end
// when a tool should be called.
const Template = `{{- $last := "" -}}
{{- if .System }}<|im_start|>system
{{ .System }}<|im_end|>
{{ end -}}
{{- if .Tools }}<|im_start|>system
Tools:{{ range .Tools }} {{ .Function.Name }}{{ end }}<|im_end|>
{{ end -}}
{{- range .Messages }}{{ $last = .Role }}
{{- if eq .Role "system" }}<|im_start|>system
{{ .Content }}<|im_end|>
{{ else if eq .Role "user" }}<|im_start|>user
{{ .Content }}<|im_end|>
{{ else if eq .Role "assistant" }}<|im_start|>assistant
{{ .Content }}{{ if .ToolCalls }}<tool_call>
{{ range .ToolCalls }}{"name": "{{ .Function.Name }}", "arguments": {{ .Function.Arguments }}}
{{ end }}</tool_call>{{ end }}<|im_end|>
{{ else if eq .Role "tool" }}<|im_start|>user
<tool_response>
{{ .Content }}
</tool_response><|im_end|>
{{ end }}
{{- end }}<|im_start|>assistant
{{ if and .Tools (ne $last "tool") }}<|hearth_tool|>{{ end }}`

// vocab is the shared vocabulary: 256 byte tokens, control and user-defined
// tokens, and whole words.
type vocab struct {
	tokens []string
	types  []int32
	ids    map[string]int // by token text (not GPT-2 spelling)
}

func newVocab() *vocab {
	v := &vocab{ids: map[string]int{}}
	for b := 0; b < 256; b++ {
		v.add(string([]byte{byte(b)}), typeNormal)
	}
	for _, t := range []string{tokEndOfText, tokImStart, tokImEnd, tokToolStart} {
		v.add(t, typeControl)
	}
	v.add(tokCallOpen, typeUserDefined)
	v.add(tokCallClose, typeUserDefined)
	for _, w := range replyWords {
		v.add(w, typeNormal)
	}
	v.add(toolCallText, typeNormal)
	v.add(TextToolCall, typeNormal)
	return v
}

func (v *vocab) add(text string, typ int32) {
	v.ids[text] = len(v.tokens)
	if typ == typeNormal {
		text = encodeToken(text)
	}
	v.tokens = append(v.tokens, text)
	v.types = append(v.types, typ)
}

func (v *vocab) id(text string) int { return v.ids[text] }

// shape is the transformer size.
type shape struct {
	d, ff, heads, headDim int
}

func metadata(name string, v *vocab, s shape, extra ...kv) []kv {
	kvs := []kv{
		{"general.architecture", "qwen3"},
		{"general.name", name},
		{"general.file_type", uint32(0)},
		{"qwen3.block_count", uint32(1)},
		{"qwen3.context_length", uint32(ContextLength)},
		{"qwen3.embedding_length", uint32(s.d)},
		{"qwen3.feed_forward_length", uint32(s.ff)},
		{"qwen3.attention.head_count", uint32(s.heads)},
		{"qwen3.attention.head_count_kv", uint32(s.heads)},
		{"qwen3.attention.key_length", uint32(s.headDim)},
		{"qwen3.attention.value_length", uint32(s.headDim)},
		{"qwen3.attention.layer_norm_rms_epsilon", float32(1e-6)},
		{"qwen3.rope.freq_base", float32(1e6)},
		{"tokenizer.ggml.model", "gpt2"},
		{"tokenizer.ggml.pre", "qwen2"},
		{"tokenizer.ggml.tokens", v.tokens},
		{"tokenizer.ggml.token_type", v.types},
		{"tokenizer.ggml.merges", []string{}},
		{"tokenizer.ggml.bos_token_id", uint32(v.id(tokEndOfText))},
		{"tokenizer.ggml.add_bos_token", false},
		{"tokenizer.ggml.eos_token_id", uint32(v.id(tokImEnd))},
		{"tokenizer.ggml.padding_token_id", uint32(v.id(tokEndOfText))},
	}
	return append(kvs, extra...)
}

func filled(n int, x float32) []float32 {
	out := make([]float32, n)
	for i := range out {
		out[i] = x
	}
	return out
}

// block returns block 0 with unit norms and zero attention/FFN weights: the
// block adds nothing to the residual stream.
func block(s shape) []tensor {
	d, ff, hd := uint64(s.d), uint64(s.ff), uint64(s.heads*s.headDim)
	z := func(a, b uint64) []float32 { return make([]float32, a*b) }
	return []tensor{
		{"blk.0.attn_norm.weight", []uint64{d}, filled(s.d, 1)},
		{"blk.0.attn_q.weight", []uint64{d, hd}, z(d, hd)},
		{"blk.0.attn_k.weight", []uint64{d, hd}, z(d, hd)},
		{"blk.0.attn_v.weight", []uint64{d, hd}, z(d, hd)},
		{"blk.0.attn_q_norm.weight", []uint64{uint64(s.headDim)}, filled(s.headDim, 1)},
		{"blk.0.attn_k_norm.weight", []uint64{uint64(s.headDim)}, filled(s.headDim, 1)},
		{"blk.0.attn_output.weight", []uint64{hd, d}, z(hd, d)},
		{"blk.0.ffn_norm.weight", []uint64{d}, filled(s.d, 1)},
		{"blk.0.ffn_gate.weight", []uint64{d, ff}, z(d, ff)},
		{"blk.0.ffn_up.weight", []uint64{d, ff}, z(d, ff)},
		{"blk.0.ffn_down.weight", []uint64{ff, d}, z(ff, d)},
	}
}

// logitMargin per unit of a one-hot slot; RMSNorm scales a one-hot vector of
// width 64 by 8, so the chosen successor leads by 80.
const logitMargin = 10

// ChatModel returns the GGUF bytes of the bigram chat model (≈430 KB).
func ChatModel() ([]byte, error) {
	return chatModel("hearth-tiny-chat", [][2]string{
		{tokToolStart, tokCallOpen},
		{tokCallOpen, toolCallText},
		{toolCallText, tokCallClose},
	})
}

// TextToolModel is ChatModel except that its tool path prints TextToolCall as
// plain text, the way small local models often do.
func TextToolModel() ([]byte, error) {
	return chatModel("hearth-tiny-text", [][2]string{{tokToolStart, TextToolCall}})
}

// chatModel wires the reply chain plus the given tool path.
func chatModel(name string, toolPath [][2]string) ([]byte, error) {
	return chatModelWith(name, nil, toolPath)
}

// chatModelWith is chatModel with extra whole tokens in the vocabulary.
func chatModelWith(name string, extra []string, toolPath [][2]string) ([]byte, error) {
	v := newVocab()
	for _, t := range extra {
		v.add(t, typeNormal)
	}
	return wiredModel(name, ContextLength, v, toolPath)
}

// wiredModel is the bigram chat model over vocabulary v: the reply chain
// plus toolPath, declaring a window of ctxLen tokens.
func wiredModel(name string, ctxLen int, v *vocab, toolPath [][2]string) ([]byte, error) {
	s := shape{d: 64, ff: 128, heads: 4, headDim: 16}
	// Each token with a specific successor gets its own one-hot slot; all
	// other tokens share slot 0, whose successor is <|im_end|>.
	chain := [][2]string{{"\n", replyWords[0]}}
	for i := 1; i < len(replyWords); i++ {
		chain = append(chain, [2]string{replyWords[i-1], replyWords[i]})
	}
	chain = append(chain, [2]string{replyWords[len(replyWords)-1], "!"})
	chain = append(chain, toolPath...)
	n := len(v.tokens)
	embd := make([]float32, s.d*n)
	out := make([]float32, s.d*n)
	slot := map[int]int{}
	for i, link := range chain {
		slot[v.id(link[0])] = i + 1
		out[v.id(link[1])*s.d+i+1] = logitMargin
	}
	for tok := 0; tok < n; tok++ {
		embd[tok*s.d+slot[tok]] = 1
	}
	out[v.id(tokImEnd)*s.d+0] = logitMargin
	tensors := append([]tensor{
		{"token_embd.weight", []uint64{uint64(s.d), uint64(n)}, embd},
		{"output_norm.weight", []uint64{uint64(s.d)}, filled(s.d, 1)},
		{"output.weight", []uint64{uint64(s.d), uint64(n)}, out},
	}, block(s)...)
	kvs := metadata(name, v, s)
	for i := range kvs {
		if kvs[i].key == "qwen3.context_length" {
			kvs[i].value = uint32(ctxLen)
		}
	}
	return encodeGGUF(kvs, tensors)
}

// EmbedModel returns the GGUF bytes of the mean-pooling embedding model with
// seeded random token vectors.
func EmbedModel() ([]byte, error) {
	v := newVocab()
	s := shape{d: EmbeddingLength, ff: 128, heads: 4, headDim: 16}
	n := len(v.tokens)
	rng := rand.New(rand.NewPCG(42, 7))
	embd := make([]float32, s.d*n)
	for i := range embd {
		embd[i] = float32(rng.NormFloat64())
	}
	tensors := append([]tensor{
		{"token_embd.weight", []uint64{uint64(s.d), uint64(n)}, embd},
		{"output_norm.weight", []uint64{uint64(s.d)}, filled(s.d, 1)},
	}, block(s)...)
	return encodeGGUF(metadata("hearth-tiny-embed", v, s, kv{"qwen3.pooling_type", uint32(1)}), tensors)
}
