package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/envconfig"
)

// Hearth streams /api/chat itself instead of through api.Client.Chat: that client
// allocates an 8 MB line buffer for every request (most of a tool round's CPU and
// the bulk of a long turn's memory), parses every line twice and re-parses the
// tool schemas of every request. Here the request is encoded once from Hearth's
// own types (the tool schemas once per distinct set), lines are read through a
// small pooled buffer that grows only for a long line, and each line is decoded
// once. Errors have the same types api.Client returns, so classify treats both
// alike.

// maxLineBytes bounds one streamed line, as api.Client does: a tool call with a
// large argument (a whole file to write) fits; a server that never sends a
// newline does not take all memory.
const maxLineBytes = 8 << 20

// readBufferBytes is the pooled read buffer: every line of a normal reply
// (text deltas, the final statistics, a tool call with modest arguments) fits.
const readBufferBytes = 16 << 10

// chatStream holds what streaming needs across requests.
type chatStream struct {
	hc      *http.Client
	readers sync.Pool // *bufio.Reader

	lastBody atomic.Int64 // the size to allocate for the next request body
	sent     messageCache

	mu    sync.Mutex
	seed  maphash.Seed
	tools map[uint64][]byte // encoded tool lists by hash of their definitions
}

func newChatStream(hc *http.Client) *chatStream {
	return &chatStream{hc: hc, seed: maphash.MakeSeed(), tools: map[uint64][]byte{}}
}

// useAPIClient reports requests api.Client must make: those it signs with the
// user's Ollama key (ollama.com, or OLLAMA_AUTH set).
func (o *Ollama) useAPIClient() bool {
	return envconfig.UseAuth() || o.host.Hostname() == "ollama.com"
}

// wireChatRequest is /api/chat's request as api.ChatRequest encodes it.
type wireChatRequest struct {
	Model    string          `json:"model"`
	Messages []wireMessage   `json:"messages"`
	Stream   bool            `json:"stream"`
	Tools    json.RawMessage `json:"tools,omitempty"`
	Options  map[string]any  `json:"options"`
	Think    any             `json:"think,omitempty"`
	Truncate *bool           `json:"truncate,omitempty"`
	Shift    *bool           `json:"shift,omitempty"`
}

