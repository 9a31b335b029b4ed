package app

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hearth/backend/chat"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/sandbox"
)

// Through the composition root: a folder added is searched by the recall block of a
// turn while its mode is "always", only by memory_search once it is "ask" (the saved
// mode reaches memory's block through the settings' followers), and the chat's file
// tools read it but refuse to write there.
func TestKnowledgeFolderThroughTheApp(t *testing.T) {
	a := started(t, Options{})
	dir := filepath.Join(t.TempDir(), "Manuals")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "kiln.md"), []byte("The kiln's firing schedule: bisque at 1000 degrees, glaze at 1240 degrees.\n"), 0o644)
	ctx := context.Background()
	if _, err := a.Knowledge.Add(ctx, dir, "always"); err != nil {
		t.Fatal(err)
	}
	if a.Knowledge.Watching() {
		t.Error("started without WatchMemory, yet watching")
	}
	q := "what is the kiln firing schedule for glaze?"
	if b := a.Memory.Recall(ctx, "s1", q, 2000); !strings.Contains(b, "Manuals/kiln.md line 1") || !strings.Contains(b, "1240") {
		t.Errorf("the block of an always folder: %q", b)
	}
	if err := a.Knowledge.SetMode(dir, "ask"); err != nil {
		t.Fatal(err)
	}
	if b := a.Memory.Recall(ctx, "s2", q, 2000); strings.Contains(b, "1240") {
		t.Errorf("the block of an ask folder: %q", b)
	}
	if res, err := a.Memory.Search(ctx, "kiln glaze", 3); err != nil || len(res.Hits) == 0 || !strings.Contains(res.Hits[0].Snippet, "1240") {
		t.Errorf("search of an ask folder: %+v %v", res, err)
	}
	reg := a.Chat.Registries()[0]
	if r := reg.Call(ctx, "read_file", []byte(`{"path":"`+filepath.Join(dir, "kiln.md")+`"}`)); r.IsError || !strings.Contains(r.Content, "1240") {
		t.Errorf("read_file: %s", r.Content)
	}
	if r := reg.Call(ctx, "write_file", []byte(`{"path":"`+filepath.Join(dir, "kiln.md")+`","content":"gone"}`)); !r.IsError || !strings.Contains(r.Content, "Settings › Knowledge") {
		t.Errorf("write_file: %s", r.Content)
	}
	// Commands and sandboxed MCP servers get the folder as read-only, not writable.
	exec, _ := reg.Get("exec")
	for who, p := range map[string]sandbox.Policy{"exec": exec.(interface{ SandboxPolicy() sandbox.Policy }).SandboxPolicy(), "mcp": a.Settings.SandboxPolicy()} {
		real, _ := filepath.EvalSymlinks(dir)
		if !slices.Contains(p.ReadOnly, real) && !slices.Contains(p.ReadOnly, dir) || slices.Contains(p.Writable, real) || slices.Contains(p.Writable, dir) {
			t.Errorf("%s's sandbox policy: read-only %v, writable %v", who, p.ReadOnly, p.Writable)
		}
	}
	// Allowed to change the folder (Settings › Knowledge), the tools and commands may.
	if err := a.Knowledge.SetWritable(dir, true); err != nil {
		t.Fatal(err)
	}
	reg = a.Chat.Registries()[0]
	if r := reg.Call(ctx, "write_file", []byte(`{"path":"`+filepath.Join(dir, "kiln.md")+`","content":"cone 6"}`)); r.IsError {
		t.Errorf("write_file in a writable knowledge folder: %s", r.Content)
	}
	exec, _ = reg.Get("exec")
	p := exec.(interface{ SandboxPolicy() sandbox.Policy }).SandboxPolicy()
	if len(p.ReadOnly) != 0 || !slices.ContainsFunc(p.Writable, func(w string) bool { return w == dir || strings.HasSuffix(w, "/Manuals") }) {
		t.Errorf("exec's sandbox policy of a writable folder: read-only %v, writable %v", p.ReadOnly, p.Writable)
	}
}

// A knowledge passage reaches the model titled in the form the window cites and
// opens ("[Manuals/kiln.md line 1]"), in the recall block of the turn.
func TestKnowledgePassageReachesTheModelCitable(t *testing.T) {
	a, fake := chatService(t, `{"agents":{"defaults":{"model":"ollama/small:1b"}}}`,
		fakeollama.Reply{Content: "Glaze at 1240 degrees [Manuals/kiln.md line 1]."})
	dir := filepath.Join(t.TempDir(), "Manuals")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "kiln.md"), []byte("The kiln's firing schedule: bisque at 1000 degrees, glaze at 1240 degrees.\n"), 0o644)
	if _, err := a.Knowledge.Add(context.Background(), dir, "always"); err != nil {
		t.Fatal(err)
	}
	sendAndWait(t, a, chat.Input{SessionID: "kiln-chat", Text: "what is the kiln firing schedule for glaze?"})
	reqs := fake.ChatRequests()
	if len(reqs) == 0 {
		t.Fatal("no request reached the model")
	}
	if user := reqs[0].Messages[len(reqs[0].Messages)-1].Content; !strings.Contains(user, "cite as [Manuals/kiln.md line 1]") || !strings.Contains(user, "1240") {
		t.Errorf("the turn's message to the model: %.600q", user)
	}
}
