package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strconv"

	openai "github.com/sashabaranov/go-openai"

	"hearth/backend/i18n"
)

// The servers people run on a GPU machine refuse an overlong prompt in their
// own words: llama.cpp with an exceed_context_size_error carrying
// n_prompt_tokens and n_ctx (HTTP 400, or 500 before late 2025), vLLM with
// "This model's maximum context length is N tokens. However, you requested M
// tokens" (400, or an error event inside the stream). go-openai keeps only
// the message of an error body, so errorTap keeps the body for classify.

// errorTapKey carries the *[]byte that receives an error response's body.
type errorTapKey struct{}

// maxErrorBody bounds the kept body: an error is a few hundred bytes.
const maxErrorBody = 64 << 10

// errorTap keeps the body of an HTTP error answer for the request's tap.
type errorTap struct{ next http.RoundTripper }

func (t errorTap) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	slot, _ := req.Context().Value(errorTapKey{}).(*[]byte)
	if err != nil || slot == nil || resp.StatusCode < http.StatusBadRequest {
		return resp, err
	}
	body, rerr := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	resp.Body.Close()
	*slot = body
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, rerr
}

// tapped is hc with errorTap in front of its transport.
func tapped(hc *http.Client) *http.Client {
	next := hc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	c := *hc
	c.Transport = errorTap{next: next}
	return &c
}

// withErrorTap returns ctx carrying a fresh slot for an error body.
func withErrorTap(ctx context.Context) (context.Context, *[]byte) {
	slot := new([]byte)
	return context.WithValue(ctx, errorTapKey{}, slot), slot
}

// vllmWindowRE reads vLLM's wording: the window, then the request's size.
var vllmWindowRE = regexp.MustCompile(`maximum context length is (\d+) tokens.*?(?:requested|request has|resulted in) (\d+)`)

// contextRefusal recognises a server's "the prompt does not fit" answer and
// words it with the sizes when the server gave them.
func (p *OpenAI) contextRefusal(err error, msg string, body []byte) (*Error, bool) {
	typ := ""
	var ae *openai.APIError
	if errors.As(err, &ae) {
		typ = ae.Type
	}
	var llama struct {
		Error struct {
			Type   string `json:"type"`
			Prompt int    `json:"n_prompt_tokens"`
			Ctx    int    `json:"n_ctx"`
		} `json:"error"`
	}
	_ = json.Unmarshal(body, &llama)
	tokens, window := llama.Error.Prompt, llama.Error.Ctx
	if m := vllmWindowRE.FindStringSubmatch(msg); m != nil {
		window, _ = strconv.Atoi(m[1])
		tokens, _ = strconv.Atoi(m[2])
	}
	isLlama := typ == "exceed_context_size_error" || llama.Error.Type == "exceed_context_size_error"
	if !isLlama && !looksLikeContextOverflow(msg) && !looksLikeContextOverflow(string(body)) {
		return nil, false
	}
	hint := i18n.M("error.provider.contextOverflow.hint")
	if tokens > 0 && window > 0 {
		return fail(KindContextOverflow, err, i18n.M("error.provider.contextOverflow", "provider", p.cfg.Name,
			"tokens", strconv.Itoa(tokens), "window", strconv.Itoa(window)).WithHint(hint)), true
	}
	return fail(KindContextOverflow, err, i18n.M("error.contextOverflow").WithHint(hint)), true
}
