package recall

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"strings"
)

// What the user has said they like, for a question that asks what they
// would like ("what should I cook for my birthday?"). Such a question
// shares few words, often none, with "nothing beats Thai for a dinner
// out": the search finds the liking only through a word both happen to
// hold. So besides the ranked hits, a search with Query.Likings gives the
// user's own liking statements as a small standing set: the sentences of
// the user's (not the assistant's, not another person's: likes()) that say
// what they like or cannot stand, those holding the question's words or
// the words they bring first, then the newest. Each is handed over as its
// sentence alone, so that several cost the room of one passage.

// likingCues are the words a liking statement holds (likingWords, the
// words of likingAfter's phrases and the marked word of each of
// likingPhrases; "into" is a stopword, so not indexed),
// and the characters of the Chinese ones: its rows are read from their
// lists.
var likingCues = func() []string {
	var out []string
	for w := range likingWords {
		out = append(out, tokenize(w)...)
	}
	for w := range likingAfter {
		out = append(out, tokenize(w)...)
	}
	for _, w := range likingPhraseCues {
		out = append(out, tokenize(w)...)
	}
	out = append(out, "喜", "爱")
	slices.Sort(out)
	return slices.Compact(out)
}()

// maxLikingRows bounds the chunks read for liking statements, the newest
// first: "like" and "love" are in many chunks of a big workspace, and
// reading and parsing them is most of the cost (a block for such a
// question at 10 000 passages: about 1.3 ms more at 100 chunks, 5 ms at
// 300, BenchmarkRecallLikingLatency).
const maxLikingRows = 100

// maxLikingBytes bounds one liking statement as handed over.
const maxLikingBytes = 240

// likingAt is how many ranked hits go before the liking statements: the
// best of what the question's words found stays first.
const likingAt = 2

// liking is one chunk's liking statements and how related they are to the
// question.
type liking struct {
	ranked
	related float64
}

// likings returns up to n of the user's liking statements as ranked chunks
// (their text the statements alone, scored minScore so that they are
// handed over), most related to the question's words first, then newest.
// skip leaves out chunks, as in a search.
func (x *Index) likings(ctx context.Context, words queryWords, n int, minScore float64, skip func(string, int) bool,
	skipSources []string) ([]ranked, error) {
	weight := map[string]float64{}
	for _, t := range words.own {
		weight[t] = 1
	}
	for _, r := range words.rel {
		weight[r.term] = max(weight[r.term], r.weight)
	}
	// The newest chunks holding a cue, those of the sources the search
	// leaves out (the live chat) not among them: FTS5 walks its lists
	// newest first and stops at the limit.
	srcs, _ := json.Marshal(append([]string{}, skipSources...))
	q, err := x.db.QueryContext(ctx, `SELECT c.n, c.id, c.source, c.title, c.date, c.text, c.pos
		FROM terms JOIN chunks c ON c.n = terms.rowid
		WHERE terms MATCH ? AND c.source NOT IN (SELECT value FROM json_each(?))
		ORDER BY terms.rowid DESC LIMIT ?`, ftsQuery(likingCues), string(srcs), maxLikingRows)
	if err != nil {
		return nil, err
	}
	defer q.Close()
	var found []liking
	memo := newStemMemo()
	// Only words that may stem to one of weight's are stemmed (stemMemo).
	memo.only = &[256]bool{}
	for t := range weight {
		memo.only[t[0]] = true
	}
	for q.Next() {
		var row int64
		var c Chunk
		if err := q.Scan(&row, &c.ID, &c.Source, &c.Title, &c.Date, &c.Text, &c.Pos); err != nil {
			return nil, err
		}
		if skip != nil && skip(c.Source, c.Pos) {
			continue
		}
		said, related := likedIn(c.Text, memo, weight)
		if said == "" {
			continue
		}
		c.Text = said
		found = append(found, liking{ranked{Chunk: c, score: minScore, mode: ModeKeyword}, related})
	}
	if err := q.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(found, func(a, b liking) int {
		return cmp.Or(cmp.Compare(b.related, a.related), strings.Compare(b.Date, a.Date), strings.Compare(a.ID, b.ID))
	})
	out := make([]ranked, 0, min(n, len(found)))
	for _, l := range found[:min(n, len(found))] {
		out = append(out, l.ranked)
	}
	return out, nil
}

// likedIn is text's liking statements of the user's, joined (at most
// maxLikingBytes), and the weight of the question's words they hold.
func likedIn(text string, memo *stemMemo, weight map[string]float64) (string, float64) {
	var said []string
	related := 0.0
	for _, s := range sentences(text) {
		low := strings.ToLower(s)
		if strings.HasPrefix(low, "assistant:") {
			continue
		}
		is := containsAny(s, zhLiking)
		if !is {
			lineWords(s, func(ws []string, clause []int, _ string) { is = is || likes(ws, clause) })
		}
		if !is {
			continue
		}
		seen := map[string]bool{}
		memo.eachTerm(s, func(t string) {
			if w, ok := weight[t]; ok && !seen[t] {
				seen[t] = true
				related += w
			}
		})
		said = append(said, s)
	}
	out := strings.Join(said, " ")
	if len(out) > maxLikingBytes {
		out = clip(out, maxLikingBytes)
	}
	return out, related
}

// withLikings puts the liking statements ls after the first likingAt hits
// of list that q hands over, leaving out a statement whose chunk is among
// those and a later hit of a statement's chunk (said once, as the
// statement).
func withLikings(list, ls []ranked, q Query) []ranked {
	if len(ls) == 0 {
		return list
	}
	at, kept := len(list), 0
	for i, r := range list {
		if r.score >= q.MinScore && (q.Skip == nil || !q.Skip(r.Source, r.Pos)) {
			if kept == likingAt {
				at = i
				break
			}
			kept++
		}
	}
	before := map[string]bool{}
	for _, r := range list[:at] {
		before[r.ID] = true
	}
	ids := map[string]bool{}
	out := slices.Clip(list[:at])
	for _, l := range ls {
		if !before[l.ID] {
			ids[l.ID] = true
			out = append(out, l)
		}
	}
	for _, r := range list[at:] {
		if !ids[r.ID] {
			out = append(out, r)
		}
	}
	return out
}
