package prompt

import (
	"errors"
	"slices"

	"hearth/backend/llm"
)

// ErrNoRoom says a request cannot fit the context window even with
// everything optional left out. Fit returns it inside a *NoRoomError, which
// gives the figures and what would work instead.
var ErrNoRoom = errors.New("context window too small")

// minKeepTokens is the least a truncated message keeps of its content: below
// that a cut message says nothing useful and the request should fail instead.
const minKeepTokens = 48

// MinReplyFloor is the smallest reply reserve Fit lowers the reply limit to
// (unless the reply limit itself is smaller): below it even a short answer
// with one tool call is cut off.
const MinReplyFloor = 256

// ReplyFloor is the reply reserve Fit keeps however tight the window: a
// quarter of the window, at least MinReplyFloor, never more than asked for.
// A reply reserve of half a small window (2048 of 4096) would leave too
// little for the prompt; less than a quarter cuts off ordinary answers.
func ReplyFloor(window, reply int) int {
	return min(reply, max(window/4, MinReplyFloor))
}

// Request is what Fit fits into a context window.
type Request struct {
	// System is the system prompt; it is always sent whole.
	System string
	// Tools are the tools offered, in the order to send them.
	Tools []llm.ToolDef
	// History is the conversation; its current turn starts at the last user
	// message.
	History []llm.Message
	// Recall is an optional block (recalled memory) put before the current
	// user message when there is room.
	Recall string
	// Window is the context window in tokens; Reply the reply limit wanted.
	Window, Reply int
}

// Fit is a request fitted to the context window.
type Fit struct {
	// Messages are the messages to send after the system prompt: a suffix of
	// the history starting at a turn boundary, without the reasoning of
	// earlier turns, possibly with the current turn's content shortened and
	// the recall block before its user message. They are copies; the
	// history is not modified.
	Messages []llm.Message
	// Tools are the tools to send: all of Request.Tools, or fewer, or some
	// in their short form (Shed says which).
	Tools []llm.ToolDef
	// Reply is the reply reserve kept: the reply limit to ask the provider
	// for (num_predict), at most Request.Reply.
	Reply int
	// Dropped is how many of the oldest history messages were left out, and
	// FirstKept the history index of Messages[0] (they are equal because only
	// whole turns are dropped from the front). The agent consolidates
	// history[:FirstKept] into memory so they are not lost unseen.
	Dropped   int
	FirstKept int
	// Omitted counts tool results of the current turn replaced by their
	// placeholder, and Truncated is set when the current turn lost its
	// reasoning or had the middle of a message cut.
	Omitted   int
	Truncated bool
	// Tokens is the calibrated estimate of the whole request (system prompt,
	// tools and Messages); it is at most Budget.
	Tokens int
	// RawTokens is the same estimate before calibration: the figure to pass to
	// Estimator.Observe with the provider's reported prompt tokens.
	RawTokens int
	// Budget is Window − Reply − the safety margin.
	Budget int
	// Shed says what was left out or shortened to fit.
	Shed Shed
	// TurnRoom is what the budget at the reply floor leaves after the system
	// prompt, the tools and the current turn as sent: the most this turn's
	// next tool results can take with older turns left out for them (the
	// current turn is never left out). memory_search sizes its answer to it.
	TurnRoom int
}

// Shed records what Fit left out or shortened, in the fit order (see Fit).
// The zero value means the whole request fitted.
type Shed struct {
	// ReplyFrom is the reply limit asked for when Fit lowered it (Fit.Reply
	// is the new one); 0 when it was kept.
	ReplyFrom int `json:"replyFrom,omitempty"`
	// Recall is set when the recall block was left out.
	Recall bool `json:"recall,omitempty"`
	// Turns counts the older turns (user messages) left out.
	Turns int `json:"turns,omitempty"`
	// Shortened names the tools sent in their short form.
	Shortened []string `json:"shortened,omitempty"`
	// Tools names the tools left out, least likely needed first.
	Tools []string `json:"tools,omitempty"`
	// CurrentTurn is set when the current turn itself was cut (older tool
	// results of it replaced by placeholders, reasoning or the middle of a
	// long message left out).
	CurrentTurn bool `json:"currentTurn,omitempty"`
}

// Merge is what two requests left out together (the requests of one run):
// the larger count, the union of names, either flag.
func (s Shed) Merge(o Shed) Shed {
	union := func(a, b []string) []string {
		out := a
		for _, n := range b {
			if !slices.Contains(out, n) {
				out = append(out[:len(out):len(out)], n)
			}
		}
		return out
	}
	return Shed{ReplyFrom: max(s.ReplyFrom, o.ReplyFrom), Recall: s.Recall || o.Recall, Turns: max(s.Turns, o.Turns),
		Shortened: union(s.Shortened, o.Shortened), Tools: union(s.Tools, o.Tools), CurrentTurn: s.CurrentTurn || o.CurrentTurn}
}

