package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrg/xdg"

	"hearth/backend/internal/fakeollama"
)

func writeConfig(t *testing.T, cfg string) {
	t.Helper()
	p := filepath.Join(xdg.ConfigHome, "hearth", "config.json")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
}

func workspaceFile(t *testing.T, rel, content string) string {
	t.Helper()
	p := filepath.Join(xdg.DataHome, "hearth", "workspace", filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestMemorySearchAndReindex(t *testing.T) {
	startChat(t) // no embedding model installed: keyword search, saying why
	workspaceFile(t, "memory/HISTORY.md", "[2026-04-02 09:15] Renewed the passport at the town hall.\n\n[2026-04-03 18:00] Bought running shoes.\n")
	code, out, errOut := runIn(t, "", "memory", "search", "passport", "renewal")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "(keyword search: the embedding model is unavailable") ||
		!strings.Contains(out, "1. memory/HISTORY.md [2026-04-02 09:15] score") ||
		!strings.Contains(out, "Renewed the passport at the town hall.") || strings.Contains(out, "running shoes") {
		t.Errorf("search output:\n%s", out)
	}
	code, out, _ = runIn(t, "", "memory", "search", "--json", "-k", "1", "shoes")
	var res struct {
		Hits []struct{ Source, Date, Mode string }
		Mode string
	}
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil || len(res.Hits) != 1 || res.Hits[0].Date != "2026-04-03 18:00" || res.Mode != "keyword" {
		t.Errorf("json: exit %d %v %s", code, err, out)
	}
	// Sources: HISTORY.md, MEMORY.md (the template: no chunk) and the chat.
	code, out, _ = runIn(t, "", "memory", "reindex")
	if code != 0 || !strings.HasPrefix(out, "Indexed 2 chunks from 3 sources") || !strings.Contains(out, "Embeddings failed, keyword search only") {
		t.Errorf("reindex: exit %d %q", code, out)
	}
	if code, _, _ := runIn(t, "", "memory", "search"); code != ExitUsage {
		t.Errorf("search without a query: exit %d", code)
	}
}

// Item 6: a one-shot run whose session is due a consolidation finishes it
// after the answer and says so; the model is asked once, after the chat.
func TestAgentOnceFinishesConsolidation(t *testing.T) {
	args, _ := json.Marshal(map[string]string{"history_entry": "Talked about the garden.", "memory_update": "- Has a garden.\n"})
	fake := startChat(t, fakeollama.Reply{Content: "First answer."}, fakeollama.Reply{Content: "Second answer."},
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "save_memory", Arguments: args}}})
	writeConfig(t, `{"agents":{"defaults":{"memoryWindow":2,"embeddingModel":""}}}`)
	if code, _, errOut := runIn(t, "", "agent", "-s", "g", "-m", "my garden"); code != 0 || strings.Contains(errOut, "memory") {
		t.Fatalf("first run: %d %q", code, errOut)
	}
	code, out, errOut := runIn(t, "", "agent", "-s", "g", "-m", "and the roses?")
	if code != 0 || out != "Second answer.\n" {
		t.Fatalf("exit %d out %q err %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "(saving older messages of this chat to memory") || !strings.Contains(errOut, "(memory updated)") {
		t.Errorf("stderr %q", errOut)
	}
	reqs := fake.ChatRequests()
	if len(reqs) != 3 || len(reqs[2].Tools) != 1 {
		t.Fatalf("%d chat requests", len(reqs))
	}
	ws := filepath.Join(xdg.DataHome, "hearth", "workspace")
	if b, _ := os.ReadFile(filepath.Join(ws, "memory", "HISTORY.md")); !strings.Contains(string(b), "] Talked about the garden.") {
		t.Errorf("HISTORY.md %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "memory", "MEMORY.md")); string(b) != "- Has a garden.\n" {
		t.Errorf("MEMORY.md %q", b)
	}
}

func TestRememberSlashCommand(t *testing.T) {
	fake := startChat(t)
	code, out, _ := runIn(t, "", "agent", "-m", "/remember the spare key is under the blue pot")
	if code != 0 || !strings.Contains(out, "Saved to memory/MEMORY.md.") {
		t.Fatalf("exit %d out %q", code, out)
	}
	b, _ := os.ReadFile(filepath.Join(xdg.DataHome, "hearth", "workspace", "memory", "MEMORY.md"))
	if !strings.HasSuffix(string(b), "\n- the spare key is under the blue pot\n") {
		t.Errorf("MEMORY.md %q", b)
	}
	if len(fake.ChatRequests()) != 0 {
		t.Error("/remember reached the model")
	}
}

// chatOnly leaves out the requests of memory consolidations.
func chatOnly(reqs []fakeollama.ChatRequest) []fakeollama.ChatRequest {
	var out []fakeollama.ChatRequest
	for _, r := range reqs {
		if len(r.Messages) > 0 && strings.Contains(r.Messages[0].Content, "memory keeper") {
			continue
		}
		out = append(out, r)
	}
	return out
}
