package agent

import (
	"context"
	"errors"
	"testing"
	"time"

	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
)

func (h *harness) do(req Request) (Result, []event.Event) {
	h.t.Helper()
	rec := newRecorder()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := h.runner.Send(ctx, req, rec.sink)
	if err != nil {
		h.t.Fatalf("%+v: %v", req, err)
	}
	evs := rec.all()
	checkEvents(h.t, evs)
	return res, evs
}

// Regenerate answers the same question again without sending it twice; the earlier
// answer is kept as a version.
func TestAgainAnswersTheLastQuestionAnew(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{{Content: "One."}, {Content: "Two."}}})
	res, _ := h.send("", "Count")
	res2, _ := h.do(Request{SessionID: res.SessionID, Again: true})
	if res2.Status != event.StatusOK || res2.Final != "Two." {
		t.Fatalf("regenerated %+v", res2)
	}
	reqs := h.fake.ChatRequests()
	second := reqs[len(reqs)-1].Messages
	n := 0
	for _, m := range second {
		if m.Role == "user" {
			n++
		}
		if m.Role == "assistant" && m.Content == "One." {
			t.Error("the regenerated request still holds the first answer")
		}
	}
	if n != 1 || second[len(second)-1].Content != "Count" {
		t.Errorf("request messages %+v", second)
	}
	sess, _ := h.store.Load(res.SessionID)
	if len(sess.Entries) != 2 || sess.Entries[1].Content != "Two." || len(sess.Branches) != 1 || sess.Branches[0].Entries[0].Content != "One." {
		t.Errorf("session entries %+v branches %+v", sess.Entries, sess.Branches)
	}
}

// Edit-and-resend asks the edited question in place of the old one.
func TestEditReplacesAQuestion(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{{Content: "A1"}, {Content: "A2"}, {Content: "A2 edited"}}})
	res, _ := h.send("", "Q1")
	h.send(res.SessionID, "Q2")
	res3, _ := h.do(Request{SessionID: res.SessionID, Edit: 2, Text: "Q2 better"})
	if res3.Final != "A2 edited" {
		t.Fatalf("%+v", res3)
	}
	reqs := h.fake.ChatRequests()
	msgs := reqs[len(reqs)-1].Messages
	if lastUser(msgs) != "Q2 better" {
		t.Errorf("last request %+v", msgs)
	}
	for _, m := range msgs {
		if m.Content == "Q2" || m.Content == "A2" {
			t.Errorf("the replaced turn was sent: %+v", msgs)
		}
	}
	sess, _ := h.store.Load(res.SessionID)
	if got := len(sess.Entries); got != 4 || sess.Entries[2].Content != "Q2 better" || len(sess.Branches) != 1 || sess.Branches[0].At != 2 {
		t.Errorf("entries %+v branches %+v", sess.Entries, sess.Branches)
	}
	if _, err := h.runner.Start(context.Background(), Request{SessionID: res.SessionID, Edit: 9, Text: "x"}, nil); !errors.Is(err, ErrNothingToContinue) {
		t.Errorf("edit of a missing question: %v", err)
	}
}

// Continue after Stop sends the partial answer last, so the model goes on with it.
func TestResumeGoesOnWithAStoppedAnswer(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{Chunks: []string{"Once upon ", "a time"}, DelayMS: 50, Hang: true},
		{Chunks: []string{" there", " was a fox."}},
	}})
	rec := newRecorder()
	run, err := h.runner.Start(context.Background(), Request{SessionID: "s", Text: "A story"}, rec.sink)
	if err != nil {
		t.Fatal(err)
	}
	rec.waitText(t, "Once upon a time") // both chunks streamed; the reply hangs
	h.runner.Stop("s")
	if res := run.Wait(); res.Status != event.StatusCancelled {
		t.Fatalf("stopped run %+v", res)
	}
	res, _ := h.do(Request{SessionID: "s", Resume: true})
	if res.Status != event.StatusOK || res.Final != "there was a fox." {
		t.Fatalf("resumed %+v", res)
	}
	reqs := h.fake.ChatRequests()
	msgs := reqs[len(reqs)-1].Messages
	if last := msgs[len(msgs)-1]; last.Role != "assistant" || last.Content == "" {
		t.Errorf("the request does not end with the partial answer: %+v", msgs)
	}
	// Nothing stopped: nothing to continue.
	if _, err := h.runner.Start(context.Background(), Request{SessionID: "s", Resume: true}, nil); !errors.Is(err, ErrNothingToContinue) {
		t.Errorf("resume of a finished answer: %v", err)
	}
}
