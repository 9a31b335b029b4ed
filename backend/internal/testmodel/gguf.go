// Package testmodel generates tiny GGUF models that the real Ollama server
// (v0.17.4) loads and runs in well under a second, for integration tests.
//
// No pretrained model can be downloaded here, so the models are wired by hand:
// architecture qwen3 with one block whose attention and FFN outputs are zero,
// so the residual stream is just the token embedding and the next token
// depends only on the current one. One-hot embeddings plus a large logit on
// the wanted successor make the chat model a deterministic bigram chain: after
// the prompt's final "\n" it answers ChatReply; after the template's
// tool-start control token it writes a <tool_call> for ToolName. The embedding
// model (pooling_type mean) has random word vectors, so /api/embed returns
// deterministic bag-of-words vectors.
package testmodel

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
)

// GGUF value types.
const (
	ggufUint32  = 4
	ggufInt32   = 5
	ggufFloat32 = 6
	ggufBool    = 7
	ggufString  = 8
	ggufArray   = 9
)

const alignment = 32

// kv is one GGUF metadata entry.
type kv struct {
	key   string
	value any // uint32, float32, bool, string, []string, []int32
}

// tensor is one F32 tensor; dims[0] is the contiguous dimension.
type tensor struct {
	name string
	dims []uint64
	data []float32
}

// ggufWriter builds a GGUF v3 file in memory.
type ggufWriter struct {
	buf bytes.Buffer
	err error
}

func (w *ggufWriter) put(v any) {
	if w.err == nil {
		w.err = binary.Write(&w.buf, binary.LittleEndian, v)
	}
}

func (w *ggufWriter) str(s string) {
	w.put(uint64(len(s)))
	w.buf.WriteString(s)
}

func (w *ggufWriter) value(v any) {
	switch t := v.(type) {
	case uint32:
		w.put(uint32(ggufUint32))
		w.put(t)
	case int32:
		w.put(uint32(ggufInt32))
		w.put(t)
	case float32:
		w.put(uint32(ggufFloat32))
		w.put(t)
	case bool:
		w.put(uint32(ggufBool))
		w.put(t)
	case string:
		w.put(uint32(ggufString))
		w.str(t)
	case []string:
		w.put(uint32(ggufArray))
		w.put(uint32(ggufString))
		w.put(uint64(len(t)))
		for _, s := range t {
			w.str(s)
		}
	case []int32:
		w.put(uint32(ggufArray))
		w.put(uint32(ggufInt32))
		w.put(uint64(len(t)))
		w.put(t) // binary.Write writes the elements one after another
	default:
		if w.err == nil {
			w.err = fmt.Errorf("gguf: unsupported value type %T", v)
		}
	}
}

func (w *ggufWriter) pad() {
	for w.buf.Len()%alignment != 0 {
		w.buf.WriteByte(0)
	}
}

// encodeGGUF writes a complete GGUF v3 file.
func encodeGGUF(kvs []kv, tensors []tensor) ([]byte, error) {
	w := &ggufWriter{}
	w.buf.WriteString("GGUF")
	w.put(uint32(3))
	w.put(uint64(len(tensors)))
	w.put(uint64(len(kvs)))
	for _, e := range kvs {
		w.str(e.key)
		w.value(e.value)
	}
	var offset uint64
	for _, t := range tensors {
		n := uint64(1)
		for _, d := range t.dims {
			n *= d
		}
		if n != uint64(len(t.data)) {
			return nil, fmt.Errorf("gguf: tensor %s has %d values for dims %v", t.name, len(t.data), t.dims)
		}
		w.str(t.name)
		w.put(uint32(len(t.dims)))
		for _, d := range t.dims {
			w.put(d)
		}
		w.put(uint32(0)) // F32
		w.put(offset)
		offset += n * 4
		offset = (offset + alignment - 1) / alignment * alignment
	}
	w.pad()
	for _, t := range tensors {
		for _, x := range t.data {
			w.put(math.Float32bits(x))
		}
		w.pad()
	}
	if w.err != nil {
		return nil, fmt.Errorf("gguf: encode: %w", w.err)
	}
	return w.buf.Bytes(), nil
}

// byteToRune is GPT-2's byte-level mapping: printable bytes stand for
// themselves, the others are shifted to U+0100 and up.
func byteToRune() [256]rune {
	var m [256]rune
	printable := func(b int) bool {
		return (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF)
	}
	n := 0
	for b := 0; b < 256; b++ {
		if printable(b) {
			m[b] = rune(b)
		} else {
			m[b] = rune(256 + n)
			n++
		}
	}
	return m
}

// encodeToken spells text the way a GPT-2 vocabulary stores it.
func encodeToken(text string) string {
	m := byteToRune()
	var b []rune
	for _, c := range []byte(text) {
		b = append(b, m[c])
	}
	return string(b)
}
