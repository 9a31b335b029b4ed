package agent

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"sync"
	"time"

	"hearth/backend/agent/prompt"
	"hearth/backend/i18n"
	"hearth/backend/llm"
)

// Attachment is the record of a file attached to a user message.
type Attachment = llm.Attachment

// AttachFunc returns the attachment block for a turn's user message of text (its
// own files in current), of at most roomTokens, and a note per file.
type AttachFunc func(ctx context.Context, sessionID, text string, current []Attachment, roomTokens int) (string, []i18n.Message)

// PromptContext is the one ContextBuilder of the app: it puts each request together
// from explicit inputs, each given as a plain function when it is made —
//
//   - System: the persona files, MEMORY.md and the skills (the cached system prompt);
//   - Window: how many recent turns a session's requests keep (the heartbeat's
//     chat keeps few; 0 keeps all, the budget decides);
//   - Recall: the recalled-history block for the turn's user message (put before
//     it when there is room: it is the first thing a small window leaves out);
//   - the runtime line (time, channel) on the current user message;
//
// then compacts old tool results and fits the whole to the window with the
// estimator. Building has no side effects: nothing is started, nothing is written.
type PromptContext struct {
	System    func() (string, error)
	Estimator *prompt.Estimator
	// Window returns the turns kept for a session (0: all); nil keeps all.
	Window func(sessionID string) int
	// Recall returns the block to put before the turn's user message ("" for none),
	// of at most roomTokens (what the window leaves it, prompt.RecallRoom); nil
	// recalls nothing.
	Recall func(ctx context.Context, sessionID, text string, roomTokens int) string
	// Attach returns the attachment block for the turn's user message (its own
	// files whole or searched, or the chat's files' passages relevant to text),
	// of at most roomTokens, and notes saying what it did per file; nil attaches
	// nothing. It goes before the recall block and takes its room first.
	Attach AttachFunc
	// AttachTools are offered only in a chat with attachments (attachment_search,
	// read_attachment): every other chat's requests stay as small as before.
	AttachTools []string
	// TZ is the zone of the runtime context's clock; nil means Local.
	TZ *time.Location
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Keep is how many recent tool results stay in full (default 10).
	Keep int

	mu      sync.Mutex
	systems map[string]runSystem // by session id (one run per session at a time)
}

// runSystem is the system prompt a run was given.
type runSystem struct {
	runID, text string
	err         error
}

// maxRunSystems bounds the runs whose system prompt is kept; a session's
// next run replaces its entry, so only many sessions at once reach it.
const maxRunSystems = 64

// system is the run's system prompt: built for its first request and kept
// for the others. A run sees one persona and one MEMORY.md from start to end
// (what the agent writes to memory during the run is in its history, and
// the next turn's prompt shows it), the server's prompt cache keeps the
// unchanged prefix, and a tool round does not stat every workspace file.
func (p *PromptContext) system(sessionID, runID string) (runSystem, error) {
	if runID == "" {
		text, err := p.System()
		return runSystem{text: text}, err
	}
	p.mu.Lock()
	rs, ok := p.systems[sessionID]
	p.mu.Unlock()
	if ok && rs.runID == runID {
		return rs, rs.err
	}
	text, err := p.System()
	rs = runSystem{runID: runID, text: text, err: err}
	p.mu.Lock()
	if p.systems == nil || len(p.systems) >= maxRunSystems {
		p.systems = map[string]runSystem{}
	}
	p.systems[sessionID] = rs
	p.mu.Unlock()
	return rs, err
}

