package app

import (
	"context"
	"testing"

	"hearth/backend/agent"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
)

// maxFirstRequestTokens is SPEC F-PROMPTSIZE, a standing target for every change.
const maxFirstRequestTokens = 2000

// TestFirstRequestSize is F-PROMPTSIZE measured on the wire: the first request Ollama
// receives for "hello" on a fresh install — the default workspace files and every tool
// the default config offers — is at most 2 000 tokens counted as chars/4 over the
// message contents and the tool definitions' JSON. New tools and template text must
// fit in this budget.
func TestFirstRequestSize(t *testing.T) {
	svc, fake := chatService(t, "", fakeollama.Reply{Content: "Hello!"})
	run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "size", Text: "hello"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Status != event.StatusOK {
		t.Fatalf("run: %+v", res)
	}
	reqs := fake.ChatRequests()
	if len(reqs) == 0 {
		t.Fatal("no chat request reached the fake Ollama")
	}
	req := reqs[0]
	var msgChars, toolChars int
	for _, m := range req.Messages {
		msgChars += len([]rune(m.Content))
	}
	for _, tl := range req.Tools {
		toolChars += len([]rune(string(tl)))
	}
	tokens := (msgChars + toolChars) / 4
	t.Logf("F-PROMPTSIZE: first request %d tokens (chars/4) = messages %d chars + %d tools %d chars",
		tokens, msgChars, len(req.Tools), toolChars)
	if len(req.Tools) == 0 {
		t.Fatal("the first request offered no tools; the measure would be meaningless")
	}
	if tokens > maxFirstRequestTokens {
		t.Fatalf("first request for \"hello\" is %d tokens, over F-PROMPTSIZE's %d", tokens, maxFirstRequestTokens)
	}
}
