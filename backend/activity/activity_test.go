package activity

import (
	"testing"
	"time"
)

func TestBoardBeginEnd(t *testing.T) {
	changes := 0
	b := New(func() { changes++ })
	at := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	b.Begin(Work{Kind: Chat, ID: "s1", Run: "r1", Title: "Plan the week", Started: at})
	b.Begin(Work{Kind: Reminder, ID: "cron:ab12", Run: "r2", Title: "Tea", Started: at.Add(time.Minute)})
	// Continue resumes a run under its own id: it replaces, not adds.
	b.Begin(Work{Kind: Chat, ID: "s1", Run: "r1", Title: "Plan the week (continued)", Started: at.Add(2 * time.Minute)})
	got := b.List()
	if len(got) != 2 || got[0].ID != "cron:ab12" || got[1].Title != "Plan the week (continued)" {
		t.Fatalf("list %+v", got)
	}
	// A slash command answered in the same chat is a run of its own: its end leaves the reply.
	b.Begin(Work{Kind: Chat, ID: "s1", Run: "r3", Title: "Plan the week"})
	b.End("r3")
	b.End("nobody")
	if got := b.List(); len(got) != 2 || changes != 5 {
		t.Errorf("after a slash command and an unknown end: %+v, %d changes", got, changes)
	}
	b.End("r1")
	if got := b.List(); len(got) != 1 || got[0].Kind != Reminder || changes != 6 {
		t.Errorf("after End: %+v, %d changes", got, changes)
	}
	got = b.List()
	got[0].Title = "changed by the caller"
	if b.List()[0].Title != "Tea" {
		t.Error("List shares its slice with the board")
	}
}

// The messages sent to a chat while it runs are counted on its line until a run takes
// them, they are removed or held; the run's end forgets them.
func TestBoardCountsWaitingMessages(t *testing.T) {
	changes := 0
	b := New(func() { changes++ })
	b.Begin(Work{Kind: Chat, ID: "s1", Run: "r1", Title: "Plan the week"})
	b.Wait("r1", "p1", true)
	b.Wait("r1", "p2", true)
	b.Wait("r1", "p1", true) // edited or switched: the same message
	b.Wait("r9", "p3", true) // no such run: nothing to count it on
	if got := b.List(); len(got) != 1 || got[0].Waiting != 2 || changes != 3 {
		t.Fatalf("two waiting: %+v, %d changes", got, changes)
	}
	b.Wait("r1", "p1", false)
	b.Wait("r1", "p1", false) // told twice (taken, then dropped by the window)
	if got := b.List(); got[0].Waiting != 1 || changes != 4 {
		t.Fatalf("one taken: %+v, %d changes", got, changes)
	}
	b.End("r1")
	b.Begin(Work{Kind: Chat, ID: "s1", Run: "r1"}) // a Continue under the same id starts counting anew
	if got := b.List(); got[0].Waiting != 0 {
		t.Errorf("after the end: %+v", got)
	}
}
