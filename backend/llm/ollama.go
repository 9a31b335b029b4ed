package llm

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/ollama/ollama/api"

	"hearth/backend/config"
	"hearth/backend/i18n"
)

// DefaultContextTokens is the num_ctx sent when neither the request nor the
// configuration gives one (contextTokens,
// docs/design/files-and-config.md#shipped-defaults).
const DefaultContextTokens = 8192

// OllamaHost resolves the Ollama address: the configured host
// (providers.ollama.host) if set, else $OLLAMA_HOST, else config.DefaultOllamaHost.
func OllamaHost(configured string) (*url.URL, error) {
	return resolveOllamaHost(configured, os.Getenv("OLLAMA_HOST"))
}

// resolveOllamaHost reads the address the way config.NormalizeOllamaHost does (the one
// reading of OLLAMA_HOST in Hearth: a listen-on-all 0.0.0.0 means this machine).
func resolveOllamaHost(configured, env string) (*url.URL, error) {
	s := strings.TrimSpace(configured)
	s = cmp.Or(s, env)
	base, err := config.NormalizeOllamaHost(s)
	if err != nil {
		return nil, err
	}
	return url.Parse(base)
}

// OllamaConfig configures the Ollama provider with plain values.
type OllamaConfig struct {
	// Host is the configured host; empty falls back as OllamaHost does.
	Host string
	// ContextTokens is the default num_ctx (agents.defaults.contextTokens).
	ContextTokens int
	// EmbedBatch is how many inputs one /api/embed call carries; 0 means 32.
	EmbedBatch int
	// HTTPClient is used for every call; nil means a client whose dial times
	// out after 5 s but whose streams are bounded only by their context.
	HTTPClient *http.Client
	Retry      RetryPolicy
}

// Ollama talks to an Ollama server through its native API.
type Ollama struct {
	client *api.Client
	chat   *http.Client // the client of every call
	host   *url.URL
	cfg    OllamaConfig

	mu      sync.Mutex
	details map[string]ModelDetails // /api/show answers by model name
}

var (
	_ Provider    = (*Ollama)(nil)
	_ ModelShower = (*Ollama)(nil)
	_ Embedder    = (*Ollama)(nil)
)

// NewOllama returns an Ollama provider for cfg.
func NewOllama(cfg OllamaConfig) (*Ollama, error) {
	host, err := OllamaHost(cfg.Host)
	if err != nil {
		return nil, err
	}
	hc := cmp.Or(cfg.HTTPClient, defaultHTTPClient())
	return &Ollama{client: api.NewClient(host, hc), chat: hc, host: host, cfg: cfg, details: map[string]ModelDetails{}}, nil
}

// Version asks the server for its version; it is the cheapest "is Ollama up" probe.
func (o *Ollama) Version(ctx context.Context) (string, error) {
	var v string
	err := retryCall(ctx, o.cfg.Retry, func(ctx context.Context) (err error) {
		v, err = o.client.Version(ctx)
		return o.classify(err, "")
	})
	return v, err
}

// Chat streams one reply from /api/chat. num_ctx is always sent (Ollama would
// otherwise silently cut the start of long prompts), capped at the model's own
// context length; tools are left out for models without the tools capability.
func (o *Ollama) Chat(ctx context.Context, req Request, fn func(Chunk)) (Response, error) {
	return runChat(ctx, o.cfg.Retry, req, fn, func(ctx context.Context, emit func(Chunk)) (Response, error) {
		return o.chatOnce(ctx, req, emit)
	})
}

func (o *Ollama) chatOnce(ctx context.Context, req Request, emit func(Chunk)) (Response, error) {
	var res Response
	d, err := o.showCached(ctx, req.Model)
	if err != nil {
		return res, err
	}
	done := false
	creq, err := o.buildChatRequest(req, d, &res)
	if err != nil {
		return res, err
	}
	body, err := json.Marshal(creq)
	if err != nil {
		return res, fmt.Errorf("encode the chat request: %w", err)
	}
	err = o.post(ctx, "/api/chat", body, func(l *wireChatLine) {
		if l.Message.Thinking != "" {
			emit(Chunk{Kind: ChunkReasoning, Text: l.Message.Thinking})
		}
		if l.Message.Content != "" {
			emit(Chunk{Kind: ChunkText, Text: l.Message.Content})
		}
		for _, tc := range l.Message.ToolCalls {
			emit(Chunk{Kind: ChunkToolCall, ToolCall: fromWireToolCall(tc)})
		}
		if l.Done {
			done = true
			res.Usage = Usage{PromptTokens: l.PromptEvalCount, CompletionTokens: l.EvalCount}
			res.EvalDuration = l.EvalDuration
			res.FinishReason = ollamaFinish(l.DoneReason)
		}
	})
	// A broken or cancelled stream ends without an error.
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	if err != nil {
		return res, o.classify(err, req.Model)
	}
	if !done {
		return res, transient(fail(KindBadResponse, nil, i18n.P("error.ollama.streamClosed")))
	}
	return res, nil
}

