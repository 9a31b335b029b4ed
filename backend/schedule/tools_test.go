package schedule

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"hearth/backend/tools"
)

type fakeJobs struct {
	store *Store
	now   time.Time
}

func (f *fakeJobs) AddJob(s JobSpec) (Job, error) { return f.store.Add(s, f.now) }
func (f *fakeJobs) ListJobs() ([]Job, error) {
	j, _, err := f.store.Load()
	return j, err
}
func (f *fakeJobs) RemoveJob(id string) error { return f.store.Remove(id) }

func TestCronTool(t *testing.T) {
	tokyo := mustLoc(t, "Asia/Tokyo")
	now := time.Date(2026, 11, 23, 16, 0, 0, 0, tokyo)
	jobs := &fakeJobs{store: NewStore(t.TempDir()), now: now}
	var posts []Post
	ts := Tools(jobs, func(_ context.Context, p Post) error { posts = append(posts, p); return nil }, func() time.Time { return now }, tokyo)
	cron, msg := ts[0], ts[1]
	run := func(tl tools.Tool, ctx context.Context, a map[string]any) tools.Result {
		t.Helper()
		raw, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		reg := tools.NewRegistry(tools.RegistryOptions{})
		if err := reg.Register(tl); err != nil {
			t.Fatal(err)
		}
		return reg.Call(ctx, tl.Name(), raw)
	}
	bg := context.Background()
	if r := run(cron, bg, map[string]any{"action": "list"}); r.Content != "No reminders." {
		t.Errorf("empty list: %q", r.Content)
	}
	for _, a := range []map[string]any{
		{"action": "add", "at": "in 5 minutes"},
		{"action": "add", "message": "x"},
		{"action": "add", "message": "x", "at": "in 5 minutes", "every_seconds": 60},
		{"action": "add", "message": "x", "at": "yesterday-ish"},
		{"action": "add", "message": "x", "cron_expr": "0 9 * * *", "tz": "Nowhere/Land"},
		{"action": "remove"},
		{"action": "frobnicate"},
	} {
		if r := run(cron, bg, a); !r.IsError {
			t.Errorf("%v: %q, want an error", a, r.Content)
		}
	}
	r := run(cron, bg, map[string]any{"action": "add", "name": "tea", "message": "tea is ready", "at": "in 5 minutes"})
	if r.IsError || !strings.Contains(r.Content, "once at Mon 23 Nov 2026 16:05 JST") || !strings.Contains(r.Content, "in 5 min") {
		t.Fatalf("add at: %q", r.Content)
	}
	r = run(cron, bg, map[string]any{"action": "add", "message": "standup", "cron_expr": "0 9 * * 1-5"})
	if r.IsError || !strings.Contains(r.Content, "on weekdays at 09:00 (Asia/Tokyo)") || !strings.Contains(r.Content, "Tue 24 Nov 2026 09:00 JST") {
		t.Fatalf("add cron in the user's zone: %q", r.Content)
	}
	list := run(cron, bg, map[string]any{"action": "list"}).Content
	if strings.Count(list, "\n") != 2 || !strings.Contains(list, `"tea"`) {
		t.Errorf("list:\n%s", list)
	}
	id := strings.Fields(list)[0]
	if r := run(cron, bg, map[string]any{"action": "remove", "id": id}); r.IsError {
		t.Errorf("remove: %q", r.Content)
	}
	if r := run(cron, bg, map[string]any{"action": "remove", "id": id}); !r.IsError || !strings.Contains(r.Content, "not found") {
		t.Errorf("remove twice: %q", r.Content)
	}

	ctx := tools.WithCall(bg, tools.CallInfo{RunID: "r1", SessionID: "cron:abc", Unattended: true, Channel: "cron"})
	if r := run(msg, ctx, map[string]any{"content": "Tea is ready"}); r.IsError {
		t.Fatalf("message: %q", r.Content)
	}
	if len(posts) != 1 || posts[0] != (Post{SessionID: "cron:abc", RunID: "r1", Content: "Tea is ready", Unattended: true, Channel: "cron"}) {
		t.Errorf("posts %+v", posts)
	}
	if r := run(msg, ctx, map[string]any{"content": "  "}); !r.IsError {
		t.Error("empty message accepted")
	}
	failing := Tools(jobs, func(context.Context, Post) error { return errors.New("bus down") }, nil, nil)[1]
	if r := run(failing, ctx, map[string]any{"content": "x"}); !r.IsError {
		t.Error("a failed delivery reported success")
	}
}

// A reminder made in a Telegram chat notifies in that chat.
func TestCronAddFromTelegramNotifiesThere(t *testing.T) {
	now := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	jobs := &fakeJobs{store: NewStore(t.TempDir()), now: now}
	reg := tools.NewRegistry(tools.RegistryOptions{})
	if err := reg.Register(Tools(jobs, nil, func() time.Time { return now }, time.UTC)[0]); err != nil {
		t.Fatal(err)
	}
	ctx := tools.WithCall(context.Background(), tools.CallInfo{SessionID: "telegram:42", Channel: "telegram"})
	if r := reg.Call(ctx, "cron", json.RawMessage(`{"action":"add","message":"water","at":"in 1 hour"}`)); r.IsError {
		t.Fatal(r.Content)
	}
	reg.Call(context.Background(), "cron", json.RawMessage(`{"action":"add","message":"desk","at":"in 1 hour"}`))
	got, _ := jobs.ListJobs()
	if len(got) != 2 || got[0].NotifyIn != NotifyTelegram || got[0].NotifyChat != "telegram:42" || got[1].NotifyIn != "" || got[1].NotifyChat != "" {
		t.Fatalf("jobs %+v", got)
	}
}
