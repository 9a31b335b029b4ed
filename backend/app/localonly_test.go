package app

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"hearth/backend/agent"
	"hearth/backend/egress"
	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/internal/fakeollama"
)

// In local-only mode a chat with the local Ollama works, a cloud provider is
// refused before anything is dialled with the error code local_only and a hint,
// the web tools are not offered, exec gets no network, MCP over HTTP is refused,
// and the egress log lists each connection with its purpose.
func TestLocalOnlyMode(t *testing.T) {
	// The "cloud" is given by a name that is not loopback (it would never
	// resolve: the guard refuses before any lookup).
	cfg := `{"localOnly": true,
	  "providers": {"openai": {"apiBase": "https://api.cloud.invalid/v1", "apiKey": "sk-local-only-test-000000"}},
	  "tools": {"exec": {"network": true}, "mcpServers": {"remote": {"url": "https://mcp.cloud.invalid/mcp"}}}}`
	svc, fake, _ := hitlService(t, cfg, nil, fakeollama.Reply{Content: "Hello from the local model."})
	if !svc.Status(context.Background()).LocalOnly {
		t.Error("status does not say local-only")
	}
	var ev events
	run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "local", Text: "hi"}, ev.sink)
	if err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Status != event.StatusOK {
		t.Fatalf("local chat: %+v", res)
	}
	tools := fake.ChatRequests()[0].Tools
	b, _ := json.Marshal(tools)
	if strings.Contains(string(b), "web_fetch") || strings.Contains(string(b), "web_search") {
		t.Error("web tools offered in local-only mode")
	}
	exec, _ := svc.Chat.Registries()[0].Get("exec")
	if note := exec.(interface{ SandboxNote() i18n.Message }).SandboxNote(); note.Code == "gate.sandbox.onNetwork" {
		t.Errorf("exec note %q", note)
	}
	if svc.Settings.SandboxPolicy().Network {
		t.Error("sandboxed MCP servers get the network")
	}

	ev = events{}
	run, err = svc.Chat.Start(context.Background(), agent.Request{SessionID: "cloud", Text: "hi", Model: "openai/gpt-test"}, ev.sink)
	if err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Status != event.StatusError {
		t.Fatalf("cloud chat: %+v", res)
	}
	var errs []event.ErrorData
	for _, e := range ev.evs {
		if d, ok := e.Data.(event.ErrorData); ok {
			errs = append(errs, d)
		}
	}
	if len(errs) != 1 || errs[0].Code != egress.Code || !strings.Contains(errs[0].Message, "local-only") || errs[0].Hint == "" {
		t.Errorf("errors %+v", errs)
	}
	svc.Reach.WaitReady(context.Background(), func(string, i18n.Message) {})
	var purposes []string
	for _, e := range svc.Egress.Recent(0) {
		purposes = append(purposes, e.Purpose+" "+e.Host+map[bool]string{true: " refused", false: ""}[e.Refused])
	}
	got := strings.Join(purposes, "\n")
	for _, want := range []string{"model provider openai api.cloud.invalid:443 refused", "MCP server mcp.cloud.invalid:443 refused", "model provider ollama 127.0.0.1:"} {
		if !strings.Contains(got, want) {
			t.Errorf("egress log lacks %q:\n%s", want, got)
		}
	}
}
