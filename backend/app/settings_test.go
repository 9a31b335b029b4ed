package app

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"hearth/backend/agent"
	"hearth/backend/chat"
	"hearth/backend/config"
	"hearth/backend/internal/fakeollama"
)

// A save during a reply does not touch the running turn (Stop still reaches it); the
// next turn uses the new settings, and no part of the service is rebuilt for them.
func TestSaveSettingsWhileARunIsGoing(t *testing.T) {
	svc, fake := chatService(t, "", fakeollama.Reply{Content: "x", Hang: true}, fakeollama.Reply{Content: "after"})
	var e emitted
	d := newDesk(svc, e.emit)
	if _, err := d.Send(chat.Input{SessionID: "busy", Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return len(fake.ChatRequests()) == 1 }, "the reply to start")
	s := svc.Settings.Settings()
	s.MaxTokens = 321
	res, err := svc.SaveSettings(s)
	if err != nil || !res.Saved || res.Notice == "" {
		t.Fatalf("save during a run: %+v %v", res, err)
	}
	if !svc.Chat.Stop("busy") {
		t.Error("Stop found no run")
	}
	waitFor(t, func() bool { return svc.Chat.InUse("busy") == nil }, "the run to stop")
	run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "busy", Text: "again"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	run.Wait()
	reqs := fake.ChatRequests()
	if n := len(reqs); n < 2 || reqs[n-1].Options["num_predict"] != float64(321) {
		t.Errorf("the next turn did not use the saved maxTokens: %+v", reqs[len(reqs)-1].Options)
	}
	s.MaxTokens = 400
	if res, err := svc.SaveSettings(s); err != nil || res.Notice != "" {
		t.Fatalf("idle save: %+v %v", res, err)
	}
}

func TestSaveSettingsKeysAndBrokenFile(t *testing.T) {
	keyring.MockInitWithError(errors.New("no keyring: the key stays in config.json")) // another test may have set up the mock
	svc, _ := chatService(t, `{"providers": {"openai": {"apiKey": "sk-old"}}}`)
	s := svc.Settings.Settings()
	if !s.OpenAI.KeySet || s.OpenAI.APIKey != "" {
		t.Fatalf("openai %+v", s.OpenAI)
	}
	s.OpenAI.ClearKey = true
	if res, err := svc.SaveSettings(s); err != nil || !res.Saved {
		t.Fatalf("%+v %v", res, err)
	}
	if svc.Settings.Config().Providers.OpenAI.APIKey != "" {
		t.Error("key not cleared")
	}
	s = svc.Settings.Settings()
	s.OpenAI.APIKey = "sk-new"
	if _, err := svc.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(svc.Settings.Paths().ConfigFile)
	if !strings.Contains(string(b), `"sk-new"`) || strings.Contains(string(b), "sk-old") {
		t.Errorf("config.json:\n%s", b)
	}

	// A config.json broken by hand is never overwritten from the window.
	broken := []byte(`{"agents": {`)
	if err := os.WriteFile(svc.Settings.Paths().ConfigFile, broken, 0o600); err != nil {
		t.Fatal(err)
	}
	s = svc.Settings.Settings()
	s.Temperature = 0.9
	if _, err := svc.SaveSettings(s); err == nil || !errors.Is(err, config.ErrBrokenFile) {
		t.Errorf("save over a broken file: %v", err)
	}
	if b, _ := os.ReadFile(svc.Settings.Paths().ConfigFile); string(b) != string(broken) {
		t.Error("broken config.json was changed")
	}
}