// sendable is a history message as Fit sends it. The reasoning of earlier
// turns is left out: reasoning models are trained without it (Qwen3's and
// DeepSeek-R1's templates drop it, their guides say not to send it back), and
// counting thousands of thinking tokens that a template then drops would cut
// history for nothing. Within the current turn it stays, because the model is
// still acting on it between tool calls.
func sendable(m llm.Message, earlierTurn bool) llm.Message {
	if earlierTurn {
		m.Reasoning = ""
	}
	return m
}

// safetyMargin is kept free below the budget because estimates are averages:
// a run of code or numbers tokenizes denser than prose.
func safetyMargin(avail int) int { return avail/25 + 16 }

// budgetFor is the prompt budget of a window with reply tokens reserved.
func budgetFor(window, reply int) int {
	avail := window - reply
	return avail - safetyMargin(avail)
}

// Fit makes the request fit Window − Reply with a small margin by leaving
// out optional parts in a fixed order, each only as far as needed:
//
//  1. the reply reserve, down to ReplyFloor;
//  2. older history, oldest whole turns first (a turn is a user message and
//     everything up to the next one, so a tool call travels with its
//     results), as far as a recall block of at most longChatRecall needs:
//     what it brings back of the past is worth more than the oldest turns,
//     which consolidation keeps in memory anyway;
//  3. the recall block, when the current turn does not fit beside it, or
//     when it is bigger than longChatRecall and older turns had to go;
//  4. long tool descriptions: tools are sent in their short form, the
//     biggest saving first;
//  5. tools least likely needed for this message (never the core tools,
//     see IsCoreTool, nor a tool already called in this turn);
//  6. the current turn itself: its older tool results become placeholders,
//     its reasoning is left out, then the middle of its largest contents is
//     cut, saying so in the text.
//
// Room left over goes back to the reply reserve. If even that cannot fit,
// Fit returns a *NoRoomError (wrapping ErrNoRoom) and no messages: it never
// returns a request that overflows by its own estimate. Its cost grows with
// what is sent, and only trivially (a scan of roles) with the length of the
// history: messages older than the first that does not fit are never
// estimated.
func (c Counter) Fit(req Request) (Fit, error) {
	f := &fitter{c: c, req: req, hist: req.History}
	f.last = 0 // start of the current turn; a history without a user message is all current turn
	for i := len(f.hist) - 1; i >= 0; i-- {
		if f.hist[i].Role == llm.RoleUser {
			f.last = i
			break
		}
	}
	f.recall = req.Recall != "" && len(f.hist) > 0 && f.hist[f.last].Role == llm.RoleUser
	f.raw, f.tok = make([]int, len(f.hist)), make([]int, len(f.hist))
	f.next = len(f.hist) - 1
	f.tools = append([]llm.ToolDef(nil), req.Tools...)
	f.sysRaw = EstimateText(req.System)
	var shed Shed

	floor := ReplyFloor(req.Window, req.Reply)
	budget := budgetFor(req.Window, floor)
	// Steps 1 to 3: everything at the reply floor, with the recall block
	// and then without; the reply reserve takes back the room left. Step 2
	// happens in the pass: it keeps the longest suffix of whole turns that
	// fits beside the block.
	p := f.pass(budget)
	if f.recall && (!p.fits || (p.cut && f.recallTok() > longChatRecall(budget))) {
		f.recall = false
		shed.Recall = true
		p = f.pass(budget)
	}
	// If even the current turn alone did not fit, go on.
	if !p.fits {
		f.shortenTools(budget, p.sum)
		shed.Shortened = f.shortened
		if f.fixedTok()+p.sum > budget {
			shed.Tools = f.dropTools(budget, p.sum)
			// Shortened names only tools still sent.
			shed.Shortened = slices.DeleteFunc(shed.Shortened, func(n string) bool { return slices.Contains(shed.Tools, n) })
		}
	}
	out := f.result(p)
	out.Shed = shed
	out.Shed.Turns = countUsers(f.hist[:out.Dropped])
	if !p.fits && out.Tokens > budget {
		// Step 6: the current turn is all that is left to cut.
		out.Budget = budget
		if err := c.shrink(&out, f.tok[p.start:], f.raw[p.start:]); err != nil {
			// out.Tokens is now the smallest request Fit can make.
			return Fit{Budget: budget}, f.noRoom(floor, out.Tokens)
		}
		out.Shed.CurrentTurn = true
	}
	out.TurnRoom = max(0, budget-f.fixedTok()-f.turnTok(out.Messages))
	out.Reply = f.replyFor(out.Tokens, floor)
	out.Budget = budgetFor(req.Window, out.Reply)
	if out.Reply < req.Reply {
		out.Shed.ReplyFrom = req.Reply
	}
	return out, nil
}

