package recall

import (
	"context"
	"strings"
	"sync"
	"time"
)

// BlockOptions configure the "Possibly relevant history" block
// (agents.defaults.recallBlock).
type BlockOptions struct {
	Enabled  bool
	MinScore float64
	MaxChars int
	// Timeout bounds the search before a turn (default 3 s): a slow
	// embedding model must not hold the answer up.
	Timeout time.Duration
}

// Block texts; the block goes before the user's message of the turn.
const (
	BlockHeader = "[Possibly relevant history, recalled automatically; ignore it if unrelated]"
	BlockFooter = "[End of recalled history]"
)

// Recaller finds the "Possibly relevant history" block for a turn's message: the
// best distinct recalled evidence above MinScore, dated and sourced, filling
// MaxChars. A run builds its request once per model call; the search runs once
// per turn.
type Recaller struct {
	Index *Index
	Block BlockOptions
	// InWindow returns the first message of a chat still in its window (the
	// last request sent), -1 when not known: that part is not recalled into
	// the chat again. Nil leaves the whole current chat out.
	InWindow func(sessionID string) int

	mu    sync.Mutex
	cache map[string]cachedBlock // session → block of its current turn
}

type cachedBlock struct {
	key, text string
}

// For returns the block for text, the user's message in session sessionID ("" when
// the block is off or nothing scores high enough).
func (r *Recaller) For(ctx context.Context, sessionID, text string) string {
	if !r.Block.Enabled || r.Index == nil {
		return ""
	}
	key := contentHash([]byte(text))
	r.mu.Lock()
	if c, ok := r.cache[sessionID]; ok && c.key == key {
		r.mu.Unlock()
		return c.text
	}
	r.mu.Unlock()
	b := r.search(ctx, sessionID, text)
	r.mu.Lock()
	if r.cache == nil {
		r.cache = map[string]cachedBlock{}
	}
	r.cache[sessionID] = cachedBlock{key: key, text: b}
	r.mu.Unlock()
	return b
}

func (r *Recaller) search(ctx context.Context, sessionID, text string) string {
	q := strings.TrimSpace(text)
	if len(q) < 3 || strings.HasPrefix(q, "/") {
		return ""
	}
	if len(q) > 500 {
		q = clip(q, 500)
	}
	timeout := r.Block.Timeout
	if timeout <= 0 {
		timeout = 3 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	from := -1
	if r.InWindow != nil {
		from = r.InWindow(sessionID)
	}
	res, err := r.Index.Find(ctx, Query{Text: q, K: 10, MinScore: r.Block.MinScore, Skip: InPrompt(sessionID, from), Distinct: true})
	if err != nil {
		return ""
	}
	return FormatBlock(res.Hits, q, r.Block.MaxChars)
}

// InPrompt is the Skip of a search made for chat sessionID: the files every
// request carries in its system prompt, and the chat's own messages from
// index from on (from < 0: all of them).
func InPrompt(sessionID string, from int) func(source string, pos int) bool {
	own := "sessions/" + sessionID
	return func(source string, pos int) bool {
		switch {
		case source == MemoryFile || source == userProfile:
			return true
		case sessionID != "" && source == own:
			return from < 0 || pos >= from
		}
		return false
	}
}

// relativeFloor drops hits far below the best one: a block of one good
// match beats one padded with weak ones.
const relativeFloor = 0.6

// FormatBlock renders distinct hits (best first) as the block, up to maxChars
// in all (0: no limit): each line dated and sourced, the last one cut to a
// passage around query's words when it does not fit whole. Hits below
// relativeFloor of the best are left out. No hit, no block.
func FormatBlock(hits []Hit, query string, maxChars int) string {
	var b strings.Builder
	n := 0
	top := 0.0
	for _, h := range hits {
		top = max(top, h.Score)
	}
	terms := uniq(tokenize(query))
	room := maxChars - len(BlockHeader) - len(BlockFooter) - 2
	for _, h := range hits {
		if h.Score < relativeFloor*top {
			continue
		}
		where := h.Source
		if h.Date != "" {
			where += ", " + h.Date
		}
		prefix := "- (" + where + ") "
		text := strings.Join(strings.Fields(h.Snippet), " ")
		if maxChars > 0 {
			left := room - b.Len() - len(prefix) - 1
			if left < minPassage && len(text) > left {
				continue // a later, shorter hit may fit whole
			}
			if len(text) > left {
				text = passage(text, terms, left)
			}
		}
		b.WriteString(prefix + text + "\n")
		n++
	}
	if n == 0 {
		return ""
	}
	return BlockHeader + "\n" + b.String() + BlockFooter
}

// Windows remembers where each chat's window started in its last request, so
// recall leaves out what the model sees anyway.
type Windows struct {
	mu    sync.Mutex
	first map[string]int
}

func (w *Windows) Set(sessionID string, first int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.first == nil {
		w.first = map[string]int{}
	}
	w.first[sessionID] = first
}

// From is the first message of the chat's window, -1 before its first run
// in this process (then the whole chat counts as in the window).
func (w *Windows) From(sessionID string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	if f, ok := w.first[sessionID]; ok {
		return f
	}
	return -1
}
