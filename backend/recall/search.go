package recall

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"hearth/backend/llm"
)

// Search modes, on each Hit and on Results.
const (
	ModeVector  = "vector"
	ModeKeyword = "keyword"
	ModeHybrid  = "hybrid"
)

// Weights of the hybrid score: similarity of meaning first, shared words
// second.
const (
	vectorWeight  = 0.7
	keywordWeight = 0.3
)

// Hit is one recalled chunk.
type Hit struct {
	ID     string `json:"id"`
	Source string `json:"source"` // "memory/HISTORY.md", "sessions/<id>", …
	Title  string `json:"title"`
	Date   string `json:"date"`
	// Snippet is the chunk's whole text, or, where a budget is short, a
	// passage of it cut at sentence or line ends around the query's words.
	Snippet string `json:"snippet"`
	// Score is 0–1: cosine similarity and keyword match blended in hybrid
	// mode; in keyword mode the share of the query's weight matched (each
	// word weighted by its rarity, kwscore.go), whatever else is indexed.
	Score float64 `json:"score"`
	// Mode says what found it: vector, keyword or hybrid (both).
	Mode string `json:"mode"`
}

// Results are the hits of one search and how it was done.
type Results struct {
	Hits []Hit  `json:"hits"`
	Mode string `json:"mode"` // ModeHybrid, or ModeKeyword when no vectors were usable
	// Note explains a keyword-only search ("no embedding model is set", …).
	Note string `json:"note,omitempty"`
	// More counts the hits that scored high enough but did not fit the
	// budget (at least; only the ranked pool is counted).
	More int `json:"more,omitempty"`
	// cut are the words the hits were cut around (the block cuts them
	// again around the same words).
	cut []string
	// intent is what the query asked for besides its words (intent.go).
	intent intent
}

// DefaultK is the number of hits when neither k nor a budget is given.
const DefaultK = 5

// maxPool bounds the ranked chunks a budget is filled from: a 16 000-char
// result holds at most about a hundred passages.
const maxPool = 400

// Query is one search: the sidebar, memory_search and the recall block all
// search through Find, and differ only in these.
type Query struct {
	Text string
	// K bounds the hits; 0 is DefaultK, or as many as fill the budget.
	K int
	// Offset leaves out the first Offset hits that would be handed over (the
	// next page of memory_search).
	Offset int
	// Tokens is a budget for the hits' text (about 4 bytes a token, with each
	// hit's source line): hits are added best first, the last one cut to a
	// passage that fits. 0 returns K whole chunks.
	Tokens int
	// PerHit, with a budget, cuts each hit to a passage of at most this many
	// bytes around the query's words: a long chunk (a whole chat's entry)
	// holds the evidence in a line or two, and whole chunks let three hits
	// fill a budget that holds ten passages.
	PerHit int
	// MinScore leaves out hits scoring below it.
	MinScore float64
	// Skip leaves out chunks already in front of the model: the files in the
	// system prompt, the part of the current chat in its window.
	Skip func(source string, pos int) bool
	// SkipSources are the sources Skip may leave chunks of: those chunks are
	// left out of the words' counts too, so the live turn's own message does
	// not make its words look rare (InPromptSources).
	SkipSources []string
	// Distinct leaves out a chunk that says what a better one said (the
	// model's evidence); the sidebar lists every source.
	Distinct bool
	// NoMore: the caller does not need Results.More, so the hits stop at K
	// (the recall block; counting the distinct rest cost a fifth of it).
	NoMore bool
	// Likings, for a question asking what the user would like, adds up to
	// this many of the user's liking statements after the best hits
	// (likings.go).
	Likings int
}

// Search syncs the index with the files and returns the k best chunks whole.
func (x *Index) Search(ctx context.Context, query string, k int) (Results, error) {
	return x.Find(ctx, Query{Text: query, K: k})
}