// chatRequest is /api/chat's request as api.ChatRequest encodes it, with each
// tool call's arguments carried as the JSON object they are: api.Message would
// parse every call of the history into an ordered map at every round of a turn.
type chatRequest struct {
	Model    string         `json:"model"`
	Messages []chatMessage  `json:"messages"`
	Stream   bool           `json:"stream"`
	Tools    api.Tools      `json:"tools,omitempty"`
	Options  map[string]any `json:"options"`
	Think    *bool          `json:"think,omitempty"`
	Truncate bool           `json:"truncate"`
	Shift    bool           `json:"shift"`
}

type chatMessage struct {
	Role       string         `json:"role"`
	Content    string         `json:"content"`
	Thinking   string         `json:"thinking,omitempty"`
	Images     [][]byte       `json:"images,omitempty"`
	ToolCalls  []wireToolCall `json:"tool_calls,omitempty"`
	ToolName   string         `json:"tool_name,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

// buildChatRequest is the request for req: num_ctx capped at the model's
// window, and what the model cannot take left out (res records what).
// Truncate and Shift are off: Hearth budgets the context itself, so an
// overlong prompt must be a context_overflow error rather than Ollama silently
// dropping the oldest messages, and a full context ends the reply with
// FinishLength instead of shifting earlier turns out.
func (o *Ollama) buildChatRequest(req Request, d ModelDetails, res *Response) (*chatRequest, error) {
	creq := &chatRequest{Model: req.Model, Stream: true, Options: o.chatOptions(req, d, res)}
	// An old server reports no capabilities: then trust the request.
	known := len(d.Capabilities) > 0
	if len(req.Tools) > 0 {
		if known && !d.Has(CapTools) {
			res.ToolsDropped = true
		} else {
			tools, err := toOllamaTools(req.Tools)
			if err != nil {
				return nil, err
			}
			creq.Tools = tools
		}
	}
	if req.Think != nil {
		if known && !d.Has(CapThinking) {
			res.ThinkDropped = *req.Think
		} else {
			creq.Think = req.Think
		}
	}
	noImages := known && !d.Has(CapVision)
	creq.Messages = make([]chatMessage, len(req.Messages))
	for i, m := range req.Messages {
		cm := chatMessage{Role: string(m.Role), Content: m.Content, Thinking: m.Reasoning,
			ToolCallID: m.ToolCallID, ToolName: m.ToolName, Images: m.Images}
		if noImages && len(cm.Images) > 0 {
			cm.Images, res.ImagesDropped = nil, true
		}
		for j, tc := range m.ToolCalls {
			args := bytes.TrimSpace(tc.Arguments)
			if len(args) == 0 {
				args = []byte("{}")
			} else if args[0] != '{' || !json.Valid(args) {
				return nil, fail(KindBadResponse, nil, i18n.M("error.badHistoryCall", "tool", tc.Name).WithHint(hintDamaged))
			}
			cm.ToolCalls = append(cm.ToolCalls, wireToolCall{ID: tc.ID, Function: wireFunction{Index: j, Name: tc.Name, Arguments: args}})
		}
		creq.Messages[i] = cm
	}
	return creq, nil
}

func ollamaFinish(reason string) FinishReason {
	switch reason {
	case "stop", "":
		return FinishStop
	case "length":
		return FinishLength
	default:
		return FinishOther
	}
}

func toOllamaTools(defs []ToolDef) (api.Tools, error) {
	tools := make(api.Tools, 0, len(defs))
	for _, d := range defs {
		var params api.ToolFunctionParameters
		if len(d.Parameters) > 0 {
			if err := json.Unmarshal(d.Parameters, &params); err != nil {
				return nil, fail(KindBadResponse, err, i18n.P("error.toolSchema", "tool", d.Name))
			}
		}
		params.Type = cmp.Or(params.Type, "object")
		if params.Properties == nil {
			params.Properties = api.NewToolPropertiesMap()
		}
		tools = append(tools, api.Tool{Type: "function", Function: api.ToolFunction{
			Name: d.Name, Description: d.Description, Parameters: params,
		}})
	}
	return tools, nil
}

// defaultHTTPClient fails fast when a host does not answer at all (a
// firewalled address would otherwise hang for minutes) but never cuts a long
// stream: calls are bounded by their context.
func defaultHTTPClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	return &http.Client{Transport: t}
}
