package agent

import (
	"fmt"
	"strings"
	"testing"

	"hearth/backend/agent/prompt"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
	"hearth/backend/session"
	"hearth/backend/workspace"
)

// A model whose tokenizer spends more than the estimate refuses a request the
// budget thought would fit. The estimate is raised and the request rebuilt
// with less history, so the reply still comes, with a notice; a model that
// keeps refusing gets the error after a few smaller tries.
func TestProviderOverflowShrinksAndRetries(t *testing.T) {
	tooLong := fakeollama.Reply{Status: 400, Error: "the input length exceeds the context length"}
	for _, tc := range []struct {
		name    string
		replies []fakeollama.Reply
		ok      bool
	}{
		{"recovers", []fakeollama.Reply{tooLong, {Content: "Fits now."}}, true},
		{"gives up", []fakeollama.Reply{tooLong, tooLong, tooLong, tooLong, tooLong}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			est := prompt.NewEstimator()
			h := newHarness(t, fakeollama.Script{Replies: tc.replies}, func(o *Options) {
				if _, err := workspace.Onboard(o.Workspace); err != nil {
					t.Fatal(err)
				}
				b, err := prompt.New(prompt.Options{Workspace: o.Workspace})
				if err != nil {
					t.Fatal(err)
				}
				o.Context = &PromptContext{System: b.SystemPrompt, Estimator: est}
				o.Estimator = est
				o.ContextTokens = 4096
				o.MaxTokens = 256
			})
			// 60 old turns of ~100 tokens each: most of the 4096 window.
			var recs []session.Record
			for i := range 60 {
				id := fmt.Sprintf("old%d", i)
				recs = append(recs,
					session.MessageRecord(id, llm.Message{Role: llm.RoleUser, Content: fmt.Sprintf("question %d %s", i, strings.Repeat("word ", 40))}),
					session.MessageRecord(id, llm.Message{Role: llm.RoleAssistant, Content: fmt.Sprintf("answer %d %s", i, strings.Repeat("word ", 40))}),
					session.RunRecord(session.Run{ID: id, Status: session.StatusOK}))
			}
			if _, err := h.store.Create(session.CreateOptions{ID: "dense"}); err != nil {
				t.Fatal(err)
			}
			if err := h.store.Append("dense", recs...); err != nil {
				t.Fatal(err)
			}
			res, evs := h.send("dense", "and now?")
			checkEvents(t, evs)
			reqs := h.fake.ChatRequests()
			if tc.ok {
				if res.Status != event.StatusOK || res.Final != "Fits now." {
					t.Fatalf("result %+v %s", res, describe(evs))
				}
				if len(reqs) != 2 || size(reqs[1].Messages) >= size(reqs[0].Messages) {
					t.Errorf("the retry was not smaller: %d requests", len(reqs))
				}
				noticed := false
				for _, n := range ofType[event.NoticeData](evs) {
					noticed = noticed || strings.Contains(n.Message, "made smaller to fit")
				}
				if !noticed {
					t.Errorf("no notice: %+v", ofType[event.NoticeData](evs))
				}
				if est.Ratio("ollama/qwen3:4b") <= 1 {
					t.Errorf("ratio %v not raised", est.Ratio("ollama/qwen3:4b"))
				}
				return
			}
			if res.Status != event.StatusError || len(reqs) != 4 {
				t.Fatalf("want an error after 4 tries, got %+v after %d requests", res, len(reqs))
			}
			if e := ofType[event.ErrorData](evs); len(e) != 1 || e[0].Code != string(llm.KindContextOverflow) {
				t.Errorf("error events %+v", e)
			}
		})
	}
}

func size(msgs []fakeollama.ChatMessage) int {
	n := 0
	for _, m := range msgs {
		n += len(m.Content)
	}
	return n
}