// Find syncs the index with the files and returns the best distinct chunks
// for q.
func (x *Index) Find(ctx context.Context, q Query) (Results, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if _, err := x.sync(ctx, false); err != nil {
		return Results{}, err
	}
	query := q.Text
	var qvec []float32
	note := ""
	switch {
	case x.opts.Embed == nil:
		note = "keyword search: no embedding model is set (agents.defaults.embeddingModel)"
	case x.canEmbed():
		vecs, err := x.opts.Embed(ctx, []string{query})
		if err == nil && len(vecs) == 1 && len(vecs[0]) > 0 {
			qvec = normalize(vecs[0])
		} else {
			if err == nil {
				err = errors.New("no vector returned")
			}
			x.failed(ctx, err)
			note = unavailable(err)
		}
	default:
		note = unavailable(x.embedErr)
	}
	words := wordsOf(q.Text)
	res, ranked, err := x.rank(ctx, q, words, qvec, note)
	if isCorrupt(err) {
		x.startOver(fmt.Sprintf("damaged index (%v)", err))
		if _, err = x.sync(ctx, false); err == nil {
			res, ranked, err = x.rank(ctx, q, words, qvec, note)
		}
	}
	if err != nil {
		return res, err
	}
	if q.Likings > 0 && words.intent&askLiking != 0 {
		ls, err := x.likings(ctx, words, q.Likings, q.MinScore, q.Skip, q.SkipSources)
		if err != nil {
			return res, err
		}
		ranked = withLikings(ranked, ls, q)
	}
	res.Hits, res.More = deliver(ranked, q, words.cut, words.intent)
	res.cut, res.intent = words.cut, words.intent
	return res, nil
}

// poolFor is how many ranked chunks a query looks at: enough that skipped
// and duplicate ones still leave K (or a budget's worth).
func poolFor(q Query) int {
	k := q.K
	if k <= 0 {
		k = DefaultK
		if q.Tokens > 0 {
			// Chat and note chunks are a few hundred bytes: a budget holds
			// about one a 300.
			k = q.Tokens * bytesPerToken / 300
		}
	}
	return min(max(4*(k+q.Offset), 40), maxPool)
}

// unavailable explains a keyword-only search when embedding failed, with
// the provider's hint (e.g. how to pull the model) when it has one.
func unavailable(err error) string {
	if err == nil {
		return "keyword search: the embedding model is unavailable"
	}
	note := "keyword search: the embedding model is unavailable: " + err.Error()
	if le, ok := llm.AsError(err); ok && le.Hint != "" && !strings.Contains(note, le.Hint) {
		note += " (hint: " + le.Hint + ")"
	}
	return note
}

// cand is a chunk found by either side of the search.
type cand struct {
	row      int64
	vec, kw  float64
	raw      float64 // the keyword side's BM25: orders equal scores
	prior    float64 // the keyword side's intent prior: orders, does not score
	hasV     bool
	hasK     bool
	ordering float64
}

