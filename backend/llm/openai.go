package llm

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"hearth/backend/egress"
	"hearth/backend/i18n"
)

// DefaultOpenAIBase is OpenAI's own endpoint (providers.openai.apiBase).
const DefaultOpenAIBase = "https://api.openai.com/v1"

// OpenAIConfig configures an OpenAI-compatible provider (OpenAI, OpenRouter,
// DeepSeek, Groq, vLLM, LM Studio, llama.cpp server, …) with plain values.
type OpenAIConfig struct {
	// Name is the provider's key in config.json ("openai" or "custom.<name>");
	// hints name it ("check providers.custom.groq.apiKey") so the user knows
	// which entry to fix.
	Name    string
	BaseURL string
	APIKey  string
	// ContextTokens is the context window the agent budgets against; it is
	// reported in Response.ContextTokens (the API has no num_ctx).
	ContextTokens int
	HTTPClient    *http.Client
	Retry         RetryPolicy
}

// OpenAI talks to an OpenAI-compatible /chat/completions endpoint.
type OpenAI struct {
	client *openai.Client
	cfg    OpenAIConfig
}

var _ Provider = (*OpenAI)(nil)

// NewOpenAI returns an OpenAI-compatible provider.
func NewOpenAI(cfg OpenAIConfig) (*OpenAI, error) {
	cfg.Name = cmp.Or(cfg.Name, "openai")
	if strings.TrimSpace(cfg.BaseURL) == "" {
		cfg.BaseURL = DefaultOpenAIBase
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("provider %s: apiBase %q is not an http(s) URL", cfg.Name, cfg.BaseURL)
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = cfg.BaseURL
	oc.HTTPClient = tapped(cmp.Or(cfg.HTTPClient, defaultHTTPClient()))
	return &OpenAI{client: openai.NewClientWithConfig(oc), cfg: cfg}, nil
}

// Models lists the endpoint's models (GET /models).
func (p *OpenAI) Models(ctx context.Context) ([]ModelInfo, error) {
	var out []ModelInfo
	err := retryCall(ctx, p.cfg.Retry, func(ctx context.Context) error {
		l, err := p.client.ListModels(ctx)
		if err != nil {
			return p.classify(err, "")
		}
		out = out[:0]
		for _, m := range l.Models {
			out = append(out, ModelInfo{Name: m.ID})
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, err
}

// Chat streams one reply, asking for usage in the final chunk.
func (p *OpenAI) Chat(ctx context.Context, req Request, fn func(Chunk)) (Response, error) {
	return runChat(ctx, p.cfg.Retry, req, fn, func(ctx context.Context, emit func(Chunk)) (Response, error) {
		return p.chatOnce(ctx, req, emit)
	})
}

// partialCall gathers one tool call whose pieces arrive across chunks.
type partialCall struct {
	id, name string
	args     strings.Builder
}

func (p *OpenAI) chatOnce(ctx context.Context, req Request, emit func(Chunk)) (Response, error) {
	res := Response{ContextTokens: req.ContextTokens}
	if res.ContextTokens <= 0 {
		res.ContextTokens = p.cfg.ContextTokens
	}
	oreq, err := p.buildRequest(req)
	if err != nil {
		return res, err
	}
	ctx, errBody := withErrorTap(ctx)
	stream, err := p.client.CreateChatCompletionStream(ctx, oreq)
	if err != nil && len(oreq.Tools) > 0 && toolsUnsupported(err) {
		// A model without tool support still chats (docs/design/agent-loop.md#models-without-tools).
		oreq.Tools, res.ToolsDropped = nil, true
		stream, err = p.client.CreateChatCompletionStream(ctx, oreq)
	}
	if err != nil {
		return res, p.classifyBody(err, req.Model, *errBody)
	}
	defer stream.Close()

	calls, slots := map[int]*partialCall{}, map[int]int{}
	last := -1
	finished := false
	for {
		chunk, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return res, p.classifyBody(err, req.Model, nil)
		}
		if chunk.Usage != nil {
			finished = true
			res.Usage = Usage{PromptTokens: chunk.Usage.PromptTokens, CompletionTokens: chunk.Usage.CompletionTokens}
		}
		for _, ch := range chunk.Choices {
			d := ch.Delta
			if d.ReasoningContent != "" {
				emit(Chunk{Kind: ChunkReasoning, Text: d.ReasoningContent})
			}
			if d.Content != "" {
				emit(Chunk{Kind: ChunkText, Text: d.Content})
			}
			for _, tc := range d.ToolCalls {
				idx := callSlot(tc, calls, slots, last)
				last = idx
				pc := calls[idx]
				if pc == nil {
					pc = &partialCall{}
					calls[idx] = pc
				}
				if tc.ID != "" {
					pc.id = tc.ID
				}
				pc.name += tc.Function.Name
				pc.args.WriteString(tc.Function.Arguments)
			}
			if ch.FinishReason != "" {
				finished = true
				res.FinishReason = openAIFinish(ch.FinishReason)
			}
		}
	}
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	if !finished {
		return res, transient(badReply(nil, i18n.M("error.provider.streamClosed", "provider", p.cfg.Name)))
	}
	for _, tc := range assembleCalls(calls) {
		emit(Chunk{Kind: ChunkToolCall, ToolCall: tc})
	}
	return res, nil
}

// callSlot finds which call a delta belongs to. Servers number calls by
// index, but some give every call of a reply index 0 (each with its own id)
// and some omit the index (one call at a time): a new id where a call with
// another id is being gathered starts a new call.
func callSlot(tc openai.ToolCall, calls map[int]*partialCall, slots map[int]int, last int) int {
	key, slot, ok := -1, last, last >= 0
	if tc.Index != nil {
		key = *tc.Index
		slot, ok = slots[key]
	}
	if !ok || (tc.ID != "" && calls[slot] != nil && calls[slot].id != "" && calls[slot].id != tc.ID) {
		slot = len(calls)
	}
	slots[key] = slot
	return slot
}

func assembleCalls(calls map[int]*partialCall) []*ToolCall {
	out := make([]*ToolCall, 0, len(calls))
	for _, i := range slices.Sorted(maps.Keys(calls)) {
		pc := calls[i]
		tc := &ToolCall{ID: pc.id, Name: pc.name}
		tc.setArguments(pc.args.String())
		out = append(out, tc)
	}
	return out
}

func openAIFinish(r openai.FinishReason) FinishReason {
	switch r {
	case openai.FinishReasonStop:
		return FinishStop
	case openai.FinishReasonLength:
		return FinishLength
	case openai.FinishReasonToolCalls, openai.FinishReasonFunctionCall:
		return FinishToolCalls
	default:
		return FinishOther
	}
}

// reasoningModel reports OpenAI reasoning models, which take
// max_completion_tokens and a fixed temperature.
func reasoningModel(m string) bool {
	return slices.ContainsFunc([]string{"o1", "o3", "o4", "gpt-5"}, func(p string) bool { return strings.HasPrefix(m, p) })
}

func (p *OpenAI) buildRequest(req Request) (openai.ChatCompletionRequest, error) {
	oreq := openai.ChatCompletionRequest{
		Model: req.Model, Stream: true,
		StreamOptions: &openai.StreamOptions{IncludeUsage: true},
	}
	if reasoningModel(req.Model) {
		oreq.MaxCompletionTokens = req.MaxTokens
	} else {
		//lint:ignore SA1019 the servers that speak OpenAI's API locally (llama.cpp, LM Studio, vLLM) read max_tokens; only OpenAI's reasoning models need max_completion_tokens
		oreq.MaxTokens = req.MaxTokens
		if req.Temperature != nil {
			oreq.Temperature = float32(*req.Temperature)
		}
	}
	for _, d := range req.Tools {
		params := d.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		oreq.Tools = append(oreq.Tools, openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
			Name: d.Name, Description: d.Description, Parameters: params,
		}})
	}
	for _, m := range req.Messages {
		om := openai.ChatCompletionMessage{Role: string(m.Role), Content: m.Content, ToolCallID: m.ToolCallID}
		if m.Role == RoleTool {
			om.Name = m.ToolName
		}
		if len(m.Images) > 0 {
			om.Content = ""
			om.MultiContent = append(om.MultiContent, openai.ChatMessagePart{Type: openai.ChatMessagePartTypeText, Text: m.Content})
			for _, img := range m.Images {
				om.MultiContent = append(om.MultiContent, openai.ChatMessagePart{Type: openai.ChatMessagePartTypeImageURL,
					ImageURL: &openai.ChatMessageImageURL{URL: dataURL(img)}})
			}
		}
		for _, tc := range m.ToolCalls {
			om.ToolCalls = append(om.ToolCalls, openai.ToolCall{ID: tc.ID, Type: openai.ToolTypeFunction,
				Function: openai.FunctionCall{Name: tc.Name, Arguments: cmp.Or(string(tc.Arguments), "{}")}})
		}
		// Reasoning is never sent back: several compatible APIs reject it.
		oreq.Messages = append(oreq.Messages, om)
	}
	return oreq, nil
}

func dataURL(img []byte) string {
	return "data:" + http.DetectContentType(img) + ";base64," + base64.StdEncoding.EncodeToString(img)
}

// toolsUnsupported recognises servers refusing tools for this model: OpenRouter
// ("No endpoints found that support tool use"), Ollama ("does not support
// tools"), vLLM and llama.cpp (tools need a server flag).
func toolsUnsupported(err error) bool {
	status, msg, _, ok := apiError(err)
	if !ok {
		return false
	}
	m := strings.ToLower(msg)
	// llama.cpp answers 500 ("tools param requires --jinja flag", "Unsupported param: tools").
	llama := status == http.StatusInternalServerError && (strings.Contains(m, "jinja") || strings.Contains(m, "unsupported param"))
	if status != http.StatusBadRequest && status != http.StatusNotFound && status != http.StatusUnprocessableEntity && !llama {
		return false
	}
	if !strings.Contains(m, "tool") {
		return false
	}
	for _, s := range []string{"support", "requires", "not enabled", "jinja"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// apiError reads go-openai's errors: the HTTP status, the server's message
// and its error code; ok is false for other errors (msg is then err's text).
func apiError(err error) (status int, msg, code string, ok bool) {
	var ae *openai.APIError
	var re *openai.RequestError
	switch {
	case errors.As(err, &ae):
		code, _ = ae.Code.(string)
		return ae.HTTPStatusCode, ae.Message, code, true
	case errors.As(err, &re):
		return re.HTTPStatusCode, strings.TrimSpace(string(re.Body)), "", true
	}
	return 0, err.Error(), "", false
}

// classify maps go-openai errors to a final *Error.
func (p *OpenAI) classify(err error, model string) error { return p.classifyBody(err, model, nil) }

// classifyBody is classify with the error response's body, when kept.
func (p *OpenAI) classifyBody(err error, model string, body []byte) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if errors.Is(err, egress.ErrLocalOnly) {
		return fail(KindLocalOnly, err, i18n.P("error.provider.localOnly", "provider", p.cfg.Name, "url", p.cfg.BaseURL))
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return transient(fail(KindUnreachable, err, i18n.P("error.provider.unreachable", "provider", p.cfg.Name, "url", p.cfg.BaseURL)))
	}
	status, msg, code, _ := apiError(err)
	name := p.cfg.Name
	if e, ok := p.contextRefusal(err, msg, body); ok {
		return e
	}
	switch {
	case code == "context_length_exceeded":
		return overflow(err)
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return fail(KindAuth, err, i18n.P("error.provider.auth", "provider", name, "status", strconv.Itoa(status)))
	case status == http.StatusNotFound || code == "model_not_found":
		return fail(KindModelNotFound, err, i18n.P("error.provider.modelMissing", "provider", name, "model", model))
	case status == http.StatusTooManyRequests && code == "insufficient_quota":
		return fail(KindRateLimited, err, i18n.P("error.provider.quota", "provider", name))
	case status == http.StatusTooManyRequests:
		return transient(fail(KindRateLimited, err, i18n.M("error.provider.rateLimited", "provider", name).WithHint(hintRateLimited)))
	case status >= 500:
		return transient(fail(KindBadResponse, err, i18n.P("error.provider.server", "provider", name, "status", strconv.Itoa(status))))
	}
	return badReply(err, i18n.M("error.provider.failed", "provider", name))
}
