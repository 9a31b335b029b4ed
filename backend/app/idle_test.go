package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/backend/agent"
	"hearth/backend/audit"
	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
	"hearth/backend/memory"
	"hearth/backend/session"
)

// idleConfig is a small window (as on a CPU model) with recall's block off, so a
// request's size is the chat's and the prompt's alone.
const idleConfig = `{"agents":{"defaults":{"embeddingModel":"","contextTokens":4096,"maxTokens":512,` +
	`"recallBlock":{"enabled":false},"idleCompactMinutes":0}}}`

// saving is the fake Ollama with every consolidation answered by a save_memory
// call (always the same MEMORY.md, so two chats' prompts stay alike) and every
// other chat by the fake's default. Chats are served one at a time, so the reply
// queued for a consolidation is the one it takes.
type saving struct {
	mu   sync.Mutex
	fake *fakeollama.Server
}

func (s *saving) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/api/chat" {
		s.fake.ServeHTTP(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case r.Header.Get(fakeollama.CheckHeader) != "": // a fitness check takes no scripted reply
	case bytes.Contains(body, []byte(`"`+memory.SaveMemoryTool+`"`)):
		args, _ := json.Marshal(map[string]string{"history_entry": "Went over the garden plans.",
			"memory_update": "- Plans a vegetable garden.\n"})
		s.fake.Enqueue(fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: memory.SaveMemoryTool, Arguments: args}}})
	default:
		// The prompt's tokens counted as the request's bytes ÷ 4, tools and all (the
		// fake's own count leaves the tools out): the budget's calibration settles, and
		// a long chat's window slides a turn at each turn, as with a real model.
		s.fake.Enqueue(fakeollama.Reply{Content: gardenAnswer, PromptEvalCount: len(body) / 4})
	}
	s.fake.ServeHTTP(w, r)
}

// gardenAnswer is every answer of the garden chat: each turn is as long as the
// one before, so a turn added to a full window always leaves one out.
var gardenAnswer = strings.Repeat("Leafy greens and peas cope with shade. ", 6)

// idleApp is the app over the saving fake; idle > 0 is the injected idle time.
func idleApp(tb testing.TB, idle time.Duration) (*App, *fakeollama.Server) {
	tb.Helper()
	setXDG(tb)
	fake := fakeollama.New(fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()},
		Default: &fakeollama.Reply{Content: gardenAnswer}})
	srv := httptest.NewServer(&saving{fake: fake})
	tb.Cleanup(func() { fake.Close(); srv.Close() })
	p := config.DefaultConfigFile()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(idleConfig), 0o600); err != nil {
		tb.Fatal(err)
	}
	a := started(tb, Options{Getenv: env(map[string]string{"OLLAMA_HOST": srv.URL}), Retry: llm.RetryPolicy{MaxAttempts: 1},
		IdleAfter: idle})
	if err := a.Settings.ConfigError(); err != nil {
		tb.Fatal(err)
	}
	return a, fake
}

// gardenChat writes a chat of n finished turns, none saved to memory yet.
func gardenChat(tb testing.TB, st *session.Store, id string, n int) {
	tb.Helper()
	if _, err := st.Create(session.CreateOptions{ID: id, Title: "Garden"}); err != nil {
		tb.Fatal(err)
	}
	var recs []session.Record
	for i := range n {
		run := fmt.Sprintf("r%04d", i)
		recs = append(recs,
			session.MessageRecord(run, llm.Message{Role: llm.RoleUser, Content: fmt.Sprintf("Question %d: which vegetables suit a north-facing bed this month?", i)}),
			session.MessageRecord(run, llm.Message{Role: llm.RoleAssistant, Content: gardenAnswer}),
			session.RunRecord(session.Run{ID: run, Status: session.StatusOK}))
	}
	if err := st.Append(id, recs...); err != nil {
		tb.Fatal(err)
	}
}

func isConsolidation(r fakeollama.ChatRequest) bool {
	return len(r.Tools) == 1 && bytes.Contains(r.Tools[0], []byte(memory.SaveMemoryTool))
}

// requestChars is what a request sends: its messages and tool definitions. The
// test's folder (root) counts as one character: the prompt names the workspace, and
// two tests' folders differ in the length of their random names.
func requestChars(r fakeollama.ChatRequest, root string) int {
	n := 0
	for _, m := range r.Messages {
		n += len(strings.ReplaceAll(m.Content, root, "/"))
	}
	for _, t := range r.Tools {
		n += len(t)
	}
	return n
}