// BM25 parameters (the usual ones).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// keyword returns up to pool chunk rows for the query's terms with their
// scores (keywordScore), leaving out the chunks skip names before anything is
// scored: the live turn's own message never sets the scale of the others.
// The candidates are picked by the rows each word is in (candidates.go) and
// scored here with the classic BM25
// (idf = ln(1 + (N-df+0.5)/(df+0.5))) because FTS5's own idf drops to
// nothing for a word in more than half the chunks — in a small workspace,
// most words. Chunks that cannot reach minScore are not looked at.
func (x *Index) keyword(ctx context.Context, terms []string, more []relTerm, in intent, pool int, minScore float64, skip func(string, int) bool, skipSources []string) (map[int64]kwScore, error) {
	out := map[int64]kwScore{}
	if len(terms) == 0 {
		return out, nil
	}
	var docs, tokens float64
	if err := x.db.QueryRowContext(ctx, `SELECT (SELECT CAST(value AS REAL) FROM meta WHERE key = 'docs'),
		(SELECT CAST(value AS REAL) FROM meta WHERE key = 'tokens')`).Scan(&docs, &tokens); err != nil {
		return nil, err
	}
	// The chunks left out count nowhere: not in the words' counts, not in the
	// average length.
	skipped, err := x.skippedTerms(ctx, skip, skipSources)
	if err != nil {
		return nil, err
	}
	docs -= float64(skipped.docs)
	tokens -= float64(skipped.tokens)
	if docs <= 0 {
		return out, nil
	}
	// Each word's chunks, as one string of rows (a row at a time through
	// database/sql costs more than SQLite's own work): their number is the
	// word's document count, and candidates.go reuses them. (fts5vocab walks
	// the same lists to count them, so asking it as well cost the walk twice.)
	idf, dfs, rowsOf := map[string]float64{}, map[string]float64{}, map[string]string{}
	ownIdf := map[string]float64{} // the query's own words'
	own := len(terms)
	terms = slices.Clip(terms)
	for _, r := range more {
		terms = append(terms, r.term)
	}
	counts, lists, err := x.termRows(ctx, terms)
	if err != nil {
		return nil, err
	}
	for i, t := range terms {
		df, list := counts[i], lists[i]
		if df -= float64(skipped.df(list)); df > 0 {
			idf[t], dfs[t], rowsOf[t] = math.Log(1+(docs-df+0.5)/(df+0.5)), df, list
			if i >= own {
				idf[t] *= more[i-own].weight
			} else {
				ownIdf[t] = idf[t]
			}
		}
	}
	if len(idf) == 0 {
		return out, nil
	}
	// A word in most of thousands of chunks picks nothing out (FTS5 gives it
	// no weight) but would make every one of them a candidate: it is matched
	// only when the query has no rarer word. It still counts in the score.
	match := make([]string, 0, len(terms))
	for _, t := range terms {
		if df, ok := dfs[t]; ok && (df <= docs/2 || df < 1000) {
			match = append(match, t)
		}
	}
	if len(match) == 0 {
		match = terms
	}
	// A word not matched may still be in a chunk: need counts matched ones.
	needOf := ownIdf
	if len(needOf) == 0 {
		needOf = idf
	}
	need := needTerms(needOf, minScore) - (len(idf) - len(match))
	avg := tokens / docs
	weight := queryWeight(ownIdf)
	if len(ownIdf) == 0 {
		// Only related words are known: a chunk holding them scores as their
		// weight says, at most expandWeight.
		weight = queryWeight(idf) / expandWeight
	}
	// The chunks to read are picked by their score (candidates.go); pool+20:
	// a few more than the pool, since the words said more often order equal
	// scores and are known only from the text.
	likely := x.pickRows(match, rowsOf, idf, weight, pool+20, need, skipped.rows)
	rows, err := x.db.QueryContext(ctx, `SELECT n, text, nterms, source, pos FROM chunks WHERE n IN `+inRows, rowList(likely))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	type scored struct {
		n int64
		kwScore
	}
	var list []scored
	memo := newStemMemo()
	memo.only = &[256]bool{}
	for t := range idf {
		memo.only[t[0]] = true
	}
	has := func(t string) bool { _, ok := idf[t]; return ok }
	for rows.Next() {
		var n int64
		var text, source string
		var dl float64
		var pos int
		if err := rows.Scan(&n, &text, &dl, &source, &pos); err != nil {
			return nil, err
		}
		if skip != nil && skip(source, pos) {
			continue
		}
		s := scored{n: n, kwScore: keywordScore(text, memo, idf, weight, dl/avg)}
		if s.score > 0 {
			s.prior = in.prior(text, memo, has) // intent.go
			list = append(list, s)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	sort.Slice(list, func(i, j int) bool {
		if a, b := list[i].score+list[i].prior, list[j].score+list[j].prior; a != b {
			return a > b
		}
		if list[i].raw != list[j].raw {
			return list[i].raw > list[j].raw
		}
		return list[i].n < list[j].n
	})
	if len(list) > pool {
		list = list[:pool]
	}
	for _, s := range list {
		out[s.n] = s.kwScore
	}
	return out, nil
}

// ranked is a chunk in rank order with its score and how it was found.
type ranked struct {
	Chunk
	score float64
	mode  string
}

// rank ranks the best chunks for q (and its vector, when there is one); the
// index is not synced, so benchmarks measure the ranking alone. The caller
// holds x.mu.
func (x *Index) rank(ctx context.Context, q Query, words queryWords, qvec []float32, note string) (Results, []ranked, error) {
	res := Results{Mode: ModeKeyword, Note: note}
	pool := poolFor(q)
	terms := words.own
	floor := 0.0
	if qvec == nil {
		// A keyword hit scores at most the share of the query's weight it
		// holds: one holding less than MinScore asks for is not worth ranking.
		floor = q.MinScore
	}
	kws, err := x.keyword(ctx, terms, words.rel, words.intent, pool, floor, q.Skip, q.SkipSources)
	if err != nil {
		return res, nil, err
	}
	cands := map[int64]*cand{}
	var vs *vectorSet
	if qvec != nil {
		if vs, err = x.vectors(); err != nil {
			return res, nil, err
		}
		if vs.len() > 0 {
			res.Mode = ModeHybrid
			for _, h := range vs.search(qvec, pool) {
				cands[h.row] = &cand{row: h.row, vec: float64(h.sim), hasV: true}
			}
		} else if note == "" {
			res.Note = unavailable(x.embedErr)
		}
	}
	for n, s := range kws {
		c := cands[n]
		if c == nil {
			c = &cand{row: n}
			if v := vs.getOrNil(n); v != nil {
				c.vec, c.hasV = float64(dot32(qvec, v)), true
			}
			cands[n] = c
		}
		c.kw, c.raw, c.prior, c.hasK = s.score, s.raw, s.prior, true
	}
	out := make([]*cand, 0, len(cands))
	for _, c := range cands {
		switch {
		case res.Mode == ModeHybrid && c.hasV:
			c.ordering = vectorWeight*c.vec + keywordWeight*(c.kw+c.prior)
		case res.Mode == ModeHybrid:
			c.ordering = keywordWeight * (c.kw + c.prior) // a chunk not embedded yet
		default:
			c.ordering = c.kw + c.prior
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].ordering != out[j].ordering {
			return out[i].ordering > out[j].ordering
		}
		if out[i].raw != out[j].raw {
			return out[i].raw > out[j].raw
		}
		return out[i].row < out[j].row
	})
	if len(out) > pool {
		out = out[:pool]
	}
	chunks, err := x.chunksByRow(ctx, out)
	if err != nil {
		return res, nil, err
	}
	list := make([]ranked, 0, len(out))
	for _, c := range out {
		ch, ok := chunks[c.row]
		if !ok {
			continue
		}
		mode := ModeKeyword
		switch {
		case c.hasV && c.hasK:
			mode = ModeHybrid
		case c.hasV:
			mode = ModeVector
		}
		score := c.ordering - c.prior // the prior orders; MinScore judges the words
		if res.Mode == ModeHybrid {
			score = c.ordering - keywordWeight*c.prior
		}
		list = append(list, ranked{Chunk: ch, score: round3(score), mode: mode})
	}
	return res, list, nil
}

// chunksByRow reads the chunks of the candidates.
func (x *Index) chunksByRow(ctx context.Context, cs []*cand) (map[int64]Chunk, error) {
	out := map[int64]Chunk{}
	if len(cs) == 0 {
		return out, nil
	}
	ns := make([]int64, len(cs))
	for i, c := range cs {
		ns[i] = c.row
	}
	rows, err := x.db.QueryContext(ctx, `SELECT n, id, source, title, date, text, pos FROM chunks WHERE n IN `+inRows, rowList(ns))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var n int64
		var c Chunk
		if err := rows.Scan(&n, &c.ID, &c.Source, &c.Title, &c.Date, &c.Text, &c.Pos); err != nil {
			return nil, err
		}
		out[n] = c
	}
	return out, rows.Err()
}

func round3(f float64) float64 { return float64(int(f*1000+0.5)) / 1000 }