// RecallRoom is the most a recall block for req can take (req.Recall is not
// looked at): the room the budget at the reply floor leaves after the system
// prompt, the tools and the whole history, halved so that this turn's tool
// results still fit beside it (in a small window up to recallRoomFloor, at
// most three quarters). When the whole history does not fit (a long chat),
// older turns make way for a block of at most longChatRecall, and no more
// than half what the current turn leaves; 0 when even the current turn does
// not fit.
func (c Counter) RecallRoom(req Request) int {
	req.Recall = ""
	f := &fitter{c: c, req: req, hist: req.History}
	f.raw, f.tok = make([]int, len(f.hist)), make([]int, len(f.hist))
	f.next = len(f.hist) - 1
	f.tools = req.Tools
	f.sysRaw = EstimateText(req.System)
	budget := budgetFor(req.Window, ReplyFloor(req.Window, req.Reply))
	for i := len(f.hist) - 1; i >= 0; i-- {
		if f.hist[i].Role == llm.RoleUser {
			f.last = i
			break
		}
	}
	p := f.pass(budget)
	if p.cut || !p.fits {
		slack := budget - f.fixedTok() - f.turnTok(f.hist)
		return max(0, min(slack/2, longChatRecall(budget)))
	}
	slack := budget - f.fixedTok() - p.sum
	return min(slack*3/4, max(slack/2, recallRoomFloor))
}

// recallRoomFloor is what RecallRoom gives a small window beyond half its
// slack (up to three quarters): a block of two or three passages.
const recallRoomFloor = 1024

// longChatRecall is the most of budget a recall block may take from older
// turns in a chat longer than the window: an eighth (about 600 tokens of an
// 8 192-token window), up to recallRoomFloor. Without it, every chat that
// outgrew its window — the chats with the most past to recall — got no block.
func longChatRecall(budget int) int { return min(budget/8, recallRoomFloor) }

// recallTok is what the recall block adds to the current user message.
func (f *fitter) recallTok() int {
	if !f.recall {
		return 0
	}
	with := f.c.scale(EstimateMessage(f.lastMsg()))
	f.estimate(f.last)
	return max(0, with-f.tok[f.last])
}

// turnTok is the tokens of the current turn in msgs (from its last user
// message on).
func (f *fitter) turnTok(msgs []llm.Message) int {
	sum := 0
	for i := len(msgs) - 1; i >= 0; i-- {
		sum += f.c.Message(msgs[i])
		if msgs[i].Role == llm.RoleUser {
			break
		}
	}
	return sum
}

// fitter is the state of one Fit.
type fitter struct {
	c    Counter
	req  Request
	hist []llm.Message
	last int
	// recall says whether the recall block is still sent.
	recall bool
	// raw and tok are the estimates of history messages, filled from the
	// end down to next+1 as passes need them.
	raw, tok []int
	next     int
	tools    []llm.ToolDef
	sysRaw   int
	// shortened names the tools now in their short form.
	shortened []string
}

// passResult is the suffix of the history one pass keeps.
type passResult struct {
	start int  // history index of the first message kept
	sum   int  // calibrated tokens of hist[start:] (with the recall block if sent)
	cut   bool // older messages were left out for want of room
	fits  bool // fixed part + kept messages fit the budget
}

// estimate fills the estimates of history messages down to index i.
func (f *fitter) estimate(i int) {
	for ; f.next >= i; f.next-- {
		j := f.next
		f.raw[j] = EstimateMessage(sendable(f.hist[j], j < f.last))
		f.tok[j] = f.c.scale(f.raw[j])
	}
}

// lastMsg is the current user message as sent: with the recall block while
// it is kept.
func (f *fitter) lastMsg() llm.Message {
	m := f.hist[f.last]
	if f.recall {
		m.Content = f.req.Recall + "\n\n" + m.Content
	}
	return m
}

// msgTok is the calibrated estimate of history message i as sent.
func (f *fitter) msgTok(i int) int {
	if i == f.last && f.recall {
		return f.c.scale(EstimateMessage(f.lastMsg()))
	}
	f.estimate(i)
	return f.tok[i]
}

func (f *fitter) fixedRaw() (int, int) {
	toolsRaw := EstimateTools(f.tools)
	return requestOverhead + f.sysRaw + toolsRaw, f.c.scale(requestOverhead) + f.c.scale(f.sysRaw) + f.c.scale(toolsRaw)
}

func (f *fitter) fixedTok() int { _, t := f.fixedRaw(); return t }

