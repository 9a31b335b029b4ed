package memory

import (
	"context"
	"errors"
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
	// Snippet is the chunk's text (cut to SnippetChars).
	Snippet string `json:"snippet"`
	// Score is 0–1: cosine similarity and keyword match blended in hybrid
	// mode; in keyword mode the share of query words matched, scaled by
	// BM25 relative to the best hit.
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
}

// SnippetChars bounds Hit.Snippet.
const SnippetChars = 600

// DefaultK is the number of hits when k <= 0.
const DefaultK = 5

// Search syncs the index with the files and returns the k best chunks.
func (x *Index) Search(ctx context.Context, query string, k int) (Results, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if _, err := x.sync(ctx); err != nil {
		return Results{}, err
	}
	var qvec []float32
	note := ""
	switch {
	case x.opts.Embed == nil:
		note = "keyword search: no embedding model is set (agents.defaults.embeddingModel)"
	case x.col.Count() == 0 && len(x.chunks) > 0:
		note = unavailable(x.embedErr)
	case len(x.chunks) > 0 && x.canEmbed():
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
	return x.query(ctx, query, qvec, k, note), nil
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

// query ranks chunks for a query (and its vector, when there is one); the
// index is not synced, so benchmarks measure the ranking alone.
func (x *Index) query(ctx context.Context, query string, qvec []float32, k int, note string) Results {
	if k <= 0 {
		k = DefaultK
	}
	pool := max(4*k, 20)
	res := Results{Mode: ModeKeyword, Note: note}
	kws := x.kw.search(query, pool)
	best := 0.0
	if len(kws) > 0 {
		best = kws[0].raw
	}
	kwScore := map[string]float64{}
	for _, h := range kws {
		kwScore[h.id] = h.cover * h.raw / best
	}
	type cand struct {
		id       string
		vec, kw  float64
		hasV     bool
		hasK     bool
		ordering float64
	}
	cands := map[string]*cand{}
	if qvec != nil && x.col.Count() > 0 {
		res.Mode = ModeHybrid
		vr, err := x.col.QueryEmbedding(ctx, qvec, min(pool, x.col.Count()), nil, nil)
		if err == nil {
			for _, r := range vr {
				cands[r.ID] = &cand{id: r.ID, vec: float64(r.Similarity), hasV: true}
			}
		}
	}
	for _, h := range kws {
		c := cands[h.id]
		if c == nil {
			c = &cand{id: h.id}
			if ch := x.chunks[h.id]; qvec != nil && ch != nil && len(ch.Vec) == len(qvec) {
				c.vec, c.hasV = dot(qvec, ch.Vec), true
			}
			cands[h.id] = c
		}
		c.kw, c.hasK = kwScore[h.id], true
	}
	out := make([]*cand, 0, len(cands))
	for _, c := range cands {
		switch {
		case res.Mode == ModeHybrid && c.hasV:
			c.ordering = vectorWeight*c.vec + keywordWeight*c.kw
		case res.Mode == ModeHybrid:
			c.ordering = keywordWeight * c.kw // a chunk not embedded yet
		default:
			c.ordering = c.kw
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].ordering != out[j].ordering {
			return out[i].ordering > out[j].ordering
		}
		return out[i].id < out[j].id
	})
	for _, c := range out {
		if len(res.Hits) == k {
			break
		}
		ch := x.chunks[c.id]
		if ch == nil {
			continue
		}
		mode := ModeKeyword
		switch {
		case c.hasV && c.hasK:
			mode = ModeHybrid
		case c.hasV:
			mode = ModeVector
		}
		res.Hits = append(res.Hits, Hit{ID: ch.ID, Source: ch.Source, Title: ch.Title, Date: ch.Date,
			Snippet: snippet(ch.Text), Score: round3(c.ordering), Mode: mode})
	}
	return res
}

func dot(a, b []float32) float64 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return float64(s)
}

func round3(f float64) float64 { return float64(int(f*1000+0.5)) / 1000 }

func snippet(t string) string {
	t = strings.TrimSpace(t)
	if len(t) <= SnippetChars {
		return t
	}
	cut := SnippetChars
	for cut > 0 && !isRuneStart(t[cut]) {
		cut--
	}
	return strings.TrimSpace(t[:cut]) + "…"
}
