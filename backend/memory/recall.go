package memory

import (
	"context"
	"fmt"
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
	blockSnip   = 300
)

// Recaller finds the "Possibly relevant history" block for a turn's message: the
// best recalled snippets above MinScore. A run builds its request once per model
// call; the search runs once per turn.
type Recaller struct {
	Index *Index
	Block BlockOptions

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
	key := Hash([]byte(text))
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
	res, err := r.Index.Search(ctx, q, 5)
	if err != nil {
		return ""
	}
	return FormatBlock(res.Hits, r.Block.MinScore, r.Block.MaxChars, "sessions/"+sessionID)
}

// relativeFloor drops hits far below the best one: a block of one good
// match beats one padded with weak ones.
const relativeFloor = 0.6

// FormatBlock renders hits scoring at least minScore (and relativeFloor of
// the best hit), up to maxChars in all; hits from skipSource (the chat
// itself) are left out. No hit, no block.
func FormatBlock(hits []Hit, minScore float64, maxChars int, skipSource string) string {
	var b strings.Builder
	n := 0
	top := 0.0
	for _, h := range hits {
		top = max(top, h.Score)
	}
	for _, h := range hits {
		if h.Score < minScore || h.Score < relativeFloor*top || h.Source == skipSource {
			continue
		}
		where := h.Source
		if h.Date != "" {
			where += ", " + h.Date
		}
		line := fmt.Sprintf("- (%s) %s\n", where, strings.Join(strings.Fields(clip(h.Snippet, blockSnip)), " "))
		if maxChars > 0 && len(BlockHeader)+len(BlockFooter)+b.Len()+len(line)+2 > maxChars {
			break
		}
		b.WriteString(line)
		n++
	}
	if n == 0 {
		return ""
	}
	return BlockHeader + "\n" + b.String() + BlockFooter
}
