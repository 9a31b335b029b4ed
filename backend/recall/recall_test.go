package recall

import (
	"context"
	"strings"
	"testing"

	"hearth/backend/tools"
)

func TestRecallBlock(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, HistoryFile, history("Repotted the fig tree into a terracotta pot.", "Renewed the car insurance with Allianz."))
	fe := &fakeEmbed{}
	x := NewIndex(IndexOptions{Workspace: ws, Embed: fe.embed, Model: "m"})
	const q = "when did I repot the fig tree?"
	r := &Recaller{Index: x, Block: BlockOptions{Enabled: true, MinScore: 0.35, MaxChars: 1500}}
	got := r.For(context.Background(), "s1", q)
	if !strings.HasPrefix(got, BlockHeader+"\n- (memory/HISTORY.md, 2026-01-01 10:00) Repotted the fig tree") ||
		!strings.HasSuffix(got, BlockFooter) {
		t.Errorf("block:\n%s", got)
	}
	if strings.Contains(got, "Allianz") {
		t.Errorf("unrelated entry above the threshold:\n%s", got)
	}
	calls := fe.calls.Load()
	r.For(context.Background(), "s1", q) // the next model call of the same turn
	if fe.calls.Load() != calls {
		t.Error("searched again within one turn")
	}
	for name, r := range map[string]*Recaller{
		"off":        {Index: x, Block: BlockOptions{Enabled: false, MinScore: 0.35, MaxChars: 1500}},
		"threshold":  {Index: x, Block: BlockOptions{Enabled: true, MinScore: 0.99, MaxChars: 1500}},
		"size limit": {Index: x, Block: BlockOptions{Enabled: true, MinScore: 0.1, MaxChars: 60}},
		"command":    {Index: x, Block: BlockOptions{Enabled: true, MinScore: 0.1, MaxChars: 1500}},
	} {
		text := q
		if name == "command" {
			text = "/remember the fig tree"
		}
		if got := r.For(context.Background(), "s1", text); got != "" {
			t.Errorf("%s: %q", name, got)
		}
	}
}

func TestSearchTool(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, HistoryFile, history("Met Ana at the climbing gym."))
	x := NewIndex(IndexOptions{Workspace: ws})
	reg := tools.NewRegistry(tools.RegistryOptions{})
	if err := reg.Register(SearchTool(x, ToolOptions{})); err != nil {
		t.Fatal(err)
	}
	res := reg.Call(context.Background(), "memory_search", []byte(`{"query":"climbing gym","k":"3"}`))
	want := "(keyword search: no embedding model is set (agents.defaults.embeddingModel))\n1. memory/HISTORY.md [2026-01-01 10:00] score 1.00 keyword\n   [2026-01-01 10:00] Met Ana at the climbing gym."
	if res.Content != want {
		t.Errorf("memory_search:\n%s\nwant:\n%s", res.Content, want)
	}
	res = reg.Call(context.Background(), "memory_search", []byte(`{"query":"  "}`))
	if !res.IsError {
		t.Errorf("empty query: %+v", res)
	}
}
