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

	"github.com/adrg/xdg"

	"hearth/backend/agent"
	"hearth/backend/agent/prompt"
	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/internal/recallbench"
	"hearth/backend/llm"
	"hearth/backend/memory"
	"hearth/backend/recall"
	"hearth/backend/session"
)

// The recall benchmark on the agent's own path (docs/memory.md, "Measuring
// recall"). Each user's past chats are written where Hearth keeps them
// (session files; for some users older ones consolidated into HISTORY.md
// entries or daily notes); then every question is sent through the real
// app against the fake Ollama, in a new chat, as a person sends it. The
// first request the model would receive carries the recall block; the fake
// answers with a memory_search call (the question itself, or its key words,
// as models send either), and the next request carries the tool's result
// exactly as the model gets it (a result spilled to a file shows only its
// preview). A hit is the evidence's key text in what the model received.

// recallWindow is one context window the questions are asked at, and the
// paths it measures.
type recallWindow struct {
	tokens int
	block  string // tally name of its block ("" to leave it out)
	tool   string // tally name prefix of its memory_search results
	// keywords asks memory_search a second time with the question's key
	// words (a turn more per question).
	keywords bool
}

// The windows: the shipped default, a small one, and one big enough that
// memory_search gets its largest budget (recall.SearchTokens: 4 000).
var recallWindows = []recallWindow{
	{8192, "block@8k", "tool@8k(1024)", true},
	{4096, "block@4k", "tool@4k(512)", true},
	{32768, "", "tool@32k(4000)", true},
}

// recallChat is one /api/chat request as the fake received it, and when.
type recallChat struct {
	at  time.Time
	req fakeollama.ChatRequest
}

// recallRecorder sits in front of the fake and keeps the chat requests with
// their arrival times (the fake's own record has no times).
type recallRecorder struct {
	mu    sync.Mutex
	chats []recallChat
}

func (r *recallRecorder) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path == "/api/chat" && req.Header.Get(fakeollama.CheckHeader) == "" {
			at := time.Now()
			body, _ := io.ReadAll(req.Body)
			var c fakeollama.ChatRequest
			if json.Unmarshal(body, &c) == nil {
				r.mu.Lock()
				r.chats = append(r.chats, recallChat{at, c})
				r.mu.Unlock()
			}
			req.Body = io.NopCloser(bytes.NewReader(body))
		}
		h.ServeHTTP(w, req)
	})
}

func (r *recallRecorder) since(n int) []recallChat {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]recallChat(nil), r.chats[n:]...)
}

func (r *recallRecorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.chats)
}

// recallResults are the tallies of a run, in report order.
type recallResults struct {
	order   []string
	tallies map[string]*recallbench.Tally
	overlap float64
	n       int
	// sameBlock counts the questions whose block was the same asked from
	// the live chat (the question in the index) and from elsewhere.
	sameBlock, blocks int
}

func (r *recallResults) tally(name string) *recallbench.Tally {
	if t, ok := r.tallies[name]; ok {
		return t
	}
	if r.tallies == nil {
		r.tallies = map[string]*recallbench.Tally{}
	}
	r.tallies[name] = recallbench.NewTally(name)
	r.order = append(r.order, name)
	return r.tallies[name]
}

func (r *recallResults) table() string {
	var ts []*recallbench.Tally
	for _, n := range r.order {
		ts = append(ts, r.tallies[n])
	}
	return recallbench.Table(ts)
}

// useRecallRoot points HOME and the XDG folders at root (setXDG, called
// first, puts the test's own back when it ends).
func useRecallRoot(tb testing.TB, root string) {
	for k, sub := range map[string]string{"HOME": "home", "XDG_CONFIG_HOME": "config", "XDG_DATA_HOME": "data",
		"XDG_STATE_HOME": "state", "XDG_CACHE_HOME": "cache"} {
		if err := os.Setenv(k, filepath.Join(root, sub)); err != nil {
			tb.Fatal(err)
		}
	}
	xdg.Reload()
}

