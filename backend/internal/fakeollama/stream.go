package fakeollama

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"
)

// streamWriter writes application/x-ndjson lines and flushes each one.
type streamWriter struct {
	w       http.ResponseWriter
	started bool
}

func (sw *streamWriter) line(v any) {
	if !sw.started {
		sw.w.Header().Set("Content-Type", "application/x-ndjson")
		sw.w.WriteHeader(http.StatusOK)
		sw.started = true
	}
	b, _ := json.Marshal(v)
	_, _ = sw.w.Write(append(b, '\n'))
	if f, ok := sw.w.(http.Flusher); ok {
		f.Flush()
	}
}

const createdAt = "2026-01-02T03:04:05.000000Z"

func chatLine(model string, msg map[string]any) map[string]any {
	return map[string]any{"model": model, "created_at": createdAt, "message": msg, "done": false}
}

func (s *Server) nextReply() Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.replies) > 0 {
		r := s.replies[0]
		s.replies = s.replies[1:]
		return r
	}
	if s.def != nil {
		return *s.def
	}
	return Reply{Echo: true}
}

func (s *Server) handleChat(ctx context.Context, w http.ResponseWriter, body []byte, probe bool) {
	var req ChatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if req.Model == "" {
		writeError(w, http.StatusBadRequest, "model is required")
		return
	}
	m, ok := s.find(req.Model)
	if !ok {
		notFound(w, req.Model)
		return
	}
	if overflows(req) {
		// Ollama's answer when truncate is off and the prompt does not fit num_ctx.
		writeError(w, http.StatusBadRequest, "the input length exceeds the context length")
		return
	}
	s.load(m.Name)
	var r Reply
	if probe {
		r = probeReply(m, req) // never takes a reply scripted for a chat
	} else {
		r = s.nextReply()
	}
	if r.Status >= 400 {
		writeError(w, r.Status, r.Error)
		return
	}
	if r.Echo {
		r.Content = echo(req.Messages)
	}
	if req.Stream != nil && !*req.Stream {
		s.chatWhole(ctx, w, req, r)
		return
	}
	sw := &streamWriter{w: w}
	lines := 0
	send := func(msg map[string]any) bool {
		if lines > 0 && !s.pause(ctx, r.delay()) {
			return false
		}
		sw.line(chatLine(req.Model, msg))
		lines++
		return true
	}
	for _, t := range pieces(r.Thinking, nil) {
		if !send(map[string]any{"role": "assistant", "content": "", "thinking": t}) {
			return
		}
	}
	for _, c := range pieces(r.Content, r.Chunks) {
		if !send(map[string]any{"role": "assistant", "content": c}) {
			return
		}
	}
	if len(r.ToolCalls) > 0 {
		if !send(map[string]any{"role": "assistant", "content": "", "tool_calls": wireCalls(r.ToolCalls)}) {
			return
		}
	}
	if r.Error != "" {
		sw.line(map[string]string{"error": r.Error})
		return
	}
	if r.Hang {
		sw.line(chatLine(req.Model, map[string]any{"role": "assistant", "content": ""}))
		select {
		case <-ctx.Done():
		case <-s.closed:
		}
		return
	}
	if lines > 0 && !s.pause(ctx, r.delay()) {
		return
	}
	sw.line(finalLine(req, r, map[string]any{"role": "assistant", "content": ""}, lines))
}

// chatWhole answers a "stream": false chat as Ollama does: one JSON object,
// the final line's statistics with the whole message.
func (s *Server) chatWhole(ctx context.Context, w http.ResponseWriter, req ChatRequest, r Reply) {
	if r.Hang {
		select {
		case <-ctx.Done():
		case <-s.closed:
		}
		return
	}
	if !s.pause(ctx, r.delay()) {
		return
	}
	if r.Error != "" {
		writeError(w, http.StatusInternalServerError, r.Error)
		return
	}
	msg := map[string]any{"role": "assistant", "content": strings.Join(pieces(r.Content, r.Chunks), "")}
	if r.Thinking != "" {
		msg["thinking"] = r.Thinking
	}
	if len(r.ToolCalls) > 0 {
		msg["tool_calls"] = wireCalls(r.ToolCalls)
	}
	n := len(pieces(r.Thinking, nil)) + len(pieces(r.Content, r.Chunks))
	writeJSON(w, http.StatusOK, finalLine(req, r, msg, n))
}

