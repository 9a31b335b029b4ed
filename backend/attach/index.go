package attach

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"hearth/backend/internal/nofollow"
	"hearth/backend/recall"
)

// index is one chat's passages with an inverted index for BM25 ranking.
type index struct {
	// stamp is the chat folder's change time when read: another process (the
	// CLI's --file beside the window) adding a file changes it.
	stamp    time.Time
	passages []Passage
	lens     []int32
	avg      float64
	post     map[string][]posting
}

type posting struct {
	doc int32
	tf  int32
}

// maxPassagesFile bounds a passages file read back: the text a 50 MB file
// gives, in JSON, with room to spare.
const maxPassagesFile = 64 << 20

// maxCached is how many chats' indexes stay in memory.
const maxCached = 8

type indexCache struct {
	mu sync.Mutex
	m  map[string]*index
}

func newIndexCache() *indexCache { return &indexCache{m: map[string]*index{}} }

func (c *indexCache) forget(sessionID string) {
	c.mu.Lock()
	delete(c.m, sessionID)
	c.mu.Unlock()
}

// index is the chat's index, read from its passages files the first time.
func (s *Store) index(sessionID string) *index {
	c := s.idx
	stamp := s.stamp(sessionID)
	c.mu.Lock()
	ix, ok := c.m[sessionID]
	c.mu.Unlock()
	if ok && ix.stamp.Equal(stamp) {
		return ix
	}
	ix = buildIndex(s.load(sessionID))
	ix.stamp = stamp
	c.mu.Lock()
	if len(c.m) >= maxCached {
		clear(c.m)
	}
	c.m[sessionID] = ix
	c.mu.Unlock()
	return ix
}

// stamp is the chat folder's change time (zero when it has none).
func (s *Store) stamp(sessionID string) time.Time {
	stem, err := chatRel(sessionID)
	if err != nil {
		return time.Time{}
	}
	fi, err := os.Lstat(filepath.Join(s.opts.Dir(), stem))
	if err != nil {
		return time.Time{}
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(st.Ctim.Unix())
	}
	return fi.ModTime()
}

// load reads the chat's passages files (none when the chat has no folder). A
// damaged or planted file (a link, a FIFO, too big) is skipped.
func (s *Store) load(sessionID string) []Passage {
	dir, err := s.openChat(sessionID, false)
	if err != nil {
		return nil
	}
	defer dir.Close()
	names, err := dir.Readdirnames(-1)
	if err != nil {
		return nil
	}
	slices.Sort(names)
	var out []Passage
	for _, n := range names {
		if !strings.HasPrefix(n, ".") || !strings.HasSuffix(n, ".passages.json") {
			continue
		}
		f, _, err := nofollow.OpenFileIn(dir, n, maxPassagesFile)
		if err != nil {
			continue
		}
		b, err := nofollow.ReadAllFrom(f, maxPassagesFile)
		_ = f.Close()
		var ps []Passage
		if err != nil || json.Unmarshal(b, &ps) != nil {
			continue
		}
		file := strings.TrimSuffix(strings.TrimPrefix(n, "."), ".passages.json")
		for _, p := range ps {
			p.File = file // the file's own name, whatever the JSON says
			out = append(out, p)
		}
	}
	return out
}

func buildIndex(ps []Passage) *index {
	ix := &index{passages: ps, lens: make([]int32, len(ps)), post: map[string][]posting{}}
	total := 0
	tf := map[string]int32{}
	terms := recall.NewTerms()
	for i, p := range ps {
		clear(tf)
		n := 0
		terms.Each(p.Text, func(w string) {
			tf[w]++
			n++
		})
		for w, c := range tf {
			ix.post[w] = append(ix.post[w], posting{doc: int32(i), tf: c})
		}
		ix.lens[i] = int32(n)
		total += n
	}
	if len(ps) > 0 {
		ix.avg = float64(total) / float64(len(ps))
	}
	return ix
}

// Hit is a passage found for a query.
type Hit struct {
	Passage
	Score float64 `json:"score"`
}

// search ranks the passages for query with BM25 and returns the best k (of
// the passages of files when files is not empty).
func (ix *index) search(query string, k int, files []string) []Hit {
	if k <= 0 || len(ix.passages) == 0 {
		return nil
	}
	const k1, b = 1.2, 0.75
	scores := map[int32]float64{}
	seen := map[string]bool{}
	n := float64(len(ix.passages))
	recall.NewTerms().Each(query, func(w string) {
		if seen[w] {
			return
		}
		seen[w] = true
		post := ix.post[w]
		if len(post) == 0 {
			return
		}
		idf := math.Log(1 + (n-float64(len(post))+0.5)/(float64(len(post))+0.5))
		for _, p := range post {
			tf := float64(p.tf)
			norm := tf * (k1 + 1) / (tf + k1*(1-b+b*float64(ix.lens[p.doc])/ix.avg))
			scores[p.doc] += idf * norm
		}
	})
	hits := make([]Hit, 0, len(scores))
	for d, sc := range scores {
		p := ix.passages[d]
		if len(files) > 0 && !slices.Contains(files, p.File) {
			continue
		}
		hits = append(hits, Hit{Passage: p, Score: sc})
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Where(), b.Where())
	})
	return hits[:min(k, len(hits))]
}