// pass keeps the longest suffix of the history that starts at a turn
// boundary and fits the budget with the fixed part: the same as dropping
// the oldest turns one by one, in one backward pass. It never drops the
// current turn, the one starting at the last user message.
func (f *fitter) pass(budget int) passResult {
	fixed := f.fixedTok()
	h := f.hist
	start, sum := len(h), 0
	cut := false
	for i := len(h) - 1; i >= 0; i-- {
		sum += f.msgTok(i)
		if i > f.last {
			continue // inside the current turn: not a place to cut
		}
		if i < f.last && fixed+sum > budget {
			cut = true
			sum -= f.msgTok(i)
			break
		}
		// A history that starts inside a turn (a window cut by the session)
		// may start with tool results whose call is gone; providers reject
		// those, so such a fragment is never a place to start.
		if i == f.last || h[i].Role == llm.RoleUser || (i == 0 && h[0].Role != llm.RoleTool) {
			start = i
		}
	}
	// Only a history without any user message can still start with orphan
	// tool results here (they are its current turn): they cannot be sent.
	for start < len(h) && h[start].Role == llm.RoleTool {
		start++
	}
	kept := 0
	for i := start; i < len(h); i++ {
		kept += f.msgTok(i)
	}
	return passResult{start: start, sum: kept, cut: cut, fits: fixed+kept <= budget}
}

// shortenTools puts tools in their short form, the biggest saving first,
// until the fixed part and msgTok tokens of messages fit the budget.
func (f *fitter) shortenTools(budget, msgTok int) {
	type saving struct{ i, by int }
	var ss []saving
	short := make([]llm.ToolDef, len(f.tools))
	for i, t := range f.tools {
		short[i] = shortTool(t)
		if by := f.c.Tools([]llm.ToolDef{t}) - f.c.Tools([]llm.ToolDef{short[i]}); by > 0 {
			ss = append(ss, saving{i, by})
		}
	}
	// Biggest saving first; ties in the order the tools are sent.
	for a := 1; a < len(ss); a++ {
		for b := a; b > 0 && ss[b].by > ss[b-1].by; b-- {
			ss[b], ss[b-1] = ss[b-1], ss[b]
		}
	}
	for _, s := range ss {
		if f.fixedTok()+msgTok <= budget {
			return
		}
		f.tools[s.i] = short[s.i]
		f.shortened = append(f.shortened, f.tools[s.i].Name)
	}
}

// dropTools leaves out the tools least likely needed, one at a time, until
// the fixed part and msgTok tokens fit; it returns their names.
func (f *fitter) dropTools(budget, msgTok int) []string {
	rank := toolRank(f.tools, f.hist[f.last:])
	gone := map[int]bool{}
	var names []string
	for k := len(rank) - 1; k >= 0; k-- {
		keep := make([]llm.ToolDef, 0, len(f.tools))
		for i, t := range f.tools {
			if !gone[i] {
				keep = append(keep, t)
			}
		}
		if f.c.Tools(keep)+f.c.scale(requestOverhead)+f.c.scale(f.sysRaw)+msgTok <= budget {
			break
		}
		gone[rank[k]] = true
		names = append(names, f.tools[rank[k]].Name)
	}
	keep := make([]llm.ToolDef, 0, len(f.tools))
	for i, t := range f.tools {
		if !gone[i] {
			keep = append(keep, t)
		}
	}
	f.tools = keep
	return names
}

// result builds the Fit of the history suffix p keeps.
func (f *fitter) result(p passResult) Fit {
	h := f.hist
	// Room for one more: the caller puts the system prompt first.
	msgs := make([]llm.Message, len(h)-p.start, len(h)-p.start+1)
	raw := 0
	for i := range msgs {
		j := p.start + i
		msgs[i] = sendable(h[j], j < f.last)
		if j == f.last && f.recall {
			msgs[i] = f.lastMsg()
			raw += EstimateMessage(msgs[i])
			// Keep the per-message arrays in step with what is sent, for
			// shrink.
			f.raw[j], f.tok[j] = EstimateMessage(msgs[i]), f.c.scale(EstimateMessage(msgs[i]))
			continue
		}
		f.estimate(j)
		raw += f.raw[j]
	}
	fixedRaw, fixedTok := f.fixedRaw()
	tools := f.tools
	if tools == nil && f.req.Tools != nil {
		tools = []llm.ToolDef{}
	}
	return Fit{Messages: msgs, Tools: tools, Dropped: p.start, FirstKept: p.start,
		Tokens: fixedTok + p.sum, RawTokens: fixedRaw + raw}
}

// replyFor is the largest reply reserve, from floor up to the one asked for,
// that leaves room for tokens.
func (f *fitter) replyFor(tokens, floor int) int {
	lo, hi := floor, max(f.req.Reply, floor)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if tokens <= budgetFor(f.req.Window, mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

func countUsers(msgs []llm.Message) int {
	n := 0
	for _, m := range msgs {
		if m.Role == llm.RoleUser {
			n++
		}
	}
	return n
}
