package core

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"hearth/backend/config"
	"hearth/backend/internal/fakeollama"
)

func TestSaveSettingsWhileARunIsGoing(t *testing.T) {
	svc, _ := chatService(t, "", fakeollama.Reply{Content: "x", Hang: true})
	var e emitted
	d := NewDesktop(svc, e.emit)
	if _, err := d.Send(ChatInput{SessionID: "busy", Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		p, _ := svc.agent()
		if _, busy := p.runner.Busy("busy"); busy {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("run never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	before, _ := svc.agent()
	s := svc.Settings()
	s.MaxToolIterations = 7
	res, err := svc.SaveSettings(s)
	if err != nil || !res.Saved || res.Notice == "" {
		t.Fatalf("save during a run: %+v %v", res, err)
	}
	if after, _ := svc.agent(); after != before {
		t.Error("the running agent was replaced: Stop could not reach its run")
	}
	if !svc.Stop("busy") {
		t.Error("Stop found no run")
	}
	// Once idle, the next save rebuilds the agent with the new settings.
	for deadline := time.Now().Add(5 * time.Second); ; {
		p, _ := svc.agent()
		if _, busy := p.runner.Busy("busy"); !busy {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("run did not stop")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The save made during the reply applies now, without another save.
	rebuilt, _ := svc.agent()
	if rebuilt == before {
		t.Error("settings saved during the reply were not applied once it ended")
	}
	idle := svc.Settings()
	idle.MaxToolIterations = 8
	if res, err := svc.SaveSettings(idle); err != nil || res.Notice != "" {
		t.Fatalf("idle save: %+v %v", res, err)
	}
	if after, _ := svc.agent(); after == rebuilt {
		t.Error("agent not rebuilt after an idle save")
	}
}

func TestSaveSettingsKeysAndBrokenFile(t *testing.T) {
	keyring.MockInitWithError(errors.New("no keyring: the key stays in config.json")) // another test may have set up the mock
	svc, _ := chatService(t, `{"providers": {"openai": {"apiKey": "sk-old"}}}`)
	s := svc.Settings()
	if !s.OpenAI.KeySet || s.OpenAI.APIKey != "" {
		t.Fatalf("openai %+v", s.OpenAI)
	}
	s.OpenAI.ClearKey = true
	if res, err := svc.SaveSettings(s); err != nil || !res.Saved {
		t.Fatalf("%+v %v", res, err)
	}
	if svc.Config().Providers.OpenAI.APIKey != "" {
		t.Error("key not cleared")
	}
	s = svc.Settings()
	s.OpenAI.APIKey = "sk-new"
	if _, err := svc.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(svc.Paths().ConfigFile)
	if !strings.Contains(string(b), `"sk-new"`) || strings.Contains(string(b), "sk-old") {
		t.Errorf("config.json:\n%s", b)
	}

	// A config.json broken by hand is never overwritten from the window.
	broken := []byte(`{"agents": {`)
	if err := os.WriteFile(svc.Paths().ConfigFile, broken, 0o600); err != nil {
		t.Fatal(err)
	}
	s = svc.Settings()
	s.Temperature = 0.9
	if _, err := svc.SaveSettings(s); err == nil || !config.IsBroken(err) {
		t.Errorf("save over a broken file: %v", err)
	}
	if b, _ := os.ReadFile(svc.Paths().ConfigFile); string(b) != string(broken) {
		t.Error("broken config.json was changed")
	}
}