type wireMessage struct {
	Role       string         `json:"role"`
	Content    string         `json:"content"`
	Thinking   string         `json:"thinking,omitempty"`
	Images     [][]byte       `json:"images,omitempty"`
	ToolCalls  []wireToolCall `json:"tool_calls,omitempty"`
	ToolName   string         `json:"tool_name,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

type wireToolCall struct {
	ID       string       `json:"id,omitempty"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Index     int             `json:"index"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// wireChatLine is one streamed line; Error is set on an error line.
type wireChatLine struct {
	Message struct {
		Content   string         `json:"content"`
		Thinking  string         `json:"thinking"`
		ToolCalls []wireToolCall `json:"tool_calls"`
	} `json:"message"`
	Done            bool          `json:"done"`
	DoneReason      string        `json:"done_reason"`
	PromptEvalCount int           `json:"prompt_eval_count"`
	EvalCount       int           `json:"eval_count"`
	EvalDuration    time.Duration `json:"eval_duration"`
	Error           string        `json:"error"`
}

var emptyObject = json.RawMessage("{}")

// encodeChat is the request body: api.ChatRequest's encoding, with num_ctx
// capped at the model's window and what the model cannot take left out (res
// records what).
func (o *Ollama) encodeChat(req Request, d ModelDetails, res *attemptResult) ([]byte, error) {
	w := wireChatRequest{Model: req.Model, Stream: true, Options: o.chatOptions(req, d, res)}
	// Truncate and Shift off: see buildChatRequest.
	off := false
	w.Truncate, w.Shift = &off, &off
	known := len(d.Capabilities) > 0
	if len(req.Tools) > 0 {
		if known && !d.Has(CapTools) {
			res.ToolsDropped = true
		} else {
			tools, err := o.stream.encodeTools(req.Tools)
			if err != nil {
				return nil, err
			}
			w.Tools = tools
		}
	}
	if req.Think != nil {
		if known && !d.Has(CapThinking) {
			res.ThinkDropped = *req.Think
		} else {
			w.Think = *req.Think
		}
	}
	noImages := known && !d.Has(CapVision)
	w.Messages = make([]wireMessage, len(req.Messages))
	for i, m := range req.Messages {
		wm := wireMessage{Role: string(m.Role), Content: m.Content, Thinking: m.Reasoning,
			ToolCallID: m.ToolCallID, ToolName: m.ToolName, Images: m.Images}
		if noImages && len(wm.Images) > 0 {
			wm.Images, res.ImagesDropped = nil, true
		}
		if len(m.ToolCalls) > 0 {
			wm.ToolCalls = make([]wireToolCall, len(m.ToolCalls))
		}
		for j, tc := range m.ToolCalls {
			// Checked to be a JSON object when encoded (appendWireMessage).
			args := bytes.TrimSpace(tc.Arguments)
			if len(args) == 0 {
				args = emptyObject
			}
			wm.ToolCalls[j] = wireToolCall{ID: tc.ID, Function: wireFunction{Index: j, Name: tc.Name, Arguments: args}}
		}
		w.Messages[i] = wm
	}
	// Sized from the last request: a turn's requests grow a little each round.
	dst := make([]byte, 0, o.stream.lastBody.Load())
	body, err := appendChatRequest(dst, &w, &o.stream.sent)
	if err == nil {
		o.stream.lastBody.Store(int64(len(body)) + int64(len(body))/8)
	}
	return body, err
}

// chatOptions are the request's options; num_ctx is always sent (Ollama would
// otherwise silently cut the start of long prompts), capped at the model's own
// context length.
func (o *Ollama) chatOptions(req Request, d ModelDetails, res *attemptResult) map[string]any {
	numCtx := req.ContextTokens
	if numCtx <= 0 {
		numCtx = o.cfg.ContextTokens
	}
	if numCtx <= 0 {
		numCtx = DefaultContextTokens
	}
	if d.ContextLength > 0 && numCtx > d.ContextLength {
		numCtx = d.ContextLength
	}
	res.ContextTokens = numCtx
	opts := map[string]any{"num_ctx": numCtx}
	if req.MaxTokens > 0 {
		opts["num_predict"] = req.MaxTokens
	}
	if req.Temperature != nil {
		opts["temperature"] = *req.Temperature
	}
	return opts
}

// maxCachedToolSets bounds the encoded tool lists kept: a run offers the same
// set every round; MCP servers coming and going make a few more.
const maxCachedToolSets = 8

// encodeTools encodes tool definitions as api.Tools does after parsing them
// (which also checks each schema), once per distinct set.
func (c *chatStream) encodeTools(defs []ToolDef) (json.RawMessage, error) {
	var h maphash.Hash
	h.SetSeed(c.seed)
	for _, d := range defs {
		h.WriteString(d.Name)
		h.WriteByte(0)
		h.WriteString(d.Description)
		h.WriteByte(0)
		h.Write(d.Parameters)
		h.WriteByte(0)
	}
	key := h.Sum64()
	c.mu.Lock()
	enc, ok := c.tools[key]
	c.mu.Unlock()
	if ok {
		return enc, nil
	}
	tools, err := toOllamaTools(defs)
	if err != nil {
		return nil, err
	}
	enc, err = json.Marshal(tools)
	if err != nil {
		return nil, fmt.Errorf("encode tools: %w", err)
	}
	c.mu.Lock()
	if len(c.tools) >= maxCachedToolSets {
		clear(c.tools)
	}
	c.tools[key] = enc
	c.mu.Unlock()
	return enc, nil
}

// post sends body to path and calls fn with each streamed line, decoded. It
// returns the errors api.Client would: *url.Error from the transport,
// api.StatusError / api.AuthorizationError for an HTTP error status, and a
// plain error for an {"error":…} line. A stream cut short ends without an
// error (like api.Client); the caller notices the missing final line.
func (c *chatStream) post(ctx context.Context, url string, body []byte, fn func(*wireChatLine)) error {
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "application/x-ndjson")
	hr.Header.Set("User-Agent", fmt.Sprintf("hearth (%s %s) Go/%s", runtime.GOARCH, runtime.GOOS, runtime.Version()))
	resp, err := c.hc.Do(hr)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= http.StatusBadRequest {
		return statusError(resp)
	}
	br, _ := c.readers.Get().(*bufio.Reader)
	if br == nil {
		br = bufio.NewReaderSize(resp.Body, readBufferBytes)
	} else {
		br.Reset(resp.Body)
	}
	defer func() {
		br.Reset(nil)
		c.readers.Put(br)
	}()
	var long []byte // a line longer than the buffer, assembled
	for {
		line, rerr := br.ReadSlice('\n')
		if errors.Is(rerr, bufio.ErrBufferFull) {
			if len(long)+len(line) > maxLineBytes {
				return fmt.Errorf("a streamed line is longer than %d MB", maxLineBytes>>20)
			}
			long = append(long, line...)
			continue
		}
		if long != nil {
			line = append(long, line...)
			long = nil
		}
		if len(bytes.TrimSpace(line)) > 0 {
			var l wireChatLine
			if err := json.Unmarshal(line, &l); err != nil {
				return errors.New(string(bytes.TrimSpace(line)))
			}
			if l.Error != "" {
				return errors.New(l.Error)
			}
			fn(&l)
		}
		if rerr != nil {
			// io.EOF ends a complete stream; any other read error is a
			// stream cut short, reported as api.Client does: not at all.
			return nil
		}
	}
}

// statusError reads an error response the way api.Client does.
func statusError(resp *http.Response) error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	var e struct {
		Error     string `json:"error"`
		SigninURL string `json:"signin_url"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(firstLine(body)), &e); err != nil {
		return api.StatusError{StatusCode: resp.StatusCode, Status: resp.Status, ErrorMessage: string(bytes.TrimSpace(body))}
	}
	if resp.StatusCode == http.StatusUnauthorized {
		return api.AuthorizationError{StatusCode: resp.StatusCode, Status: resp.Status, SigninURL: e.SigninURL}
	}
	return api.StatusError{StatusCode: resp.StatusCode, Status: resp.Status, ErrorMessage: e.Error}
}

func firstLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i]
	}
	return b
}

// fromWireToolCall turns a streamed call into a ToolCall. Ollama sends the
// arguments as a JSON object; anything else becomes ArgsError, which the
// agent answers by asking the model for an object.
func fromWireToolCall(tc wireToolCall) *ToolCall {
	out := &ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments}
	args := bytes.TrimSpace(out.Arguments)
	if len(args) > 0 && args[0] == '"' {
		// Arguments as a JSON string holding the object (the OpenAI form).
		var s string
		if json.Unmarshal(args, &s) == nil {
			args = bytes.TrimSpace([]byte(s))
		}
	}
	switch {
	case len(args) == 0 || string(args) == "null":
		out.Arguments = json.RawMessage("{}")
	case args[0] != '{' || !json.Valid(args):
		out.Arguments = json.RawMessage("{}")
		out.ArgsError = fmt.Sprintf("the arguments are not a JSON object: %.200s", args)
	default:
		out.Arguments = json.RawMessage(args)
	}
	return out
}