// runRecallBench asks every question of d through the app at each window.
func runRecallBench(tb testing.TB, d recallbench.Data, windows []recallWindow) *recallResults {
	setXDG(tb)
	rec := &recallRecorder{}
	fake := fakeollama.New(fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()},
		Default: &fakeollama.Reply{Content: "Thanks."}})
	ts := httptest.NewServer(rec.wrap(fake))
	tb.Cleanup(func() { fake.Close(); ts.Close() })
	opts := Options{Getenv: env(map[string]string{"OLLAMA_HOST": ts.URL}), Retry: llm.RetryPolicy{MaxAttempts: 1}}
	res := &recallResults{overlap: recallbench.MeanOverlap(d.Questions), n: len(d.Questions)}
	for _, w := range windows {
		if w.block != "" {
			res.tally(w.block)
		}
		res.tally(w.tool + " question")
		if w.keywords {
			res.tally(w.tool + " keywords")
		}
	}
	res.tally("block@8k not in index")
	ctx := context.Background()
	for ui, user := range d.Users {
		useRecallRoot(tb, tb.TempDir())
		for wi, w := range windows {
			writeRecallConfig(tb, w.tokens)
			a, err := New(opts)
			if err != nil {
				tb.Fatal(err)
			}
			if err := a.Start(ctx, StartOptions{}); err != nil {
				tb.Fatal(err)
			}
			paths := a.Settings.Paths()
			if wi == 0 {
				writePast(tb, paths, user)
				// Built now, not inside the first question's search, which a slow
				// machine (a -race build under load) could take past the block's
				// time limit and so give that one question no block.
				if _, err := a.Memory.Reindex(ctx); err != nil {
					tb.Fatal(err)
				}
			}
			for qi, q := range d.Questions {
				if q.User != ui {
					continue
				}
				if wi == 0 {
					// The block as a search from another chat finds it, in about
					// the same room (rebuilt from the request uncalibrated): the
					// question is not in the index then.
					n0 := rec.count()
					blk := askRecall(tb, a, fake, rec, user, q, qi, 0, w, res)
					room := recallRoomOf(tb, rec.since(n0)[0].req, w.tokens)
					elsewhere := a.Memory.Recall(ctx, fmt.Sprintf("elsewhere-%d", qi), q.Text, room)
					res.tally("block@8k not in index").Add(q.Category, recallbench.Found(user, q, elsewhere), elsewhere, 0)
					res.blocks++
					if sameHits(blk, elsewhere) {
						res.sameBlock++
					}
				} else {
					askRecall(tb, a, fake, rec, user, q, qi, 0, w, res)
				}
				if w.keywords {
					askRecall(tb, a, fake, rec, user, q, qi, 1, w, res)
				}
			}
			if err := a.Close(ctx); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return res
}

// askRecall sends q in a new chat: style 0 has the model search with the
// question itself, style 1 with its key words. It records the block (style
// 0) and the tool result, and returns the block.
func askRecall(tb testing.TB, a *App, fake *fakeollama.Server, rec *recallRecorder, user recallbench.User,
	q recallbench.Question, qi, style int, w recallWindow, res *recallResults) string {
	query, name := q.Text, w.tool+" question"
	if style == 1 {
		query, name = recallbench.Keywords(q.Text), w.tool+" keywords"
	}
	args, _ := json.Marshal(map[string]string{"query": query})
	fake.Enqueue(fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{ID: "c1", Name: "memory_search", Arguments: args}}},
		fakeollama.Reply{Content: "Thanks."})
	id := fmt.Sprintf("bench-q%d-%d", qi, style)
	n0 := rec.count()
	start := time.Now()
	run, err := a.Chat.Start(context.Background(), agent.Request{SessionID: id, Text: q.Text}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	if r := run.Wait(); r.Status != event.StatusOK {
		tb.Fatalf("%q: %+v", q.Text, r)
	}
	chats := rec.since(n0)
	if len(chats) != 2 {
		tb.Fatalf("%q: %d model calls, want 2", q.Text, len(chats))
	}
	block := recallBlockOf(chats[0].req)
	tool := toolResultOf(chats[1].req)
	if style == 0 && w.block != "" {
		res.tally(w.block).Add(q.Category, recallbench.Found(user, q, block), block, chats[0].at.Sub(start))
	}
	res.tally(name).Add(q.Category, recallbench.Found(user, q, tool), tool, chats[1].at.Sub(chats[0].at))
	if os.Getenv("RECALLPATH_MISSES") != "" && style == 0 && w.block == "block@8k" {
		printRecallMiss(user, q, block, tool)
	}
	// The chat goes, so the next question's index is the user's past alone.
	p, err := session.NewStore(a.Settings.Paths().SessionsDir, session.Options{}).Path(id)
	if err == nil {
		err = os.Remove(p)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return block
}

// printRecallMiss prints a question whose evidence the block at 8k missed
// (RECALLPATH_MISSES=1): what to look at when developing recall.
func printRecallMiss(user recallbench.User, q recallbench.Question, block, tool string) {
	if recallbench.Found(user, q, block) == 1 {
		return
	}
	fmt.Printf("MISS %s %q block=%.2f tool=%.2f\n", q.Category, q.Text, recallbench.Found(user, q, block), recallbench.Found(user, q, tool))
	for _, e := range q.Evidence {
		fmt.Printf("   evidence %q\n", e.Line)
	}
}

// recallBlockOf is the recall block in the last user message of req.
func recallBlockOf(req fakeollama.ChatRequest) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if m := req.Messages[i]; m.Role == "user" {
			start := strings.Index(m.Content, recall.BlockHeader)
			if start < 0 {
				return ""
			}
			end := strings.Index(m.Content[start:], recall.BlockFooter)
			if end < 0 {
				return m.Content[start:]
			}
			return m.Content[start : start+end+len(recall.BlockFooter)]
		}
	}
	return ""
}

