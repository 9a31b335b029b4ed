package models

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"hearth/backend/i18n"
	"hearth/backend/llm"
)

func TestPullFailureWordsTheProblemAndKeepsTheProviderText(t *testing.T) {
	raw := errors.New("pull model manifest: file does not exist")
	le := &llm.Error{Kind: llm.KindModelNotFound, Message: "x", Err: raw, Why: i18n.P("error.pull.unknown", "model", "nope:1b")}
	why, detail := pullFailure(le, "nope:1b")
	if why.Text.Code != "error.pull.unknown" || why.Text.Args["model"] != "nope:1b" {
		t.Errorf("why = %+v", why)
	}
	if detail != raw.Error() {
		t.Errorf("detail = %q, want the provider's own text", detail)
	}
	// An error without a code is the generic failure, still naming the model.
	why, detail = pullFailure(errors.New("boom"), "tiny:1b")
	if why.Text.Code != "error.pull.failed" || why.Text.Args["model"] != "tiny:1b" || detail != "boom" {
		t.Errorf("plain error: %+v %q", why, detail)
	}
}

func TestPullFailureBoundsAHugeProviderText(t *testing.T) {
	// A hostile or broken server answers with a megabyte of text, split inside a rune.
	huge := strings.Repeat("é", 1<<19)
	_, detail := pullFailure(errors.New(huge), "tiny:1b")
	if len(detail) > maxDetail+len("…") || !utf8.ValidString(detail) {
		t.Errorf("detail is %d bytes, valid UTF-8 %v", len(detail), utf8.ValidString(detail))
	}
}
