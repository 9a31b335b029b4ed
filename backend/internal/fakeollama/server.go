package fakeollama

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"time"
)

// CheckHeader marks the model fitness check's requests: fitness.Header (spelled
// out here because llm's tests use this package and fitness imports llm; a test
// in backend/fitness keeps the two equal).
const CheckHeader = "X-Hearth-Check"

// Version is what /api/version reports.
const Version = "0.17.4"

// Recorded is one request the server received.
type Recorded struct {
	Method string
	Path   string
	Body   json.RawMessage
	// Probe is set for the fitness check's requests (CheckHeader).
	Probe bool
}

// ChatRequest is the decoded body of an /api/chat request.
type ChatRequest struct {
	Model    string            `json:"model"`
	Messages []ChatMessage     `json:"messages"`
	Tools    []json.RawMessage `json:"tools"`
	Think    json.RawMessage   `json:"think"`
	Options  map[string]any    `json:"options"`
	Stream   *bool             `json:"stream"`
	Truncate *bool             `json:"truncate"`
}

// ChatMessage is a message as Ollama receives it.
type ChatMessage struct {
	Role       string          `json:"role"`
	Content    string          `json:"content"`
	Thinking   string          `json:"thinking"`
	Images     []string        `json:"images"`
	ToolCalls  json.RawMessage `json:"tool_calls"`
	ToolName   string          `json:"tool_name"`
	ToolCallID string          `json:"tool_call_id"`
}

// Server is the fake. The zero value is not usable: call New.
type Server struct {
	mu       sync.Mutex
	models   []Model
	replies  []Reply
	pulls    []PullReply
	def      *Reply
	requests []Recorded
	loaded   []string // models a chat or an embedding used, for /api/ps
	closed   chan struct{}
	once     sync.Once
}

// New returns a server with the script's models and replies.
func New(s Script) *Server {
	srv := &Server{closed: make(chan struct{})}
	srv.models = append(srv.models, s.Models...)
	srv.replies = append(srv.replies, s.Replies...)
	srv.pulls = append(srv.pulls, s.Pulls...)
	srv.def = s.Default
	return srv
}

// TB is the part of testing.TB that Start needs.
type TB interface {
	Helper()
	Cleanup(func())
}

// Start serves a new fake on a loopback httptest server until the test ends.
// It returns the server and its base URL.
func Start(tb TB, s Script) (*Server, string) {
	tb.Helper()
	srv := New(s)
	ts := httptest.NewServer(srv)
	tb.Cleanup(func() {
		srv.Close()
		ts.Close()
	})
	return srv, ts.URL
}

// Close ends hanging streams so the HTTP server can shut down.
func (s *Server) Close() { s.once.Do(func() { close(s.closed) }) }

// Enqueue adds chat replies, answered in order.
func (s *Server) Enqueue(r ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies = append(s.replies, r...)
}

// EnqueuePull adds pull replies, answered in order.
func (s *Server) EnqueuePull(p ...PullReply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pulls = append(s.pulls, p...)
}

// SetModels replaces the installed models.
func (s *Server) SetModels(m ...Model) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = append([]Model(nil), m...)
}

// Models returns the installed models.
func (s *Server) Models() []Model {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Model(nil), s.models...)
}

// Requests returns every request received so far.
func (s *Server) Requests() []Recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Recorded(nil), s.requests...)
}

// ChatRequests decodes the /api/chat requests received so far, without the
// fitness check's (ProbeRequests has those).
func (s *Server) ChatRequests() []ChatRequest { return s.chats(false) }

// ProbeRequests decodes the fitness check's /api/chat requests.
func (s *Server) ProbeRequests() []ChatRequest { return s.chats(true) }

func (s *Server) chats(probes bool) []ChatRequest {
	// Empty, not nil: /_fake/chats and /_fake/probes send [] rather than null to a browser
	// test that polls them before the first request came.
	out := []ChatRequest{}
	for _, r := range s.Requests() {
		if r.Path != "/api/chat" || r.Probe != probes {
			continue
		}
		var c ChatRequest
		if json.Unmarshal(r.Body, &c) == nil {
			out = append(out, c)
		}
	}
	return out
}

// ServeHTTP routes like Ollama.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	s.mu.Lock()
	probe := r.Header.Get(CheckHeader) != ""
	s.requests = append(s.requests, Recorded{Method: r.Method, Path: r.URL.Path, Body: body, Probe: probe})
	s.mu.Unlock()

	switch {
	case r.URL.Path == "/" && (r.Method == http.MethodGet || r.Method == http.MethodHead):
		_, _ = io.WriteString(w, "Ollama is running")
	case r.URL.Path == "/api/version":
		writeJSON(w, http.StatusOK, map[string]string{"version": Version})
	case r.URL.Path == "/api/tags":
		s.handleTags(w)
	case r.URL.Path == "/api/show" && r.Method == http.MethodPost:
		s.handleShow(w, body)
	case r.URL.Path == "/api/chat" && r.Method == http.MethodPost:
		s.handleChat(r.Context(), w, body, probe)
	case r.URL.Path == "/api/pull" && r.Method == http.MethodPost:
		s.handlePull(r.Context(), w, body)
	case r.URL.Path == "/api/delete" && r.Method == http.MethodDelete:
		s.handleDelete(w, body)
	case r.URL.Path == "/api/embed" && r.Method == http.MethodPost:
		s.handleEmbed(w, body)
	case r.URL.Path == "/api/ps" && r.Method == http.MethodGet:
		s.handlePS(w)
	default:
		// Ollama's router answers an unknown path in plain text.
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, "404 page not found")
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

