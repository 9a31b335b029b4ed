package memory

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"hearth/backend/agent"
	"hearth/backend/llm"
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

// RecallContext wraps the agent's ContextBuilder (F-MEMTOOLS, F-CONSOLIDATE):
// before a turn it offers the best recalled snippets above MinScore, and on
// every request it starts a consolidation when the session is due one and
// reports a failed one as a notice.
type RecallContext struct {
	Inner        agent.ContextBuilder
	Index        *Index
	Consolidator *Consolidator
	Block        BlockOptions

	mu    sync.Mutex
	cache map[string]cachedBlock // session → block of its current turn
}

type cachedBlock struct {
	key, text string
}

var _ agent.Calibrator = (*RecallContext)(nil)

// Calibrate passes the provider's token counts on to the inner builder.
func (r *RecallContext) Calibrate(model string, estimated, reported int) {
	if c, ok := r.Inner.(agent.Calibrator); ok {
		c.Calibrate(model, estimated, reported)
	}
}

// Build implements agent.ContextBuilder.
func (r *RecallContext) Build(ctx context.Context, in agent.ContextInput) (agent.ContextOutput, error) {
	var notices []string
	if r.Consolidator != nil && in.SessionID != "" {
		r.Consolidator.Due(in.SessionID, len(in.History))
		if err := r.Consolidator.TakeFailure(in.SessionID); err != nil {
			notices = append(notices, fmt.Sprintf("Saving older messages of this chat to memory failed: %v. They stay in the chat and saving is tried again later.", err))
		}
	}
	if r.Block.Enabled && r.Index != nil {
		for i := len(in.History) - 1; i >= 0; i-- {
			if in.History[i].Role != llm.RoleUser {
				continue
			}
			// The inner builder puts the block before the message when there
			// is room: it is the first thing left out in a small window.
			in.Recall = r.block(ctx, in.SessionID, i, in.History[i].Content)
			break
		}
	}
	out, err := r.Inner.Build(ctx, in)
	out.Notices = append(notices, out.Notices...)
	return out, err
}

// block searches once per turn (the loop builds a context per model call).
func (r *RecallContext) block(ctx context.Context, sessionID string, idx int, text string) string {
	key := fmt.Sprintf("%d:%s", idx, Hash([]byte(text)))
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

func (r *RecallContext) search(ctx context.Context, sessionID, text string) string {
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
