package session

import (
	"fmt"
	"os"
	"sync"
	"testing"
)

// appendRun writes one finished run: the user's message, the answer and the run line.
func appendRun(t testing.TB, s *Store, id string, n int) {
	t.Helper()
	run := fmt.Sprintf("r%d", n)
	mustAppend(t, s, id,
		MessageRecord(run, user(fmt.Sprintf("tick %d", n))),
		MessageRecord(run, assistant(fmt.Sprintf("answer %d", n))),
		RunRecord(Run{ID: run, Status: StatusOK, Final: fmt.Sprintf("answer %d", n)}))
}

func TestKeepRecentTrimsOldRunsAndKeepsMeta(t *testing.T) {
	s, _ := newTestStore(t)
	mustCreate(t, s, CreateOptions{ID: "heartbeat", Title: "Heartbeat", Model: "ollama/a"})
	for i := range 6 {
		appendRun(t, s, "heartbeat", i)
	}
	if err := s.MarkConsolidated("heartbeat", 9); err != nil {
		t.Fatal(err)
	}
	if err := s.SetModel("heartbeat", "ollama/b"); err != nil {
		t.Fatal(err)
	}

	// Six runs are not more than twice three: nothing is rewritten.
	p, _ := s.Path("heartbeat")
	before, _ := os.ReadFile(p)
	if n, err := s.KeepRecent("heartbeat", 3); err != nil || n != 0 {
		t.Fatalf("KeepRecent = %d, %v; want 0 dropped", n, err)
	}
	if after, _ := os.ReadFile(p); string(after) != string(before) {
		t.Fatal("file rewritten below the threshold")
	}

	appendRun(t, s, "heartbeat", 6)
	// A run still going (no run line yet) stays whole.
	mustAppend(t, s, "heartbeat", MessageRecord("r7", user("tick 7")))
	n, err := s.KeepRecent("heartbeat", 3)
	if err != nil || n != 8 {
		t.Fatalf("KeepRecent = %d, %v; want 8 messages dropped (runs 0-3)", n, err)
	}
	sess := mustLoad(t, s, "heartbeat")
	if len(sess.Warnings) != 0 {
		t.Errorf("warnings after trim: %v", sess.Warnings)
	}
	if len(sess.Runs) != 3 || sess.Runs[0].ID != "r4" || sess.Runs[2].ID != "r6" {
		t.Errorf("runs kept: %+v", sess.Runs)
	}
	if len(sess.Entries) != 7 || sess.Entries[0].Content != "tick 4" || sess.Entries[6].Content != "tick 7" {
		t.Errorf("entries kept: %d, first %q", len(sess.Entries), sess.Entries[0].Content)
	}
	if len(sess.Interrupted) != 1 || sess.Interrupted[0].RunID != "r7" {
		t.Errorf("the unfinished run was lost: %+v", sess.Interrupted)
	}
	m := sess.Meta
	if m.Title != "Heartbeat" || m.Model != "ollama/b" || m.LastConsolidated != 1 {
		t.Errorf("meta after trim: %+v (want title kept, model b, consolidated 9-8=1)", m)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != fileMode {
		t.Errorf("mode %v after trim", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(s.Dir())
	if len(entries) != 1 {
		t.Errorf("files left beside the session: %v", entries)
	}
	// Appends go on in the new file.
	mustAppend(t, s, "heartbeat", MessageRecord("r7", assistant("answer 7")),
		RunRecord(Run{ID: "r7", Status: StatusOK}))
	if got := mustLoad(t, s, "heartbeat"); len(got.Runs) != 4 || got.Interrupted != nil {
		t.Errorf("after append: %d runs, interrupted %v", len(got.Runs), got.Interrupted)
	}
}

func TestKeepRecentConsolidationMarkNeverBelowNone(t *testing.T) {
	s, _ := newTestStore(t)
	mustCreate(t, s, CreateOptions{ID: "heartbeat"})
	for i := range 5 {
		appendRun(t, s, "heartbeat", i)
	}
	if err := s.MarkConsolidated("heartbeat", 1); err != nil {
		t.Fatal(err)
	}
	if n, err := s.KeepRecent("heartbeat", 2); err != nil || n != 6 {
		t.Fatalf("KeepRecent = %d, %v", n, err)
	}
	if lc := mustLoad(t, s, "heartbeat").Meta.LastConsolidated; lc != NoneConsolidated {
		t.Errorf("LastConsolidated = %d, want none", lc)
	}
}

func TestKeepRecentErrors(t *testing.T) {
	s, _ := newTestStore(t)
	if _, err := s.KeepRecent("missing", 3); err == nil {
		t.Error("missing session: no error")
	}
	mustCreate(t, s, CreateOptions{ID: "x"})
	if _, err := s.KeepRecent("x", 0); err == nil {
		t.Error("keep 0: no error")
	}
}

// Trims racing appends lose nothing written after the cut: every append lands in the
// file that stays.
func TestKeepRecentDuringAppends(t *testing.T) {
	s, _ := newTestStore(t)
	mustCreate(t, s, CreateOptions{ID: "heartbeat"})
	const total = 120
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			if _, err := s.KeepRecent("heartbeat", 5); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for i := range total {
		appendRun(t, s, "heartbeat", i)
	}
	close(done)
	wg.Wait()
	if _, err := s.KeepRecent("heartbeat", 5); err != nil {
		t.Fatal(err)
	}
	sess := mustLoad(t, s, "heartbeat")
	if len(sess.Warnings) != 0 {
		t.Errorf("warnings: %v", sess.Warnings)
	}
	if n := len(sess.Runs); n < 5 || n > 10 {
		t.Fatalf("%d runs kept, want 5..10", n)
	}
	first := total - len(sess.Runs)
	for i, r := range sess.Runs {
		if want := fmt.Sprintf("r%d", first+i); r.ID != want {
			t.Fatalf("run %d is %s, want %s: a run was lost or reordered", i, r.ID, want)
		}
	}
	if len(sess.Entries) != 2*len(sess.Runs) {
		t.Errorf("%d messages for %d runs", len(sess.Entries), len(sess.Runs))
	}
}