type modelReq struct {
	Model string `json:"model"`
	Name  string `json:"name"`
}

func decodeModel(body []byte) (string, error) {
	var m modelReq
	if err := json.Unmarshal(body, &m); err != nil {
		return "", fmt.Errorf("invalid request body: %w", err)
	}
	if m.Model == "" {
		m.Model = m.Name
	}
	if m.Model == "" {
		return "", fmt.Errorf("model is required")
	}
	return m.Model, nil
}

// find looks a model up by name; "name" matches "name:latest" like Ollama.
func (s *Server) find(name string) (Model, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range s.models {
		if m.Name == name || m.Name == name+":latest" {
			return m, true
		}
	}
	return Model{}, false
}

func notFound(w http.ResponseWriter, name string) {
	writeError(w, http.StatusNotFound, fmt.Sprintf("model '%s' not found", name))
}

func details(m Model) map[string]any {
	return map[string]any{
		"parent_model": "", "format": "gguf", "family": m.Family, "families": []string{m.Family},
		"parameter_size": m.ParameterSize, "quantization_level": m.Quantization,
	}
}

func digest(name string) string {
	h := fnv.New64a()
	_, _ = h.Write([]byte(name))
	return fmt.Sprintf("%016x%016x%016x%016x", h.Sum64(), h.Sum64()^1, h.Sum64()^2, h.Sum64()^3)
}

func (m Model) digest() string {
	if m.Digest != "" {
		return m.Digest
	}
	return digest(m.Name)
}

func (s *Server) handleTags(w http.ResponseWriter) {
	models := []map[string]any{}
	for _, m := range s.Models() {
		models = append(models, map[string]any{
			"name": m.Name, "model": m.Name, "modified_at": "2026-01-02T03:04:05Z",
			"size": m.Size, "digest": m.digest(), "details": details(m),
		})
	}
	writeJSON(w, http.StatusOK, map[string]any{"models": models})
}

func (s *Server) handleShow(w http.ResponseWriter, body []byte) {
	name, err := decodeModel(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	m, ok := s.find(name)
	if !ok {
		notFound(w, name)
		return
	}
	info := map[string]any{"general.architecture": m.Family, "general.parameter_count": 4_000_000_000}
	if m.ContextLength > 0 {
		info[m.Family+".context_length"] = m.ContextLength
	}
	tensors := []map[string]any{{"name": "token_embd.weight", "type": "Q4_K", "shape": []int{2560, 151936}}}
	writeJSON(w, http.StatusOK, map[string]any{
		"modelfile": "FROM " + name, "template": "{{ .Prompt }}", "details": details(m),
		"model_info": info, "capabilities": m.Capabilities, "modified_at": "2026-01-02T03:04:05Z",
		"tensors": tensors,
	})
}

func (s *Server) handleDelete(w http.ResponseWriter, body []byte) {
	name, err := decodeModel(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, m := range s.models {
		if m.Name == name || m.Name == name+":latest" {
			s.models = append(s.models[:i], s.models[i+1:]...)
			w.WriteHeader(http.StatusOK)
			return
		}
	}
	notFound(w, name)
}

func (s *Server) handleEmbed(w http.ResponseWriter, body []byte) {
	var req struct {
		Model string `json:"model"`
		Input any    `json:"input"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	m, ok := s.find(req.Model)
	if !ok {
		notFound(w, req.Model)
		return
	}
	if !slices.Contains(m.Capabilities, "embedding") {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("%q does not support embeddings", req.Model))
		return
	}
	var inputs []string
	switch v := req.Input.(type) {
	case string:
		inputs = []string{v}
	case []any:
		for _, x := range v {
			s, _ := x.(string)
			inputs = append(inputs, s)
		}
	}
	s.load(m.Name)
	vecs := make([][]float32, 0, len(inputs))
	tokens := 0
	for _, in := range inputs {
		vecs = append(vecs, Vector(in))
		tokens += len(strings.Fields(in))
	}
	writeJSON(w, http.StatusOK, map[string]any{"model": req.Model, "embeddings": vecs, "prompt_eval_count": tokens,
		"total_duration": 1_000_000, "load_duration": 1000})
}

// VectorDims is the length of the fake embeddings.
const VectorDims = 16

// Vector is the fake embedding of text: a normalised bag of hashed words, so
// texts sharing words are close.
func Vector(text string) []float32 {
	v := make([]float32, VectorDims)
	for _, w := range strings.Fields(strings.ToLower(text)) {
		h := fnv.New32a()
		_, _ = h.Write([]byte(strings.Trim(w, ".,!?;:\"'")))
		v[h.Sum32()%VectorDims]++
	}
	var n float64
	for _, x := range v {
		n += float64(x * x)
	}
	if n == 0 {
		v[0] = 1
		return v
	}
	for i := range v {
		v[i] = float32(float64(v[i]) / math.Sqrt(n))
	}
	return v
}

// pause waits d, or returns false when the client or the server went away.
func (s *Server) pause(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-s.closed:
		return false
	}
}
