package recall

import (
	"cmp"
	"context"
	"strconv"
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
	// Hide leaves sources out of the block (the knowledge folders searched only
	// when the model asks, memory_search); nil hides none.
	Hide func(source string) bool

	mu    sync.Mutex
	cache map[string]cachedBlock // session → block of its current turn
}

type cachedBlock struct {
	key, text string
}

// defaultBlockChars sizes a block asked for without a room (For) when
// MaxChars sets no limit.
const defaultBlockChars = 1500

// For returns the block for text, the user's message in session sessionID ("" when
// the block is off or nothing scores high enough), of at most MaxChars
// (defaultBlockChars when 0).
func (r *Recaller) For(ctx context.Context, sessionID, text string) string {
	return r.sized(ctx, sessionID, text, cmp.Or(r.Block.MaxChars, defaultBlockChars))
}

// ForRoom is For within roomTokens, what the context window leaves the block
// (prompt.Counter.RecallRoom): MaxChars, when set, bounds it further. No room,
// no block.
func (r *Recaller) ForRoom(ctx context.Context, sessionID, text string, roomTokens int) string {
	chars := roomTokens * bytesPerToken * 9 / 10 // the estimate is an average
	if r.Block.MaxChars > 0 {
		chars = min(chars, r.Block.MaxChars)
	}
	if chars < minPassage+len(BlockHeader)+len(BlockFooter) {
		return ""
	}
	return r.sized(ctx, sessionID, text, chars)
}

func (r *Recaller) sized(ctx context.Context, sessionID, text string, maxChars int) string {
	if !r.Block.Enabled || r.Index == nil {
		return ""
	}
	key := contentHash([]byte(text)) + ":" + strconv.Itoa(maxChars)
	r.mu.Lock()
	if c, ok := r.cache[sessionID]; ok && c.key == key {
		r.mu.Unlock()
		return c.text
	}
	r.mu.Unlock()
	b := r.search(ctx, sessionID, text, maxChars)
	r.mu.Lock()
	if r.cache == nil {
		r.cache = map[string]cachedBlock{}
	}
	r.cache[sessionID] = cachedBlock{key: key, text: b}
	r.mu.Unlock()
	return b
}

func (r *Recaller) search(ctx context.Context, sessionID, text string, maxChars int) string {
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
	// About as many hits as fill the block at their passages' size, and a
	// few that a shorter hit may replace; a half more, that a block cut
	// shorter holds (formatBlock), up to blockHits.
	per := blockHitBytes(maxChars)
	k := max(10, maxChars/per+5, min(maxChars*3/2/per+5, blockHits))
	res, err := r.Index.Find(ctx, Query{Text: q, K: k, MinScore: r.Block.MinScore, Skip: hiding(InPrompt(sessionID, from), r.Hide),
		SkipSources: InPromptSources(sessionID, true), Distinct: true, NoMore: true, Likings: likingsFor(maxChars)})
	if err != nil {
		return ""
	}
	return formatBlock(res.Hits, res.cut, res.intent, maxChars)
}