// toolResultOf is the last tool result in req, as the model reads it.
func toolResultOf(req fakeollama.ChatRequest) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == "tool" {
			return req.Messages[i].Content
		}
	}
	return ""
}

func writeRecallConfig(tb testing.TB, window int) {
	p := config.DefaultConfigFile()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		tb.Fatal(err)
	}
	cfg := fmt.Sprintf(`{"agents":{"defaults":{"contextTokens":%d}}}`, window)
	if err := os.WriteFile(p, []byte(cfg), 0o600); err != nil {
		tb.Fatal(err)
	}
}

// writePast puts the user's past where Hearth keeps it: each chat a session
// file written by the session store, dated when it happened; a consolidated
// chat an entry of memory/HISTORY.md or the day's note (its chat deleted).
func writePast(tb testing.TB, paths config.Paths, u recallbench.User) {
	var hist strings.Builder
	daily := map[string]*strings.Builder{}
	for si, s := range u.Sessions {
		switch s.Stored {
		case recallbench.InHistory:
			if hist.Len() == 0 {
				hist.WriteString("# History\n\n")
			}
			var lines []string
			for _, t := range s.Turns {
				lines = append(lines, t.User)
			}
			fmt.Fprintf(&hist, "[%s] The user said: %s\n\n", s.Start.Local().Format(memory.EntryTime), strings.Join(lines, " "))
		case recallbench.InDaily:
			day := s.Start.Local().Format(time.DateOnly)
			if daily[day] == nil {
				daily[day] = &strings.Builder{}
				daily[day].WriteString("# " + day + "\n\n")
			}
			for _, t := range s.Turns {
				daily[day].WriteString("- " + t.User + "\n")
			}
		default:
			at := s.Start
			st := session.NewStore(paths.SessionsDir, session.Options{Now: func() time.Time { return at },
				NewID: func(t time.Time) string { return t.UTC().Format("20060102T150405") + fmt.Sprintf("-%08x", si) }})
			m, err := st.Create(session.CreateOptions{})
			if err != nil {
				tb.Fatal(err)
			}
			var recs []session.Record
			for ti, t := range s.Turns {
				run := fmt.Sprintf("r%d", ti)
				ts := at.Add(time.Duration(ti) * time.Minute)
				u := session.MessageRecord(run, llm.Message{Role: llm.RoleUser, Content: t.User})
				as := session.MessageRecord(run, llm.Message{Role: llm.RoleAssistant, Content: t.Assistant})
				fin := session.RunRecord(session.Run{ID: run, Status: session.StatusOK, Final: t.Assistant, At: ts})
				u.At, as.At, fin.At = ts, ts, ts
				recs = append(recs, u, as, fin)
			}
			if err := st.Append(m.ID, recs...); err != nil {
				tb.Fatal(err)
			}
		}
	}
	if hist.Len() > 0 {
		writeRecallFile(tb, filepath.Join(paths.Workspace, memory.HistoryFile), hist.String())
	}
	for day, b := range daily {
		writeRecallFile(tb, filepath.Join(paths.Workspace, "memory", day+".md"), b.String())
	}
}

func writeRecallFile(tb testing.TB, p, text string) {
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		tb.Fatal(err)
	}
}

// recallRoomOf is the room the first request of a new chat left its recall
// block (prompt.Counter.RecallRoom), rebuilt from the request on the wire:
// its system prompt, tools and the user's message without the block.
func recallRoomOf(tb testing.TB, req fakeollama.ChatRequest, window int) int {
	var sys string
	var hist []llm.Message
	for _, m := range req.Messages {
		switch m.Role {
		case "system":
			sys = m.Content
		case "user":
			text := m.Content
			if i := strings.Index(text, recall.BlockFooter); i >= 0 {
				text = strings.TrimPrefix(text[i+len(recall.BlockFooter):], "\n\n")
			}
			hist = append(hist, llm.Message{Role: llm.RoleUser, Content: text})
		}
	}
	var defs []llm.ToolDef
	for _, raw := range req.Tools {
		var w struct {
			Function struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"function"`
		}
		if err := json.Unmarshal(raw, &w); err != nil {
			tb.Fatal(err)
		}
		defs = append(defs, llm.ToolDef{Name: w.Function.Name, Description: w.Function.Description, Parameters: w.Function.Parameters})
	}
	return prompt.Counter{}.RecallRoom(prompt.Request{System: sys, Tools: defs, History: hist, Window: window,
		Reply: config.Default().Agents.Defaults.MaxTokens})
}

// sameHits reports whether two blocks hold the same hits in the same order
// as far as the shorter one goes, its last line (cut to its room) aside: the
// room recallRoomOf rebuilds is the uncalibrated estimate, the run's may be a
// little larger.
func sameHits(a, b string) bool {
	if a == b {
		return true
	}
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	if len(al) > len(bl) {
		al, bl = bl, al
	}
	if len(al) < 3 {
		return false
	}
	for i := range al[:len(al)-2] { // the footer and the line before it may differ
		if al[i] != bl[i] {
			return false
		}
	}
	return true
}
