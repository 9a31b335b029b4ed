package testmodel

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"
)

// ggufFile is what the test reader extracts from a GGUF file.
type ggufFile struct {
	kvs     map[string]any
	tensors map[string][]float32
	dims    map[string][]uint64
}

type reader struct {
	r   *bytes.Reader
	err error
}

func (r *reader) u32() uint32 {
	var v uint32
	if r.err == nil {
		r.err = binary.Read(r.r, binary.LittleEndian, &v)
	}
	return v
}

func (r *reader) u64() uint64 {
	var v uint64
	if r.err == nil {
		r.err = binary.Read(r.r, binary.LittleEndian, &v)
	}
	return v
}

func (r *reader) str() string {
	n := r.u64()
	if r.err != nil || n > 1<<20 {
		return ""
	}
	b := make([]byte, n)
	_, r.err = r.r.Read(b)
	return string(b)
}

func (r *reader) value(typ uint32) any {
	switch typ {
	case ggufUint32:
		return r.u32()
	case ggufInt32:
		return int32(r.u32())
	case ggufFloat32:
		return math.Float32frombits(r.u32())
	case ggufBool:
		b, _ := r.r.ReadByte()
		return b != 0
	case ggufString:
		return r.str()
	case ggufArray:
		et, n := r.u32(), r.u64()
		out := make([]any, 0, n)
		for i := uint64(0); i < n && r.err == nil; i++ {
			out = append(out, r.value(et))
		}
		return out
	}
	return nil
}

func parseGGUF(t *testing.T, b []byte) ggufFile {
	t.Helper()
	if string(b[:4]) != "GGUF" {
		t.Fatalf("magic %q", b[:4])
	}
	r := &reader{r: bytes.NewReader(b[4:])}
	if v := r.u32(); v != 3 {
		t.Fatalf("version %d", v)
	}
	nt, nkv := r.u64(), r.u64()
	f := ggufFile{kvs: map[string]any{}, tensors: map[string][]float32{}, dims: map[string][]uint64{}}
	for i := uint64(0); i < nkv; i++ {
		k := r.str()
		f.kvs[k] = r.value(r.u32())
	}
	type info struct {
		name   string
		n, off uint64
	}
	var infos []info
	for i := uint64(0); i < nt; i++ {
		name := r.str()
		nd := r.u32()
		n := uint64(1)
		var dims []uint64
		for j := uint32(0); j < nd; j++ {
			d := r.u64()
			dims = append(dims, d)
			n *= d
		}
		if typ := r.u32(); typ != 0 {
			t.Fatalf("tensor %s type %d", name, typ)
		}
		off := r.u64()
		if off%alignment != 0 {
			t.Fatalf("tensor %s offset %d not aligned", name, off)
		}
		infos = append(infos, info{name, n, off})
		f.dims[name] = dims
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	pos := int64(len(b)-4) - int64(r.r.Len()) + 4
	start := (pos + alignment - 1) / alignment * alignment
	for _, in := range infos {
		data := make([]float32, in.n)
		base := start + int64(in.off)
		for i := range data {
			data[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[base+int64(i)*4:]))
		}
		f.tensors[in.name] = data
	}
	return f
}

func TestByteMapping(t *testing.T) {
	m := byteToRune()
	for b, want := range map[byte]rune{'a': 'a', ' ': 'Ġ', '\n': 'Ċ', 0x00: 0x100, 0x7F: 0x121, 0xA0: 0x142, 0xAD: 0x143, 0xFF: 0xFF} {
		if m[b] != want {
			t.Errorf("byte %#x -> %U, want %U", b, m[b], want)
		}
	}
	if encodeToken(" the\n") != "ĠtheĊ" {
		t.Errorf("encodeToken = %q", encodeToken(" the\n"))
	}
}

// next runs the bigram model on one token: RMSNorm(embedding) · output.
func next(f ggufFile, d, tok int) int {
	emb := f.tensors["token_embd.weight"][tok*d : (tok+1)*d]
	var ss float64
	for _, x := range emb {
		ss += float64(x * x)
	}
	scale := 1 / math.Sqrt(ss/float64(d)+1e-6)
	out := f.tensors["output.weight"]
	best, bestLogit := -1, math.Inf(-1)
	for v := 0; v < len(out)/d; v++ {
		var l float64
		for k := 0; k < d; k++ {
			l += float64(emb[k]) * scale * float64(out[v*d+k])
		}
		if l > bestLogit {
			best, bestLogit = v, l
		}
	}
	return best
}

