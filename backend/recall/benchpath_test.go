package recall

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"hearth/backend/internal/recallbench"
	"hearth/backend/llm"
	"hearth/backend/session"
	"hearth/backend/tools"
)

// A quick run of the recall benchmark's data on memory's own side of the
// agent's path (the question saved into the live chat first, the block at
// the room a new chat leaves it, memory_search with that room): the full
// benchmark through the agent is backend/app's.

func writeBenchUser(tb testing.TB, u recallbench.User, ws, sdir string) {
	var hist strings.Builder
	daily := map[string]*strings.Builder{}
	for i, s := range u.Sessions {
		var body strings.Builder
		for _, t := range s.Turns {
			fmt.Fprintf(&body, "User: %s\nAssistant: %s\n", t.User, t.Assistant)
		}
		switch s.Stored {
		case recallbench.InHistory:
			fmt.Fprintf(&hist, "[%s] %s\n", s.Start.Local().Format(entryTime), body.String())
		case recallbench.InDaily:
			d := s.Start.Local().Format(time.DateOnly)
			if daily[d] == nil {
				daily[d] = &strings.Builder{}
			}
			daily[d].WriteString(body.String() + "\n")
		default:
			at := s.Start
			st := session.NewStore(sdir, session.Options{Now: func() time.Time { return at }})
			id := fmt.Sprintf("chat%03d", i)
			if _, err := st.Create(session.CreateOptions{ID: id, Title: id}); err != nil {
				tb.Fatal(err)
			}
			for _, t := range s.Turns {
				if err := st.Append(id, session.MessageRecord("r", llm.Message{Role: llm.RoleUser, Content: t.User}),
					session.MessageRecord("r", llm.Message{Role: llm.RoleAssistant, Content: t.Assistant})); err != nil {
					tb.Fatal(err)
				}
			}
		}
	}
	if hist.Len() > 0 {
		writeFile(tb, ws, HistoryFile, hist.String())
	}
	for d, b := range daily {
		writeFile(tb, ws, "memory/"+d+".md", b.String())
	}
}

func runBenchPath(tb testing.TB, cfg recallbench.Config, window int) (block, search *recallbench.Tally) {
	data, err := recallbench.Generate(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	type user struct {
		x   *Index
		reg *tools.Registry
		st  *session.Store
	}
	us := make([]user, len(data.Users))
	for i, u := range data.Users {
		ws, sdir := tb.TempDir(), tb.TempDir()
		writeBenchUser(tb, u, ws, sdir)
		st := session.NewStore(sdir, session.Options{})
		if _, err := st.Create(session.CreateOptions{ID: "live", Title: "live"}); err != nil {
			tb.Fatal(err)
		}
		x := NewIndex(IndexOptions{Workspace: ws, SessionsDir: sdir})
		reg := tools.NewRegistry(tools.RegistryOptions{})
		if err := reg.Register(SearchTool(x, ToolOptions{Tokens: SearchTokens(window)})); err != nil {
			tb.Fatal(err)
		}
		us[i] = user{x: x, reg: reg, st: st}
	}
	defer func() {
		for _, u := range us {
			u.x.Close()
		}
	}()
	ctx := context.Background()
	call := tools.WithCall(ctx, tools.CallInfo{SessionID: "live", RoomTokens: pathSlack(window)})
	block, search = recallbench.NewTally(fmt.Sprintf("block@%d", window)), recallbench.NewTally(fmt.Sprintf("memory_search@%d", window))
	for _, q := range data.Questions {
		u := us[q.User]
		if err := u.st.Append("live", session.MessageRecord("r", llm.Message{Role: llm.RoleUser, Content: q.Text})); err != nil {
			tb.Fatal(err)
		}
		rc := &Recaller{Index: u.x, Block: BlockOptions{Enabled: true, MinScore: pathMinScore}}
		start := time.Now()
		b := rc.ForRoom(ctx, "live", q.Text, pathRoom(window))
		block.Add(q.Category, recallbench.Found(data.Users[q.User], q, b), b, time.Since(start))
		start = time.Now()
		res := u.reg.Call(call, "memory_search", []byte(fmt.Sprintf(`{"query":%q}`, q.Text)))
		if len(res.Content) > tools.DefaultMaxResultChars {
			tb.Errorf("spilled: %d chars", len(res.Content))
		}
		search.Add(q.Category, recallbench.Found(data.Users[q.User], q, res.Content), res.Content, time.Since(start))
		if err := u.st.Append("live", session.MessageRecord("r", llm.Message{Role: llm.RoleAssistant, Content: "Let me look."})); err != nil {
			tb.Fatal(err)
		}
	}
	return block, search
}

// BenchmarkRecallBenchPath prints recallbench's table for memory's side of
// the agent's path at the default window and at 4 096 tokens.
func BenchmarkRecallBenchPath(b *testing.B) {
	cfg := recallbench.Config{Seed: 27, Users: 6, Sessions: 40, Questions: 48, Distractors: 24}
	for b.Loop() {
		var ts []*recallbench.Tally
		for _, w := range []int{8192, 4096} {
			bl, se := runBenchPath(b, cfg, w)
			ts = append(ts, bl, se)
		}
		b.Log("\n" + recallbench.Table(ts))
	}
}