// Build implements ContextBuilder. The stored history stays as the user typed it;
// the recall block and the runtime line go on the copy sent, on the current turn's
// user message only.
func (p *PromptContext) Build(ctx context.Context, in ContextInput) (ContextOutput, error) {
	var out ContextOutput
	rs, err := p.system(in.SessionID, in.RunID)
	system := rs.text
	if err != nil {
		// One unreadable file is left out of the prompt; chat goes on.
		out.Notices = append(out.Notices, i18n.M("notice.promptUnreadable", "error", err.Error()))
	}
	cut := 0
	if p.Window != nil {
		cut = windowStart(in.History, p.Window(in.SessionID))
	}
	in.Tools = p.toolsFor(in.History, in.Tools)
	counter := p.Estimator.Counter(in.Model)
	// Only the part of a long chat that could still fit is copied and
	// compacted: what a turn costs follows what it sends, not the chat's length.
	reach := cut + counter.Reach(in.History[cut:], in.ContextLimit)
	keep := p.Keep
	if keep <= 0 {
		keep = prompt.KeepToolResults
	}
	msgs := prompt.CompactToolResults(in.History[reach:], keep) // a copy
	now := time.Now
	if p.Now != nil {
		now = p.Now
	}
	recall := ""
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != llm.RoleUser {
			continue
		}
		text := msgs[i].Content
		msgs[i].Content = prompt.AppendRuntimeContext(msgs[i].Content, now(), p.TZ, in.Channel)
		if p.Recall != nil || p.Attach != nil {
			room := counter.RecallRoom(prompt.Request{System: system, Tools: in.Tools, History: msgs,
				Window: in.ContextLimit, Reply: in.ReplyTokens})
			attached := ""
			if p.Attach != nil {
				var notes []i18n.Message
				attached, notes = p.Attach(ctx, in.SessionID, text, msgs[i].Attachments, room)
				out.Notes = notes
				if attached != "" {
					room = max(0, room-prompt.EstimateText(attached))
				}
			}
			if p.Recall != nil {
				recall = p.Recall(ctx, in.SessionID, text, room)
			}
			recall = joinBlocks(attached, recall)
		}
		break
	}
	fit, err := counter.Fit(prompt.Request{System: system, Tools: in.Tools, History: msgs,
		Recall: recall, Window: in.ContextLimit, Reply: in.ReplyTokens})
	if err != nil {
		return out, OverflowError(err, in)
	}
	out.Messages = fit.Messages // Fit's own copy, with room for the system prompt
	if system != "" {
		out.Messages = slices.Insert(out.Messages, 0, llm.Message{Role: llm.RoleSystem, Content: system})
	}
	// The turns the window keeps but that could not fit are left out as Fit
	// would have left them.
	for _, m := range in.History[cut:reach] {
		if m.Role == llm.RoleUser {
			fit.Shed.Turns++
		}
	}
	out.EstimatedTokens, out.FirstKept = fit.RawTokens, reach+fit.FirstKept
	out.Tokens = fit.Tokens
	out.LeftOutTurns = fit.Shed.Turns
	out.Tools, out.ReplyTokens, out.Shed = fit.Tools, fit.Reply, fit.Shed
	out.TurnRoom = fit.TurnRoom
	return out, nil
}

// toolsFor leaves the attachment tools out of defs when no message of history
// has attachments.
func (p *PromptContext) toolsFor(history []llm.Message, defs []llm.ToolDef) []llm.ToolDef {
	if len(p.AttachTools) == 0 || slices.ContainsFunc(history, func(m llm.Message) bool { return len(m.Attachments) > 0 }) {
		return defs
	}
	if !slices.ContainsFunc(defs, func(d llm.ToolDef) bool { return slices.Contains(p.AttachTools, d.Name) }) {
		return defs
	}
	return slices.DeleteFunc(slices.Clone(defs), func(d llm.ToolDef) bool { return slices.Contains(p.AttachTools, d.Name) })
}

// joinBlocks puts the attachment block before the recall block.
func joinBlocks(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n\n" + b
}

// windowStart is the index of the first message of the last turns user turns
// (0 when turns is 0 or the history is shorter).
func windowStart(history []llm.Message, turns int) int {
	if turns <= 0 {
		return 0
	}
	users := 0
	for i := len(history) - 1; i >= 0; i-- {
		if history[i].Role == llm.RoleUser {
			if users++; users == turns {
				return i
			}
		}
	}
	return 0
}

// OverflowError turns prompt.Fit's failure into the run's context_overflow
// error, with what would work with this model as the hint. Other errors pass through.
func OverflowError(err error, in ContextInput) error {
	var nr *prompt.NoRoomError
	if !errors.As(err, &nr) {
		return err
	}
	why := i18n.M("error.noRoom", "limit", strconv.Itoa(in.ContextLimit)).WithHint(nr.AdviceText(in.ModelContext)...)
	return &llm.Error{Kind: llm.KindContextOverflow, Message: why.Text.String(), Hint: why.HintString(), Err: err, Why: why}
}
