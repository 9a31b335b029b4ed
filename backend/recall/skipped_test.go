package recall

import (
	"context"
	"fmt"
	"testing"

	"hearth/backend/session"
)

// The chunks a search leaves out (a long live chat, in the window whole) are counted
// out of each word's chunk count by their rows: the same counts as tokenizing their
// text again, as the search did before, so the scores and the block are unchanged.
func TestSkippedCountsByRow(t *testing.T) {
	ws, sdir := t.TempDir(), t.TempDir()
	writeFile(t, ws, HistoryFile, history("The plan: ship the beta on Friday.", "Café on the corner serves plans and crêpes."))
	st := session.NewStore(sdir, session.Options{})
	var turns []string
	for i := range 60 {
		turns = append(turns, fmt.Sprintf("Question %d: what is the plan for the beta this week?", i),
			fmt.Sprintf("The plan %d is to ship on Friday, after the café meeting.", i))
	}
	newChat(t, st, "live", turns...)
	x := NewIndex(IndexOptions{Workspace: ws, SessionsDir: sdir})
	defer x.Close()
	if _, err := x.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	skip, sources := InPrompt("live", 20), InPromptSources("live", true)
	got, err := x.skippedTerms(context.Background(), skip, sources)
	if err != nil || got.docs == 0 {
		t.Fatalf("%+v %v", got, err)
	}
	// The counts as tokenizing the text gives them.
	want := map[string]int{}
	docs := 0
	for _, src := range sources {
		rows, err := x.db.Query(`SELECT text, pos FROM chunks WHERE source = ?`, src)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var text string
			var pos int
			if err := rows.Scan(&text, &pos); err != nil {
				t.Fatal(err)
			}
			if skip(src, pos) {
				docs++
				for _, w := range uniq(tokenize(text)) {
					want[w]++
				}
			}
		}
		rows.Close()
	}
	if got.docs != docs {
		t.Errorf("%d chunks left out, want %d", got.docs, docs)
	}
	for _, w := range uniq(tokenize("what was the plan for the beta at the café? question friday ship")) {
		var list string
		if err := x.db.QueryRow(`SELECT coalesce(group_concat(rowid), '') FROM terms WHERE terms MATCH ?`, ftsQuery([]string{w})).Scan(&list); err != nil {
			t.Fatal(err)
		}
		if n := got.df(list); n != want[w] {
			t.Errorf("%q: %d chunks left out hold it, tokenizing says %d", w, n, want[w])
		}
	}
}
