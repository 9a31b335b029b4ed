package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hearth/backend/agent"
	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
)

// Issue 19: a command can point MEMORY.md at config.json, or swap memory/
// for a symlink to a folder outside. Neither file's content may reach the
// model; the chat goes on and says what was left out.
func TestPromptNeverReadsOutsideTheWorkspace(t *testing.T) {
	const marker = "HEARTH_MARKER_7F3C9"
	for _, how := range []string{"MEMORY.md symlink", "MEMORY.md hard link", "memory folder symlink"} {
		t.Run(how, func(t *testing.T) {
			svc, fake := chatService(t, `{"tools":{"exec":{"allowedEnvKeys":["`+marker+`"]}}}`, fakeollama.Reply{Content: "Hello!"})
			ws := svc.Settings.Paths().Workspace
			cfg := config.DefaultConfigFile()
			mem := filepath.Join(ws, "memory", "MEMORY.md")
			_ = os.Remove(mem)
			var err error
			switch how {
			case "MEMORY.md symlink":
				err = os.Symlink(cfg, mem)
			case "MEMORY.md hard link":
				err = os.Link(cfg, mem)
			default:
				outside := t.TempDir()
				err = os.WriteFile(filepath.Join(outside, "MEMORY.md"), []byte("outside "+marker), 0o600)
				if err == nil {
					err = os.RemoveAll(filepath.Join(ws, "memory"))
				}
				if err == nil {
					err = os.Symlink(outside, filepath.Join(ws, "memory"))
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			var ev events
			run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "s", Text: "hello"}, ev.sink)
			if err != nil {
				t.Fatal(err)
			}
			if res := run.Wait(); res.Status != event.StatusOK {
				t.Fatalf("run: %+v", res)
			}
			for _, m := range fake.ChatRequests()[0].Messages {
				if strings.Contains(m.Content, marker) {
					t.Fatalf("the model was sent outside content:\n%s", m.Content)
				}
			}
			said := false
			for _, e := range ev.evs {
				if n, ok := e.Data.(event.NoticeData); ok && strings.Contains(n.Message, "MEMORY.md") {
					said = true
				}
			}
			if !said {
				t.Errorf("no notice says MEMORY.md was left out: %+v", ev.evs)
			}
		})
	}
}
