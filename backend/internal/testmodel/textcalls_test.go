package testmodel

import (
	"strings"
	"testing"
)

func TestTextCallModels(t *testing.T) {
	for _, m := range []struct {
		name   string
		build  func() ([]byte, error)
		pieces []string
	}{
		{"mistral", MistralToolModel, MistralCallPieces},
		{"coder", CoderToolModel, CoderCallPieces},
	} {
		t.Run(m.name, func(t *testing.T) {
			b, err := m.build()
			if err != nil {
				t.Fatal(err)
			}
			f := parseGGUF(t, b)
			tokens := f.kvs["tokenizer.ggml.tokens"].([]any)
			v := newVocab()
			var got []string
			tok := v.id(tokToolStart)
			for i := 0; i < 10; i++ {
				if tok = next(f, 64, tok); tok == v.id(tokImEnd) {
					break
				}
				got = append(got, decode(tokens[tok].(string)))
			}
			if strings.Join(got, "|") != strings.Join(m.pieces, "|") {
				t.Errorf("tool path prints %q, want %q", got, m.pieces)
			}
			if next(f, 64, v.id("\n")) != v.id(replyWords[0]) {
				t.Error("plain reply chain broken")
			}
		})
	}
}

func TestTemplateNoCallTag(t *testing.T) {
	if TemplateNoCallTag == Template || strings.Contains(TemplateNoCallTag, ".ToolCalls") {
		t.Fatal("the .ToolCalls block was not removed")
	}
	for _, s := range []string{".Tools", tokToolStart, `ne $last "tool"`} {
		if !strings.Contains(TemplateNoCallTag, s) {
			t.Errorf("template lacks %q", s)
		}
	}
}