// wireCalls are r's calls as Ollama sends them: an id, and the function with
// its index and the arguments as an object.
func wireCalls(tcs []ToolCall) []map[string]any {
	calls := make([]map[string]any, 0, len(tcs))
	for i, tc := range tcs {
		args := tc.Arguments
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		id := tc.ID
		if id == "" {
			id = fmt.Sprintf("call_fake_%d", i)
		}
		calls = append(calls, map[string]any{"id": id, "function": map[string]any{"index": i, "name": tc.Name, "arguments": args}})
	}
	return calls
}

// finalLine is the done line: the reason and the statistics.
func finalLine(req ChatRequest, r Reply, msg map[string]any, lines int) map[string]any {
	done := r.DoneReason
	if done == "" {
		done = "stop"
	}
	prompt, eval := r.PromptEvalCount, r.EvalCount
	if prompt == 0 {
		prompt = promptTokens(req.Messages)
	}
	if eval == 0 {
		eval = max(lines, 1)
	}
	evalDur := int64(1000)
	if r.EvalDurationMS > 0 {
		evalDur = int64(r.EvalDurationMS) * 1_000_000
	}
	return map[string]any{
		"model": req.Model, "created_at": createdAt, "message": msg,
		"done": true, "done_reason": done, "total_duration": 1_000_000, "load_duration": 1000,
		"prompt_eval_count": prompt, "prompt_eval_duration": 1000, "eval_count": eval, "eval_duration": evalDur,
	}
}

// overflows reports a prompt that does not fit the request's num_ctx with
// truncation off (how Hearth asks). The estimate is generous — about four
// bytes a token — so only a prompt clearly too long is refused.
func overflows(req ChatRequest) bool {
	if req.Truncate == nil || *req.Truncate {
		return false
	}
	n, ok := req.Options["num_ctx"].(float64)
	return ok && n > 0 && promptTokens(req.Messages) > int(n)
}

// pieces splits text into word-sized stream pieces (each keeps its leading
// space, like a tokenizer), unless explicit chunks are given.
func pieces(text string, chunks []string) []string {
	if len(chunks) > 0 {
		return chunks
	}
	if text == "" {
		return nil
	}
	var out []string
	start := 0
	for i := 1; i < len(text); i++ {
		if text[i] == ' ' || text[i] == '\n' {
			out = append(out, text[start:i])
			start = i
		}
	}
	return append(out, text[start:])
}

func echo(msgs []ChatMessage) string {
	last := ""
	for _, m := range msgs {
		if m.Role == "user" {
			last = m.Content
		}
	}
	if last == "" {
		return "Hello from fake Ollama!"
	}
	// The person's words end the message (Hearth puts a recall block before them):
	// a long one is echoed by its end, cut on a rune boundary.
	if len(last) > 200 {
		i := len(last) - 200
		for i < len(last) && !utf8.RuneStart(last[i]) {
			i++
		}
		last = "…" + last[i:]
	}
	return "Hello from fake Ollama! You said: " + last
}

func promptTokens(msgs []ChatMessage) int {
	n := 0
	for _, m := range msgs {
		n += len(m.Content)/4 + 4
	}
	return n
}

func (s *Server) nextPull() (PullReply, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.pulls) > 0 {
		p := s.pulls[0]
		s.pulls = s.pulls[1:]
		return p, true
	}
	return PullReply{}, false
}

func (s *Server) handlePull(ctx context.Context, w http.ResponseWriter, body []byte) {
	name, err := decodeModel(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	p, scripted := s.nextPull()
	if p.Status >= 400 {
		writeError(w, p.Status, p.Error)
		return
	}
	steps := p.Steps
	if !scripted || (len(steps) == 0 && p.Error == "") {
		d := "sha256:" + digest(name)
		steps = []Progress{
			{Status: "pulling manifest"},
			{Status: "pulling " + d[7:19], Digest: d, Total: 1000, Completed: 0},
			{Status: "pulling " + d[7:19], Digest: d, Total: 1000, Completed: 500},
			{Status: "pulling " + d[7:19], Digest: d, Total: 1000, Completed: 1000},
			{Status: "verifying sha256 digest"},
			{Status: "writing manifest"},
			{Status: "success"},
		}
	}
	sw := &streamWriter{w: w}
	for i, st := range steps {
		if i > 0 && !s.pause(ctx, timeMS(p.DelayMS)) {
			return
		}
		sw.line(st)
	}
	if p.Error != "" {
		sw.line(map[string]string{"error": p.Error})
		return
	}
	if _, ok := s.find(name); !ok {
		m := DefaultModel()
		m.Name = name
		if !strings.Contains(name, ":") {
			m.Name += ":latest"
		}
		s.mu.Lock()
		s.models = append(s.models, m)
		s.mu.Unlock()
	}
}
