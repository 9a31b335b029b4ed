package recall

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"strconv"
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

// maxLikingRows bounds the marked chunks holding the question's words
// that are read, the newest first. The marks (liked.go) are found through
// their own term index, so a question reads only those holding its words
// and the newest few; reading 1 000 marks whole cost the block about 1 ms
// at 10 000 passages (BenchmarkRecallLikingLatency), so a word said in
// more than this many likings ("food") costs at most about half that.
const maxLikingRows = 500

// likingSpare is how many more of the newest marked chunks are read than
// a question is given, for those skip leaves out.
const likingSpare = 16

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
	srcs, _ := json.Marshal(append([]string{}, skipSources...))
	rows, err := x.likedRows(ctx, weight, n, string(srcs))
	if err != nil {
		return nil, err
	}
	// The candidates' terms, as one string: a row at a time through
	// database/sql cost more than the rest. The stored text is bounded
	// again: the file is a cache anyone could damage.
	var all sql.NullString
	err = x.db.QueryRowContext(ctx, `SELECT group_concat(n || ' ' || replace(substr(terms, 1, ?), char(10), ' '), char(10))
		FROM liked WHERE n IN `+inRows, maxLikedTerms, rowList(rows)).Scan(&all)
	if err != nil {
		return nil, err
	}
	type cand struct {
		n       int64
		related float64
	}
	var cands []cand
	for line := range strings.Lines(all.String) {
		num, terms, _ := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil {
			continue
		}
		cands = append(cands, cand{n, relatedIn(terms, weight)})
	}
	slices.SortFunc(cands, func(a, b cand) int { return cmp.Or(cmp.Compare(b.related, a.related), cmp.Compare(b.n, a.n)) })
	// Then the chunks of the likeliest, a few times n at a time until n
	// are kept: those of the sources the search leaves out (the live chat)
	// and those skip leaves out are not. Among equally related ones the
	// newest row stands for the newest date until the dates are read.
	var found []liking
	for start := 0; start < len(cands) && len(found) < n; {
		end := min(len(cands), start+4*n)
		related := map[int64]float64{}
		ns := make([]int64, 0, end-start)
		for _, c := range cands[start:end] {
			related[c.n] = c.related
			ns = append(ns, c.n)
		}
		start = end
		got, err := x.likedChunks(ctx, ns, string(srcs), skip)
		if err != nil {
			return nil, err
		}
		for _, c := range got {
			found = append(found, liking{ranked{Chunk: c.Chunk, score: minScore, mode: ModeKeyword}, related[c.n]})
		}
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

// likedRows are the rows of the marked chunks a question may be given:
// those whose statements hold a word of weight's but a liking cue (the newest
// maxLikingRows of them), and the newest few of the rest, those of the
// sources of srcs (a JSON array) not among them. Neither reads a mark
// the question has no use for.
func (x *Index) likedRows(ctx context.Context, weight map[string]float64, n int, srcs string) ([]int64, error) {
	var rows []int64
	collect := func(query string, args ...any) error {
		q, err := x.db.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer q.Close()
		for q.Next() {
			var r int64
			if err := q.Scan(&r); err != nil {
				return err
			}
			rows = append(rows, r)
		}
		return q.Err()
	}
	// A liking question brings the liking words themselves ("enjoy":
	// like, love, favourite), which every mark holds: they order the
	// candidates (relatedIn) but do not make one.
	var terms []string
	for t := range weight {
		if !likingCueSet[t] {
			terms = append(terms, t)
		}
	}
	if len(terms) > 0 {
		slices.Sort(terms)
		if err := collect(`SELECT rowid FROM likedterms WHERE likedterms MATCH ? ORDER BY rowid DESC LIMIT ?`,
			ftsQuery(terms), maxLikingRows); err != nil {
			return nil, err
		}
	}
	err := collect(`SELECT l.n FROM liked l JOIN chunks c ON c.n = l.n
		WHERE c.source NOT IN (SELECT value FROM json_each(?)) ORDER BY l.n DESC LIMIT ?`, srcs, 4*n+likingSpare)
	slices.Sort(rows)
	return slices.Compact(rows), err
}

// likedChunk is a marked chunk, its text its liking statements.
type likedChunk struct {
	Chunk
	n int64
}

// likedChunks reads the marked chunks of rows ns, but those of the sources
// of srcs (a JSON array) and those skip leaves out.
func (x *Index) likedChunks(ctx context.Context, ns []int64, srcs string, skip func(string, int) bool) ([]likedChunk, error) {
	rows, err := x.db.QueryContext(ctx, `SELECT c.n, c.id, c.source, c.title, c.date, c.pos, substr(l.said, 1, ?)
		FROM liked l JOIN chunks c ON c.n = l.n
		WHERE l.n IN `+inRows+` AND c.source NOT IN (SELECT value FROM json_each(?))`, maxLikedBytes, rowList(ns), srcs)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []likedChunk
	for rows.Next() {
		var c likedChunk
		var said string
		if err := rows.Scan(&c.n, &c.ID, &c.Source, &c.Title, &c.Date, &c.Pos, &said); err != nil {
			return nil, err
		}
		if said = clip(said, maxLikingBytes); said == "" || skip != nil && skip(c.Source, c.Pos) {
			continue
		}
		c.Text = said
		out = append(out, c)
	}
	return out, rows.Err()
}

// likedIn is text's liking statements of the user's, joined (at most
// maxLikingBytes), and the weight of the question's words they hold: what
// a marked chunk gives a question (liked.go stores the statements and
// their terms when the chunk is indexed).
func likedIn(text string, memo *stemMemo, weight map[string]float64) (string, float64) {
	said := likingStatements(text)
	if said == "" {
		return "", 0
	}
	return clip(said, maxLikingBytes), relatedIn(strings.Join(memo.tokenize(said), " "), weight)
}

// relatedIn is the weight of the question's words among terms (space
// separated), each counted once.
func relatedIn(terms string, weight map[string]float64) float64 {
	related := 0.0
	var seen map[string]bool
	for t := range strings.FieldsSeq(terms) {
		if w, ok := weight[t]; ok && !seen[t] {
			if seen == nil {
				seen = map[string]bool{}
			}
			seen[t] = true
			related += w
		}
	}
	return related
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
