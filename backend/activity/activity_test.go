package activity

import (
	"testing"
	"time"
)

func TestBoardBeginEnd(t *testing.T) {
	changes := 0
	b := New(func() { changes++ })
	at := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	b.Begin(Work{Kind: Chat, ID: "s1", Title: "Plan the week", Started: at})
	b.Begin(Work{Kind: Reminder, ID: "cron:ab12", Title: "Tea", Started: at.Add(time.Minute)})
	b.Begin(Work{Kind: Chat, ID: "s1", Title: "Plan the week (continued)", Started: at.Add(2 * time.Minute)})
	got := b.List()
	if len(got) != 2 || got[0].ID != "cron:ab12" || got[1].Title != "Plan the week (continued)" {
		t.Fatalf("list %+v", got)
	}
	b.End("nobody")
	if changes != 3 {
		t.Errorf("an unknown id told a change: %d changes", changes)
	}
	b.End("s1")
	if got := b.List(); len(got) != 1 || got[0].Kind != Reminder || changes != 4 {
		t.Errorf("after End: %+v, %d changes", got, changes)
	}
	got = b.List()
	got[0].Title = "changed by the caller"
	if b.List()[0].Title != "Tea" {
		t.Error("List shares its slice with the board")
	}
}
