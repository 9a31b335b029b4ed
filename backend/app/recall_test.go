package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"hearth/backend/agent"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/models"
	"hearth/backend/recall"
)

// The default embedding model not installed: the first turn finds that out
// (one /api/embed), later turns do not ask again, status says recall is
// keyword-only; after a pull from Hearth the next turn embeds again.
func TestEmbeddingModelCheckedOnceAndAfterPull(t *testing.T) {
	svc, fake := chatService(t, "")
	if err := os.WriteFile(filepath.Join(svc.Settings.Paths().Workspace, "memory", "HISTORY.md"),
		[]byte("# History\n\n[2026-03-01 10:00] Planned the garden: tomatoes by the fence.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	embeds := func() int {
		n := 0
		for _, r := range fake.Requests() {
			if r.Path == "/api/embed" {
				n++
			}
		}
		return n
	}
	send := func(text string) {
		t.Helper()
		run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "garden", Text: text}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res := run.Wait(); res.Status != event.StatusOK {
			t.Fatalf("%q: %+v", text, res)
		}
	}
	if st := svc.Status(context.Background()); st.Recall != models.RecallKeyword || st.RecallNote == "" {
		t.Errorf("status before: %q %q", st.Recall, st.RecallNote)
	}
	send("What did I plan for the garden?")
	if n := embeds(); n != 1 {
		t.Fatalf("first turn: %d embed calls, want 1 (the check)", n)
	}
	// Installed outside Hearth: noticed later (memory's absentRetry), not
	// by asking on every turn.
	fake.SetModels(fakeollama.DefaultModel(), fakeollama.EmbedModel())
	send("And the tomatoes?")
	send("Anything else about the garden?")
	if n := embeds(); n != 1 {
		t.Fatalf("later turns asked the missing model again: %d embed calls", n)
	}
	if st := svc.Status(context.Background()); st.Recall != models.RecallHybrid {
		t.Errorf("status once installed: %q %q", st.Recall, st.RecallNote)
	}
	// A pull from Hearth re-checks at once.
	if err := svc.Models.Pull(context.Background(), "nomic-embed-text", nil); err != nil {
		t.Fatal(err)
	}
	send("What about the fence?")
	if n := embeds(); n < 2 {
		t.Fatalf("after the pull the next turn did not embed: %d embed calls", n)
	}
	res, err := svc.Memory.Search(context.Background(), "tomatoes by the fence", 1)
	if err != nil || res.Mode != recall.ModeHybrid {
		t.Errorf("recall after the pull: %+v %v", res, err)
	}
}