// InPromptSources are the sources InPrompt(sessionID, …) may leave chunks
// of; files says whether the system prompt's files are among them.
func InPromptSources(sessionID string, files bool) []string {
	var out []string
	if files {
		out = append(out, MemoryFile, userProfile)
	}
	if sessionID != "" {
		out = append(out, "sessions/"+sessionID)
	}
	return out
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

// likingsFor is how many of the user's liking statements a block or
// memory_search of roomBytes adds for a question asking what the user
// would like (likings.go): a sentence each, about a fifth of the room in
// all (a statement and its source line are about 120 bytes), from 2 to 12.
func likingsFor(roomBytes int) int { return min(max(roomBytes/600, 2), 12) }

// blockPerHit is the most of one chunk the block shows: the lines around the
// message's words, so that several hits fit.
const blockPerHit = 400

// blockHitBytes is the most of one chunk a block of maxChars shows: a
// twelfth of a small block (a sixth held a quarter fewer hits at a 4 096
// window, and the pieces of a question asked about two things are often
// the sixth and tenth hits), at most blockPerHit.
func blockHitBytes(maxChars int) int { return min(max(maxChars/12, minPassage), blockPerHit) }

// vectorFloor drops a hit found by meaning alone (no word of the message in
// it) far below the best hit: how similar unrelated texts look differs from
// one embedding model to the next, so a vector-only hit has no absolute
// scale. Hits holding the message's words are judged by their score alone.
const vectorFloor = 0.6

// formatBlock renders distinct hits (best first) as the block, up to maxChars
// in all (0: no limit): each line dated and sourced, cut to a passage around
// terms (the query's words and those they bring, as the search found them)
// of at most blockHitBytes, the last one to what is left. When that leaves
// hits out, the hits after the first blockWhole are cut shorter, to about an
// equal share of the room left, if more of them then fit: a small window's
// block holds the lines that matched of more hits rather than the context
// of a few.
// Vector-only hits under vectorFloor of the best are left out. No hit, no
// block.
func formatBlock(hits []Hit, terms []string, in intent, maxChars int) string {
	top := 0.0
	for _, h := range hits {
		top = max(top, h.Score)
	}
	shown := make([]Hit, 0, len(hits))
	for _, h := range hits {
		if h.Mode != ModeVector || h.Score >= vectorFloor*top {
			shown = append(shown, h)
		}
	}
	per := blockHitBytes(maxChars)
	text, n, all := layoutBlock(shown, terms, in, maxChars, per)
	if room := maxChars - len(BlockHeader) - len(BlockFooter) - 2; !all && n > 0 {
		// About 30 bytes a hit for its source line.
		if short := max(minPassage, (room-blockWhole*per)/max(1, len(shown)-blockWhole)-30); short < per {
			if t, m, _ := layoutBlock(shown, terms, in, maxChars, short); m > n {
				text, n = t, m
			}
		}
	}
	if n == 0 {
		return ""
	}
	return BlockHeader + "\n" + text + BlockFooter
}

// blockHits bounds the hits a block's search asks for beyond what fill it
// at their usual cut: each more costs the search (BenchmarkRecallLatency's
// block, the room of a 7 000-byte block, asks for 22).
const blockHits = 22

// blockWhole is how many of the best hits keep blockHitBytes when the rest
// are cut shorter.
const blockWhole = 3

// layoutBlock is the block's lines for hits, the first blockWhole cut to
// blockHitBytes and the others to perHit bytes:
// their text, how many hits it holds, and whether that is all of them.
func layoutBlock(hits []Hit, terms []string, in intent, maxChars, perHit int) (string, int, bool) {
	var b strings.Builder
	n := 0
	all := true
	room := maxChars - len(BlockHeader) - len(BlockFooter) - 2
	for _, h := range hits {
		where := hitWhere(h)
		if strings.HasPrefix(where, "sessions/") {
			// A chat's file name says nothing the date does not, and took
			// a tenth of a small block.
			where = "chat"
		}
		if h.Date != "" {
			where += ", " + h.Date
		}
		prefix := "- (" + where + ") "
		text := h.Snippet
		if d, ok := entryStamp(text); ok && d == h.Date {
			text = strings.TrimSpace(text[18:]) // the line says the date already
		}
		per := perHit
		if n < blockWhole {
			per = blockHitBytes(maxChars)
		}
		if maxChars > 0 && len(text) > per {
			text = passage(text, terms, in, per)
		}
		text = strings.Join(strings.Fields(text), " ")
		if maxChars > 0 {
			left := room - b.Len() - len(prefix) - 1
			if left < minPassage && len(text) > left {
				all = false
				continue // a later, shorter hit may fit whole
			}
			if len(text) > left {
				all = false
				text = passage(text, terms, in, left)
			}
		}
		b.WriteString(prefix + text + "\n")
		n++
	}
	return b.String(), n, all
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
