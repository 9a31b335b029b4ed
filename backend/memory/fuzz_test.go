package memory

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzInboxProposal gives the memory inbox arbitrary bytes as a waiting proposal
// (.hearth/inbox/<id>.json — a file the user or a sync tool may damage): listing,
// approving and rejecting its hunks must end in an answer or an error, never a
// panic, and a hunk that no longer fits the file touches nothing.
func FuzzInboxProposal(f *testing.F) {
	good, _ := json.Marshal(Proposal{ID: "p1", File: MemoryFile, Author: AuthorDream, Reason: "r",
		Hunks: []Hunk{{ID: 0, OldStart: 1, Old: []string{"- a\n"}, New: []string{"- b\n"}, Before: "# Memory\n", Status: "pending"}}})
	f.Add(good)
	f.Add([]byte(`{"id":"p1","file":"memory/MEMORY.md","hunks":[{"oldStart":-5,"new":["x"],"status":"pending"}]}`))
	f.Add([]byte(`{"id":"p1","file":"../../etc/passwd","hunks":[{"oldStart":99999999,"old":["- a\n"],"status":"pending"}]}`))
	f.Add([]byte(`{"id":"p1","file":"SOUL.md","hunks":[{"oldStart":0,"old":[],"new":[],"before":"","status":"pending"}]}`))
	f.Add([]byte(`{"id":"p1","hunks":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		ws := t.TempDir()
		writeFile(t, ws, MemoryFile, "# Memory\n- a\n- c\n")
		st := NewStore(ws, nil)
		st.useState(t.TempDir(), nil)
		in := newInbox(st, nil, nil)
		if err := os.MkdirAll(in.dir(), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(in.dir(), "p1.json"), b, 0o600); err != nil {
			t.Fatal(err)
		}
		ps, err := in.List()
		if err != nil {
			return
		}
		for _, p := range ps {
			for i := range p.Hunks {
				_, _ = in.Decide(p.ID, i, []string{"approve", "reject"}[i%2], nil)
			}
		}
	})
}
