package agent

import (
	"context"
	"strings"
	"testing"
	"time"

	"hearth/backend/agent/prompt"
	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
)

func turns(n int) []llm.Message {
	var h []llm.Message
	for i := range n {
		h = append(h, llm.Message{Role: llm.RoleUser, Content: "question " + string(rune('a'+i))},
			llm.Message{Role: llm.RoleAssistant, Content: "answer"})
	}
	return h[:len(h)-1] // the current turn has no answer yet
}

// Each input is one plain function: the system prompt, the window of turns a
// session keeps, the recall block for the current message; the stored history is
// never changed and building starts nothing.
func TestPromptContextPutsTheInputsTogether(t *testing.T) {
	var recalled []string
	p := &PromptContext{
		System:    func() (string, error) { return "You are Hearth.", nil },
		Estimator: prompt.NewEstimator(),
		Window: func(id string) int {
			if id == "heartbeat" {
				return 2
			}
			return 0
		},
		Recall: func(_ context.Context, id, text string, _ int) string {
			recalled = append(recalled, id+":"+text)
			return "[recalled]"
		},
		Now: func() time.Time { return time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC) },
		TZ:  time.UTC,
	}
	hist := turns(4)
	orig := hist[len(hist)-1].Content
	in := ContextInput{SessionID: "heartbeat", Model: "ollama/qwen3:4b", History: hist, ContextLimit: 8192, ReplyTokens: 512, Channel: "heartbeat"}
	out, err := p.Build(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Messages) != 1+3 || out.Messages[0].Content != "You are Hearth." {
		t.Fatalf("messages %+v", out.Messages)
	}
	if out.Messages[1].Content != "question c" || out.FirstKept != 4 || out.LeftOutTurns != 0 {
		t.Errorf("window: first sent %q, FirstKept %d, left out %d", out.Messages[1].Content, out.FirstKept, out.LeftOutTurns)
	}
	last := out.Messages[len(out.Messages)-1].Content
	if !strings.HasPrefix(last, "[recalled]\n\nquestion d") || !strings.Contains(last, "heartbeat") {
		t.Errorf("current message %q: want the recall block first and the runtime line", last)
	}
	if hist[len(hist)-1].Content != orig || len(recalled) != 1 || recalled[0] != "heartbeat:question d" {
		t.Errorf("stored history changed or recall asked wrongly: %q %v", hist[len(hist)-1].Content, recalled)
	}
	in.SessionID = "other"
	if out, _ := p.Build(context.Background(), in); out.Messages[1].Content != "question a" || out.FirstKept != 0 {
		t.Errorf("a session without a window lost turns: %+v", out.Messages[1])
	}
}

// AfterRun hears how the run ended before Wait returns, and the request's notices
// reach the user first.
func TestAfterRunAndRequestNotices(t *testing.T) {
	var after []Result
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{{Content: "Hi."}}}, func(o *Options) {
		o.AfterRun = func(r Result) { after = append(after, r) }
	})
	rec := newRecorder()
	run, err := h.runner.Start(context.Background(), Request{SessionID: "s", Text: "hello", Notices: []i18n.Message{i18n.M("notice.consolidationFailed", "error", "disk full")}}, rec.sink)
	if err != nil {
		t.Fatal(err)
	}
	res := run.Wait()
	if len(after) != 1 || after[0].RunID != res.RunID || after[0].HistoryLen != 1 || after[0].FirstKept != 0 {
		t.Fatalf("AfterRun got %+v for %+v", after, res)
	}
	evs := rec.all()
	if len(evs) < 2 || evs[1].Type != event.Notice || !noticeOf(evs[1], "notice.consolidationFailed", "Saving older messages of this chat to memory failed: disk full.") {
		t.Errorf("events %s", describe(evs))
	}
}

// noticeOf reports whether ev is a notice of code, worded in English as english.
func noticeOf(ev event.Event, code, english string) bool {
	n, ok := ev.Data.(event.NoticeData)
	return ok && n.Code == code && strings.HasPrefix(n.Message, english)
}

// A settings change reaches the next run through Tune, without a new Runner.
func TestTuneAppliesFromTheNextRun(t *testing.T) {
	maxTokens := 300
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{{Content: "one"}, {Content: "two"}}}, func(o *Options) {
		o.Tune = func() Tuning {
			return Tuning{DefaultModel: "ollama/qwen3:4b", MaxTokens: maxTokens, Workspace: o.Workspace}
		}
	})
	h.send("s", "first")
	maxTokens = 123
	h.send("s", "second")
	reqs := h.fake.ChatRequests()
	if len(reqs) != 2 || reqs[0].Options["num_predict"] != float64(300) || reqs[1].Options["num_predict"] != float64(123) {
		t.Errorf("num_predict of the two runs: %+v", reqs)
	}
}