func decode(tok string) string {
	m := byteToRune()
	inv := map[rune]byte{}
	for b, r := range m {
		inv[r] = byte(b)
	}
	var out []byte
	for _, r := range tok {
		out = append(out, inv[r])
	}
	return string(out)
}

func TestChatModelIsABigramChain(t *testing.T) {
	b, err := ChatModel()
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 600_000 {
		t.Errorf("chat model is %d bytes", len(b))
	}
	f := parseGGUF(t, b)
	if f.kvs["general.architecture"] != "qwen3" || f.kvs["qwen3.context_length"] != uint32(ContextLength) || f.kvs["tokenizer.ggml.add_bos_token"] != false {
		t.Errorf("metadata %v", f.kvs)
	}
	if _, ok := f.kvs["qwen3.pooling_type"]; ok {
		t.Error("chat model must not have pooling_type (it would become an embedding model)")
	}
	v := newVocab()
	if got := len(f.kvs["tokenizer.ggml.tokens"].([]any)); got != len(v.tokens) {
		t.Errorf("%d tokens", got)
	}
	if d := f.dims["token_embd.weight"]; len(d) != 2 || d[0] != 64 || d[1] != uint64(len(v.tokens)) {
		t.Errorf("token_embd dims %v", d)
	}
	run := func(from string) string {
		var sb strings.Builder
		tok := v.id(from)
		for i := 0; i < 20; i++ {
			tok = next(f, 64, tok)
			if tok == v.id(tokImEnd) {
				return sb.String()
			}
			sb.WriteString(decode(f.kvs["tokenizer.ggml.tokens"].([]any)[tok].(string)))
		}
		t.Fatalf("chain from %q does not end", from)
		return ""
	}
	if got := run("\n"); got != ChatReply {
		t.Errorf("reply after newline = %q", got)
	}
	if got, want := run(tokToolStart), "<tool_call>"+toolCallText+"</tool_call>"; got != want {
		t.Errorf("tool path = %q, want %q", got, want)
	}
	if got := run("x"); got != "" {
		t.Errorf("other tokens should end the reply, got %q", got)
	}
}

func TestTextToolModel(t *testing.T) {
	b, err := TextToolModel()
	if err != nil {
		t.Fatal(err)
	}
	f := parseGGUF(t, b)
	v := newVocab()
	tokens := f.kvs["tokenizer.ggml.tokens"].([]any)
	tok := next(f, 64, v.id(tokToolStart))
	if got := decode(tokens[tok].(string)); got != TextToolCall {
		t.Errorf("tool path prints %q", got)
	}
	if next(f, 64, tok) != v.id(tokImEnd) {
		t.Error("text call is not the end of the reply")
	}
	if next(f, 64, v.id("\n")) != v.id(replyWords[0]) {
		t.Error("plain reply chain broken")
	}
}

func TestEmbedModel(t *testing.T) {
	b, err := EmbedModel()
	if err != nil {
		t.Fatal(err)
	}
	f := parseGGUF(t, b)
	if f.kvs["qwen3.pooling_type"] != uint32(1) || f.kvs["qwen3.embedding_length"] != uint32(EmbeddingLength) {
		t.Errorf("metadata %v", f.kvs)
	}
	if _, ok := f.tensors["output.weight"]; ok {
		t.Error("embedding model has an output head")
	}
	b2, _ := EmbedModel()
	if !bytes.Equal(b, b2) {
		t.Error("embedding model is not deterministic")
	}
}

func TestTemplateMentionsWhatOllamaNeeds(t *testing.T) {
	for _, s := range []string{".Tools", "{{ if .ToolCalls }}<tool_call>", tokToolStart, `ne $last "tool"`} {
		if !strings.Contains(Template, s) {
			t.Errorf("template lacks %q", s)
		}
	}
}

func TestWindowTemplateRendersSystemOnce(t *testing.T) {
	if WindowTemplate == Template || strings.Contains(WindowTemplate, "{{ .System }}") {
		t.Fatal("WindowTemplate still renders .System besides the system message")
	}
	if !strings.Contains(WindowTemplate, `eq .Role "system"`) || !strings.Contains(WindowTemplate, ".Tools") {
		t.Fatal("WindowTemplate lost the system message or the tools")
	}
}
