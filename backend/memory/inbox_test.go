package memory

import (
	"context"
	"strings"
	"testing"
	"time"

	"hearth/backend/tools"
)

// With "Review memory changes" on, a consolidation's MEMORY.md rewrite waits as
// hunks: nothing changes until a hunk is approved (as is, or edited); a rejected
// hunk never lands; the approved change is committed as the consolidation's.
func TestInboxHoldsUntilApproved(t *testing.T) {
	f := newConsFixture(t, 3)
	writeFile(t, f.ws, MemoryFile, "# Memory\n- Lives in Porto.\n- Likes tea.\n- Old job at the bank.\n")
	s := serviceOver(t, f, nil)
	in := s.Inbox()
	if err := in.SetSettings(ReviewSettings{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	before := f.read(t, MemoryFile)
	f.fake.Enqueue(saveCall("[2026-11-23 14:05] Talked about sourdough.",
		"# Memory\n- Lives in Lisbon.\n- Likes tea.\n- Bakes sourdough.\n"))
	s.AfterRun(f.id, 6, 4)
	if err := s.Consolidations().Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := f.read(t, MemoryFile); got != before {
		t.Fatalf("MEMORY.md changed before approval:\n%s", got)
	}
	if !strings.Contains(f.read(t, HistoryFile), "sourdough") || f.cursor(t) != 3 {
		t.Error("the history entry is not held: it should be written")
	}
	ps, err := in.List()
	if err != nil || len(ps) != 1 || ps[0].Author != AuthorConsolidation || ps[0].File != MemoryFile || len(ps[0].Hunks) != 2 {
		t.Fatalf("proposals %+v %v", ps, err)
	}
	h0, h1 := ps[0].Hunks[0], ps[0].Hunks[1]
	if strings.Join(h0.Old, "") != "- Lives in Porto.\n" || strings.Join(h0.New, "") != "- Lives in Lisbon.\n" ||
		strings.Join(h1.Old, "") != "- Old job at the bank.\n" || strings.Join(h1.New, "") != "- Bakes sourdough.\n" {
		t.Fatalf("hunks %+v", ps[0].Hunks)
	}
	// The user edits the first hunk and approves it; the file changes then.
	edited := "- Lives in Lisbon since October."
	if _, err := in.Decide(ps[0].ID, 0, "approve", &edited); err != nil {
		t.Fatal(err)
	}
	if got := f.read(t, MemoryFile); got != "# Memory\n- Lives in Lisbon since October.\n- Likes tea.\n- Old job at the bank.\n" {
		t.Fatalf("after approval:\n%s", got)
	}
	if _, err := in.Decide(ps[0].ID, 1, "reject", nil); err != nil {
		t.Fatal(err)
	}
	if got := f.read(t, MemoryFile); strings.Contains(got, "sourdough") {
		t.Errorf("a rejected hunk landed:\n%s", got)
	}
	if ps, _ := in.List(); len(ps) != 0 {
		t.Errorf("decided proposal kept: %+v", ps)
	}
	revs, _ := s.History("MEMORY.md", 1)
	if len(revs) != 1 || revs[0].Author != AuthorConsolidation || !strings.Contains(revs[0].Message, "approved in the memory inbox") {
		t.Errorf("commit %+v", revs)
	}
	// The user's own edits are never held.
	cur, _ := s.Store().Read(MemoryFile)
	if res, err := s.Store().Save(MemoryFile, "mine\n", cur.Hash); err != nil || !res.Saved || res.Proposed {
		t.Errorf("own save %+v %v", res, err)
	}
}

// An expired proposal is applied or dropped as the user chose; an approval whose
// lines are gone from the file fails without touching it.
func TestInboxExpiryAndStaleHunks(t *testing.T) {
	for _, policy := range []string{"apply", "discard"} {
		t.Run(policy, func(t *testing.T) {
			f := newConsFixture(t, 1)
			s := serviceOver(t, f, nil)
			in := s.Inbox()
			now := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
			in.now = func() time.Time { return now }
			if err := in.SetSettings(ReviewSettings{Enabled: true, ExpireHours: 24, OnExpiry: policy}); err != nil {
				t.Fatal(err)
			}
			cur, _ := s.Store().Read(MemoryFile)
			res, err := s.Store().SaveAs(MemoryFile, "- Lives in Porto.\n- Has a cat.\n", cur.Hash, Origin{Author: AuthorDream, Reason: "Dream: cat"})
			if err != nil || !res.Proposed || res.Saved {
				t.Fatalf("save %+v %v", res, err)
			}
			if ps, _ := in.List(); len(ps) != 1 {
				t.Fatalf("not held: %+v", ps)
			}
			now = now.Add(25 * time.Hour)
			if ps, _ := in.List(); len(ps) != 0 {
				t.Fatalf("not expired: %+v", ps)
			}
			got := f.read(t, MemoryFile)
			if (policy == "apply") != strings.Contains(got, "Has a cat.") {
				t.Errorf("%s: %q", policy, got)
			}
		})
	}
	t.Run("stale", func(t *testing.T) {
		f := newConsFixture(t, 1)
		s := serviceOver(t, f, nil)
		in := s.Inbox()
		_ = in.SetSettings(ReviewSettings{Enabled: true})
		cur, _ := s.Store().Read(MemoryFile)
		_, _ = s.Store().SaveAs(MemoryFile, "- Lives in Lisbon.\n", cur.Hash, Origin{Author: AuthorDream})
		writeFile(t, f.ws, MemoryFile, "- rewritten by hand\n")
		ps, _ := in.List()
		p, err := in.Decide(ps[0].ID, 0, "approve", nil)
		if err != nil || p.Hunks[0].Status != "failed" || f.read(t, MemoryFile) != "- rewritten by hand\n" {
			t.Errorf("%+v %v %q", p, err, f.read(t, MemoryFile))
		}
	})
}

func TestHunksApply(t *testing.T) {
	base := "a\nb\nc\nd\n"
	next := "a\nB\nc\nd\ne\n"
	hs := hunks(base, next)
	if len(hs) != 2 {
		t.Fatalf("%+v", hs)
	}
	text := base
	for _, h := range hs {
		var err error
		if text, err = applyHunk(text, h); err != nil {
			t.Fatal(err)
		}
	}
	if text != next {
		t.Errorf("applied %q", text)
	}
	// Applied to a file that grew at the top meanwhile: still placed right.
	moved, _ := applyHunk("x\n"+base, hs[1])
	if moved != "x\na\nb\nc\nd\ne\n" {
		t.Errorf("moved %q", moved)
	}
}

// Every memory write that is not the user's own waits in the inbox while review is
// on — the model's remember tool (which tells the model so), Dream and consolidation
// (TestInboxHoldsUntilApproved) — and the user's own (the sidebar, /remember) never
// does; with review off the tool saves at once.
func TestInboxHoldsEveryWriterButTheUser(t *testing.T) {
	f := newConsFixture(t, 1)
	writeFile(t, f.ws, MemoryFile, "# Memory\n- Likes tea.\n")
	s := serviceOver(t, f, nil)
	in := s.Inbox()
	reg := tools.NewRegistry(tools.RegistryOptions{})
	if err := reg.Register(s.Tools()...); err != nil {
		t.Fatal(err)
	}
	remember := func(text string) tools.Result {
		return reg.Call(context.Background(), "remember", []byte(`{"text":"`+text+`"}`))
	}
	if err := in.SetSettings(ReviewSettings{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	before := f.read(t, MemoryFile)
	res := remember("Ana climbs on Tuesdays")
	if res.IsError || !strings.Contains(res.Content, "waits for the user's review") || strings.Contains(res.Content, "Saved to") {
		t.Errorf("the tool's answer with review on: %+v", res)
	}
	cur, _ := s.Store().Read(MemoryFile)
	if r, err := s.Store().SaveAs(MemoryFile, cur.Content+"- Dreamt of pears.\n", cur.Hash, Origin{Author: AuthorDream, Reason: "dream"}); err != nil || !r.Proposed {
		t.Errorf("Dream's write: %+v %v", r, err)
	}
	if got := f.read(t, MemoryFile); got != before {
		t.Fatalf("MEMORY.md changed before review:\n%s", got)
	}
	ps, err := in.List()
	if err != nil || len(ps) != 2 || ps[0].Author != AuthorAgent || !strings.HasPrefix(ps[0].Reason, "remember: Ana") ||
		ps[1].Author != AuthorDream {
		t.Fatalf("proposals %+v %v", ps, err)
	}
	if _, err := in.Decide(ps[0].ID, 0, "approve", nil); err != nil {
		t.Fatal(err)
	}
	if got := f.read(t, MemoryFile); !strings.Contains(got, "- Ana climbs on Tuesdays") {
		t.Errorf("approved fact not written:\n%s", got)
	}
	// The user's own writes are never held.
	if _, err := s.Remember("my sister's birthday is 3 May"); err != nil {
		t.Fatal(err)
	}
	if got := f.read(t, MemoryFile); !strings.Contains(got, "3 May") {
		t.Errorf("/remember was held:\n%s", got)
	}
	// Review off: the tool saves at once and says so.
	if err := in.SetSettings(ReviewSettings{Enabled: false}); err != nil {
		t.Fatal(err)
	}
	if res := remember("Ana likes figs"); res.IsError || res.Content != "Saved to "+MemoryFile+"." {
		t.Errorf("the tool's answer with review off: %+v", res)
	}
	if got := f.read(t, MemoryFile); !strings.Contains(got, "- Ana likes figs") {
		t.Errorf("not saved with review off:\n%s", got)
	}
}
