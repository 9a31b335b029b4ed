package app

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"hearth/backend/agent"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/internal/recallbench"
	"hearth/backend/llm"
	"hearth/backend/session"
)

// floorLongChat is the least share of evidence the block must hold when the
// question is asked in a chat that has outgrown the 8 192-token window (measured
// 0.95 on this slice; before the fitter let older turns make way for the block,
// such a chat got no block at all: 0.000).
const floorLongChat = 0.75

// TestRecallLongChat asks the slice's questions of one user the way a person
// asks after a long morning of chatting: inside one live chat far longer than the
// window, so the prompt fitter has to leave older turns out. The block must still
// come with the request, and hold the evidence.
func TestRecallLongChat(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a long chat and asks 20 questions in it")
	}
	d, err := recallbench.Generate(recallSlice)
	if err != nil {
		t.Fatal(err)
	}
	setXDG(t)
	rec := &recallRecorder{}
	fake := fakeollama.New(fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()},
		Default: &fakeollama.Reply{Content: "Thanks."}})
	ts := httptest.NewServer(rec.wrap(fake))
	t.Cleanup(func() { fake.Close(); ts.Close() })
	useRecallRoot(t, t.TempDir())
	writeRecallConfig(t, 8192)
	a, err := New(Options{Getenv: env(map[string]string{"OLLAMA_HOST": ts.URL}), Retry: llm.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := a.Start(ctx, StartOptions{}); err != nil {
		t.Fatal(err)
	}
	defer a.Close(ctx)
	user := d.Users[0]
	writePast(t, a.Settings.Paths(), user)
	id := longChat(t, a, 60)

	tally := recallbench.NewTally("block@8k long chat")
	asked := 0
	for _, q := range d.Questions {
		if q.User != 0 {
			continue
		}
		n0 := rec.count()
		run, err := a.Chat.Start(ctx, agent.Request{SessionID: id, Text: q.Text}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r := run.Wait(); r.Status != event.StatusOK {
			t.Fatalf("%q: %+v", q.Text, r)
		}
		// The turn's request; the others are the background consolidation of
		// the turns the window left out.
		var req *fakeollama.ChatRequest
		for _, c := range rec.since(n0) {
			if strings.Contains(lastUser(c.req), q.Text) {
				req = &c.req
				break
			}
		}
		if req == nil {
			t.Fatalf("%q: no request carried it", q.Text)
		}
		if strings.Contains(firstUser(*req), "long-chat filler 0 ") {
			t.Fatalf("the whole chat fitted the window: not the long-chat path")
		}
		block := recallBlockOf(*req)
		tally.Add(q.Category, recallbench.Found(user, q, block), block, 0)
		asked++
	}
	t.Logf("%d questions in a chat of %d turns\n%s", asked, 60, recallbench.Table([]*recallbench.Tally{tally}))
	if got := tally.Rate(""); got < floorLongChat {
		t.Errorf("block in a long chat: %.3f of the evidence, below the floor %.2f", got, floorLongChat)
	}
}

// longChat makes a live chat of n exchanges of small talk, about 200 tokens each,
// dated this morning: far more than an 8 192-token window holds.
func longChat(t *testing.T, a *App, n int) string {
	t.Helper()
	st := session.NewStore(a.Settings.Paths().SessionsDir, session.Options{})
	m, err := st.Create(session.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now().Add(-3 * time.Hour)
	var recs []session.Record
	for i := range n {
		run := fmt.Sprintf("r%d", i)
		at := start.Add(time.Duration(i) * time.Minute)
		u := session.MessageRecord(run, llm.Message{Role: llm.RoleUser, Content: fmt.Sprintf("long-chat filler %d about the "+
			"weather outside and the state of the kitchen table. %s", i, strings.Repeat("The sky looks grey and the kettle is on. ", 12))})
		as := session.MessageRecord(run, llm.Message{Role: llm.RoleAssistant, Content: "I see. " +
			strings.Repeat("Grey skies make a good day for tea. ", 8)})
		fin := session.RunRecord(session.Run{ID: run, Status: session.StatusOK, Final: "ok", At: at})
		u.At, as.At, fin.At = at, at, at
		recs = append(recs, u, as, fin)
	}
	if err := st.Append(m.ID, recs...); err != nil {
		t.Fatal(err)
	}
	return m.ID
}

// firstUser is the first user message of req.
func firstUser(req fakeollama.ChatRequest) string {
	for _, m := range req.Messages {
		if m.Role == "user" {
			return m.Content
		}
	}
	return ""
}

// lastUser is the last user message of req.
func lastUser(req fakeollama.ChatRequest) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == "user" {
			return req.Messages[i].Content
		}
	}
	return ""
}