func idleTurn(tb testing.TB, a *App, id, text string) {
	tb.Helper()
	run, err := a.Chat.Start(context.Background(), agent.Request{SessionID: id, Text: text}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	if res := run.Wait(); res.Status != event.StatusOK {
		tb.Fatalf("turn %q: %+v", text, res)
	}
}

// nextTurn is the 200-turn chat's story in a new app: see nextTurnIn.
func nextTurn(tb testing.TB, idle time.Duration) (first, consolidations int) {
	a, fake := idleApp(tb, idle)
	return nextTurnIn(tb, a, fake, "garden", idle > 0)
}

// nextTurnIn writes a chat of 200 turns and has a turn in it (whose own
// consolidation saves what its request left out); then — when the app compacts
// idle chats — the chat is left idle until it is compacted; then the next turn. It
// returns the size of that turn's first request and how many consolidation requests
// were made from its start until its consolidations ended.
func nextTurnIn(tb testing.TB, a *App, fake *fakeollama.Server, id string, idle bool) (first, consolidations int) {
	tb.Helper()
	gardenChat(tb, a.Sessions.Store(), id, 200)
	idleTurn(tb, a, id, "Question 200: which vegetables suit a north-facing bed, and where were we?")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := a.Memory.Consolidations().Wait(ctx); err != nil {
		tb.Fatal(err)
	}
	if idle { // the idle compaction is in the Activity log once it is done
		for len(idleEntries(tb, a, id)) == 0 {
			if ctx.Err() != nil {
				tb.Fatal("the idle chat was never compacted")
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	mark := len(fake.ChatRequests())
	idleTurn(tb, a, id, "Question 201: which vegetables suit a north-facing bed, and what comes next?")
	if err := a.Memory.Consolidations().Wait(ctx); err != nil {
		tb.Fatal(err)
	}
	first = -1
	for _, r := range fake.ChatRequests()[mark:] {
		switch {
		case isConsolidation(r):
			consolidations++
		case first < 0:
			first = requestChars(r, setXDG(tb))
		}
	}
	return first, consolidations
}

func idleEntries(tb testing.TB, a *App, id string) []audit.Entry {
	tb.Helper()
	got, err := a.Guard.Audit.Query(audit.Filter{SessionID: id})
	if err != nil {
		tb.Fatal(err)
	}
	var out []audit.Entry
	for _, e := range got {
		if e.Tool == "consolidation" {
			out = append(out, e)
		}
	}
	return out
}

// The acceptance of issue 31's idle compaction: a 200-turn chat left idle is
// compacted in the background; its next turn makes no consolidation request, and
// that turn's first request is no larger than the one after a fresh compaction
// (the same chat without idle compaction, whose last turn consolidated what it left
// out, and whose next turn must consolidate again).
func TestIdleCompactionSparesTheNextTurn(t *testing.T) {
	var idleFirst, idleCons, baseFirst, baseCons int
	t.Run("idle", func(t *testing.T) { // the same length as "none": the workspace paths in the prompt too
		idleFirst, idleCons = nextTurn(t, time.Millisecond)
	})
	t.Run("none", func(t *testing.T) { baseFirst, baseCons = nextTurn(t, 0) })
	if t.Failed() {
		return
	}
	t.Logf("next turn's first request: %d chars idle-compacted, %d after a fresh compaction; consolidation requests %d and %d",
		idleFirst, baseFirst, idleCons, baseCons)
	if idleCons != 0 {
		t.Errorf("the next turn after an idle compaction made %d consolidation requests", idleCons)
	}
	if baseCons == 0 {
		t.Error("without idle compaction the next turn consolidated nothing: the test shows nothing")
	}
	if idleFirst <= 0 || idleFirst > baseFirst {
		t.Errorf("first request after the idle compaction %d chars, after a fresh compaction %d", idleFirst, baseFirst)
	}
}

// The idle compaction is in the Activity log, in the chat it saved, and saves
// messages without removing any from the chat.
func TestIdleCompactionInActivity(t *testing.T) {
	a, _ := idleApp(t, time.Millisecond)
	st := a.Sessions.Store()
	gardenChat(t, st, "garden", 200)
	idleTurn(t, a, "garden", "Question 200: which vegetables suit a north-facing bed, and where were we?")
	deadline := time.Now().Add(time.Minute)
	var es []audit.Entry
	for es = idleEntries(t, a, "garden"); len(es) == 0 && time.Now().Before(deadline); es = idleEntries(t, a, "garden") {
		time.Sleep(5 * time.Millisecond)
	}
	if len(es) != 1 || !es[0].OK || !strings.Contains(string(es[0].Args), `"idle":true`) {
		t.Fatalf("activity entries %+v", es)
	}
	s, err := st.Load("garden")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Messages()); n != 402 {
		t.Errorf("chat holds %d messages, want all 402", n)
	}
	if s.Meta.LastConsolidated < 300 {
		t.Errorf("cursor %d: the idle compaction saved too little", s.Meta.LastConsolidated)
	}
}
