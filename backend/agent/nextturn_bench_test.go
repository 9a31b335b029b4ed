package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"hearth/backend/agent/prompt"
	"hearth/backend/event"
	"hearth/backend/llm"
	"hearth/backend/session"
	"hearth/backend/tools"
	"hearth/backend/workspace"
)

// quickOllama answers every chat at once with the same short reply, through
// the real Ollama client. It reads each request without decoding it, so its
// own cost does not grow with the request (the in-process fake records and
// decodes every request; this benchmark measures Hearth, not the fake).
func quickOllama(b *testing.B) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		switch r.URL.Path {
		case "/api/show":
			_, _ = io.WriteString(w, `{"capabilities":["completion","tools"],"model_info":{"general.architecture":"qwen3","qwen3.context_length":40960}}`)
		case "/api/chat":
			w.Header().Set("Content-Type", "application/x-ndjson")
			_, _ = io.WriteString(w, `{"message":{"role":"assistant","content":"The plan is to ship the beta on Friday."},"done":false}`+"\n"+
				`{"message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":1500,"eval_count":12}`+"\n")
		default:
			http.NotFound(w, r)
		}
	}))
	b.Cleanup(srv.Close)
	return srv.URL
}

// chatTurns appends n finished turns to session id: a question, a read_file
// call with its result and an answer (about 1.4 kB of file per turn), all but
// the last two marked as consolidated into memory, as in a chat Hearth kept.
func chatTurns(b *testing.B, st *session.Store, id string, n int) {
	b.Helper()
	var recs []session.Record
	for i := range n {
		run := fmt.Sprintf("r%05d", i)
		call := llm.ToolCall{ID: run + "-1", Name: "read_file", Arguments: json.RawMessage(`{"path":"notes.md"}`)}
		recs = append(recs,
			session.MessageRecord(run, llm.Message{Role: llm.RoleUser, Content: fmt.Sprintf("Question %d: what is in notes.md, and how does it bear on the plan for this week?", i)}),
			session.MessageRecord(run, llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call}}),
			session.MessageRecord(run, llm.Message{Role: llm.RoleTool, ToolCallID: call.ID, ToolName: "read_file",
				Content: "1\t# Notes\n" + strings.Repeat("2\t- a line of the notes file with a few words on it\n", 10)}),
			session.MessageRecord(run, llm.Message{Role: llm.RoleAssistant, Content: strings.Repeat("The notes say a few things about the plan. ", 6)}),
			session.RunRecord(session.Run{ID: run, Status: session.StatusOK, Final: "The notes say…"}),
		)
	}
	if err := st.Append(id, recs...); err != nil {
		b.Fatal(err)
	}
	if n > 2 {
		if err := st.MarkConsolidated(id, 4*(n-2)-1); err != nil {
			b.Fatal(err)
		}
	}
}

func cpuNow() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkNextTurnWarm: the next turn of a chat that holds 1, 100 or 400
// turns, in a running app: the same Runner, store and context builder serve
// turn after turn, as in the desktop app, with the app's PromptContext
// (system prompt, compaction, the token budget over the whole history), the
// built-in tools offered, and a model that answers at once through the real
// Ollama client. Reported: this process's CPU per turn (median of the
// iterations, each a new turn of the same chats, visited in turn) and each
// size's ratio to the 1-turn chat. Target: the 400-turn chat's next turn
// ≤ 1.3× the 1-turn chat's.
func BenchmarkNextTurnWarm(b *testing.B) {
	root := isolate(b)
	ws := filepath.Join(root, "workspace")
	if _, err := workspace.Onboard(ws); err != nil {
		b.Fatal(err)
	}
	store := session.NewStore(filepath.Join(root, "sessions"), session.Options{})
	sizes := []int{1, 100, 400}
	for _, n := range sizes {
		id := fmt.Sprintf("chat%d", n)
		if _, err := store.Create(session.CreateOptions{ID: id, Title: "Notes and plans"}); err != nil {
			b.Fatal(err)
		}
		chatTurns(b, store, id, n)
	}
	reg := tools.NewRegistry(tools.RegistryOptions{})
	if err := reg.Register(tools.Builtins(tools.Options{Policy: tools.Policy{Workspace: ws}})...); err != nil {
		b.Fatal(err)
	}
	pb, err := prompt.New(prompt.Options{Workspace: ws})
	if err != nil {
		b.Fatal(err)
	}
	prov, err := llm.NewOllama(llm.OllamaConfig{Host: quickOllama(b)})
	if err != nil {
		b.Fatal(err)
	}
	est := prompt.NewEstimator()
	r, err := New(Options{Tools: reg, Store: store, DefaultModel: "ollama/qwen3:4b", Workspace: ws,
		Context: &PromptContext{System: pb.SystemPrompt, Estimator: est}, Estimator: est,
		Resolve: func(string) (llm.Provider, string, error) { return prov, "qwen3:4b", nil }})
	if err != nil {
		b.Fatal(err)
	}
	turn := func(n int) time.Duration {
		start := cpuNow()
		res, err := r.Send(context.Background(), Request{SessionID: fmt.Sprintf("chat%d", n), Text: "And what was the plan again?"}, nil)
		if err != nil || res.Status != event.StatusOK {
			b.Fatalf("turn: %+v %v", res, err)
		}
		return cpuNow() - start
	}
	for _, n := range sizes {
		turn(n) // the app has shown or used each chat before
	}
	cpu := make([][]time.Duration, len(sizes))
	k := 0
	for b.Loop() {
		for j := range sizes {
			i := (j + k) % len(sizes)
			cpu[i] = append(cpu[i], turn(sizes[i]))
		}
		k++
	}
	med := func(ds []time.Duration) time.Duration {
		s := slices.Clone(ds)
		slices.Sort(s)
		return s[len(s)/2]
	}
	base := med(cpu[0])
	for i, n := range sizes {
		b.ReportMetric(float64(med(cpu[i]))/1e6, fmt.Sprintf("cpu-ms@%d", n))
		if i > 0 {
			b.ReportMetric(float64(med(cpu[i]))/float64(base), fmt.Sprintf("x@%d", n))
		}
	}
	b.ReportMetric(0, "ns/op")
}
