package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/auth"
	"github.com/ollama/ollama/envconfig"
)

// /api/chat is streamed here rather than through api.Client.Chat, which reads
// every line into an 8 MB buffer it allocates per request, drops a line longer
// than that without an error, and fails a whole line on a tool call whose
// arguments are a JSON string. Errors have the types api.Client returns, so
// classify treats every call alike.

// maxLineBytes bounds one streamed line, as api.Client does: a tool call with a
// large argument (a whole file to write) fits; a server that never sends a
// newline does not take all memory.
const maxLineBytes = 8 << 20

// readBufferBytes is where the line buffer starts: every line of a normal reply
// (text deltas, the final statistics, a tool call with modest arguments) fits.
const readBufferBytes = 16 << 10

// signed reports requests signed with the user's Ollama key, as api.Client
// signs them: to ollama.com, or with OLLAMA_AUTH set.
func (o *Ollama) signed() bool {
	return envconfig.UseAuth() || o.host.Hostname() == "ollama.com"
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

// chatOptions are the request's options; num_ctx is always sent (Ollama would
// otherwise silently cut the start of long prompts), capped at the model's own
// context length.
func (o *Ollama) chatOptions(req Request, d ModelDetails, res *Response) map[string]any {
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

// post sends body to path and calls fn with each streamed line, decoded. It
// returns the errors api.Client would: *url.Error from the transport,
// api.StatusError / api.AuthorizationError for an HTTP error status, and a
// plain error for an {"error":…} line. A stream cut short ends without an
// error (like api.Client); the caller notices the missing final line.
func (o *Ollama) post(ctx context.Context, path string, body []byte, fn func(*wireChatLine)) error {
	u := o.host.JoinPath(path)
	var token string
	if o.signed() {
		now := strconv.FormatInt(time.Now().Unix(), 10)
		var err error
		if token, err = auth.Sign(ctx, []byte(http.MethodPost+","+path+"?ts="+now)); err != nil {
			return err
		}
		u.RawQuery = "ts=" + now
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return err
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "application/x-ndjson")
	hr.Header.Set("User-Agent", fmt.Sprintf("hearth (%s %s) Go/%s", runtime.GOARCH, runtime.GOOS, runtime.Version()))
	if token != "" {
		hr.Header.Set("Authorization", token)
	}
	resp, err := o.chat.Do(hr)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= http.StatusBadRequest {
		return statusError(resp)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, readBufferBytes), maxLineBytes)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var l wireChatLine
		if err := json.Unmarshal(line, &l); err != nil {
			return errors.New(string(line))
		}
		if l.Error != "" {
			return errors.New(l.Error)
		}
		fn(&l)
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		return fmt.Errorf("a streamed line is longer than %d MB", maxLineBytes>>20)
	}
	// io.EOF ends a complete stream; any other read error is a stream cut
	// short, reported as api.Client does: not at all.
	return nil
}

// statusError reads an error response the way api.Client does.
func statusError(resp *http.Response) error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	var e struct {
		Error     string `json:"error"`
		SigninURL string `json:"signin_url"`
	}
	first, _, _ := bytes.Cut(body, []byte("\n"))
	if err := json.Unmarshal(bytes.TrimSpace(first), &e); err != nil {
		return api.StatusError{StatusCode: resp.StatusCode, Status: resp.Status, ErrorMessage: string(bytes.TrimSpace(body))}
	}
	if resp.StatusCode == http.StatusUnauthorized {
		return api.AuthorizationError{StatusCode: resp.StatusCode, Status: resp.Status, SigninURL: e.SigninURL}
	}
	return api.StatusError{StatusCode: resp.StatusCode, Status: resp.Status, ErrorMessage: e.Error}
}

// fromWireToolCall turns a streamed call into a ToolCall. Ollama sends the
// arguments as a JSON object, or as a JSON string holding it (the OpenAI form).
func fromWireToolCall(tc wireToolCall) *ToolCall {
	out := &ToolCall{ID: tc.ID, Name: tc.Function.Name}
	text := string(tc.Function.Arguments)
	var s string
	if json.Unmarshal(tc.Function.Arguments, &s) == nil {
		text = s // a JSON string, or null (no arguments)
	}
	out.setArguments(text)
	return out
}
