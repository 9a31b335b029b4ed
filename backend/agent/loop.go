package agent

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"hearth/backend/agent/prompt"
	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/llm"
	"hearth/backend/session"
)

// loop is the state of one run.
type loop struct {
	r       *Runner
	run     *Run
	req     Request
	ctx     context.Context
	em      *emitter
	t       Tuning // read once, when the run starts
	started time.Time
	cont    bool

	model     string // configured name, e.g. "ollama/qwen3:4b"
	provider  llm.Provider
	provModel string
	limit     int               // the window requests are fitted to (num_ctx)
	modelMax  int               // the model's own maximum window, 0 when unknown
	noTools   bool              // the model cannot call tools: send no schemas
	damaged   []session.Warning // lines of the chat's file that were worked around
	reply     int               // the reply limit of the last request
	shed      prompt.Shed       // what the run's requests left out to fit
	history   []llm.Message

	callSeq   int
	usage     llm.Usage
	leftOut   int
	firstKept int // of the last request built
	built     int // history length of the last request built
	turnRoom  int // tokens this turn's tool results can still take (ContextOutput.TurnRoom)
	noticed   map[string]bool
	notes     []event.NoticeData // the attachment notes told, kept on the run line
	guard     map[string]int
	finalMsg  *llm.Message // the assistant message that ends the run
	ended     string       // the budget that ended the run (budget.go), if one did
	waited    atomic.Int64 // time spent waiting at the Gate (for approvals), kept out of the time budget

	next     []string    // fallbacks still to try (fallback.go)
	answered bool        // the user saw part of an answer: no fallback any more
	watch    *firstWatch // the request waiting for its first token, if bounded
}

// runError is a run failure with what the error event says.
type runError struct {
	code string
	why  i18n.Problem
	err  error
}

func (e *runError) Error() string { return e.why.Text.String() }
func (e *runError) Unwrap() error { return e.err }

// prepare checkpoints the user message before anything else can fail
// (docs/design/agent-loop.md#checkpoints): once Start returns, the message is on disk.
func (l *loop) prepare() error {
	st := l.r.opts.Store
	id := l.run.SessionID
	if _, err := st.Ensure(session.CreateOptions{ID: id, Model: l.req.ChatModel}); err != nil {
		return fmt.Errorf("start run: %w", err)
	}
	sess, err := st.LoadConversation(id)
	if err != nil {
		return fmt.Errorf("start run: %w", err)
	}
	// A new message means the user moved on from an interrupted run.
	for _, in := range sess.Interrupted {
		if err := st.CloseInterrupted(id, in.RunID); err != nil {
			return fmt.Errorf("start run: %w", err)
		}
	}
	l.model = cmp.Or(l.req.Model, sess.Meta.Model, l.t.DefaultModel)
	l.damaged = sess.Warnings
	if l.req.revisits() {
		// Going back over the chat needs its entries and runs, not only the messages.
		full, err := st.Load(id)
		if err != nil {
			return fmt.Errorf("start run: %w", err)
		}
		switch {
		case l.req.Again:
			return l.prepareAgain(full)
		case l.req.Resume:
			return l.prepareResume(full)
		}
		if err := l.rewindForEdit(full); err != nil {
			return err
		}
		sess.Messages = full.Messages()
	}
	if len(l.req.Images) > 0 {
		if err := l.prepareImages(); err != nil {
			return err
		}
	}
	user := llm.Message{Role: llm.RoleUser, Content: l.req.Text, Images: l.req.Images, Attachments: l.req.Attachments}
	if err := st.Append(id, session.MessageRecord(l.run.ID, user)); err != nil {
		return fmt.Errorf("start run: save your message: %w", err)
	}
	if err := st.Sync(id); err != nil {
		return fmt.Errorf("start run: save your message: %w", err)
	}
	l.history = append(sess.Messages, user) // it has room for one more
	return nil
}

// prepareContinue picks up the session's last interrupted run.
func (l *loop) prepareContinue() error {
	l.cont = true
	sess, err := l.r.opts.Store.LoadConversation(l.run.SessionID)
	if err != nil {
		return fmt.Errorf("continue: %w", err)
	}
	if len(sess.Interrupted) == 0 {
		return fmt.Errorf("continue session %s: %w (hint: no run of this session was interrupted)", l.run.SessionID, ErrNothingToContinue)
	}
	in := sess.Interrupted[len(sess.Interrupted)-1]
	l.run.ID = in.RunID
	l.model = cmp.Or(l.req.Model, sess.Meta.Model, l.t.DefaultModel)
	l.history = sess.Messages
	return nil
}

// execute runs the loop and always ends with exactly one run_finished.
func (l *loop) execute() (res Result) {
	l.noticed, l.guard = map[string]bool{}, map[string]int{}
	l.em.emit(event.RunStarted, event.StartedData{Model: l.model, Continued: l.cont})
	for _, n := range l.req.Notices {
		l.em.say(event.LevelWarning, n)
	}
	if len(l.damaged) > 0 && l.r.newDamage(l.run.SessionID, len(l.damaged)) {
		w := l.damaged[len(l.damaged)-1]
		l.em.say(event.LevelWarning, i18n.M("notice.damagedChat", "count", strconv.Itoa(len(l.damaged)),
			"line", strconv.Itoa(w.Line), "problem", w.Message))
	}
	defer func() {
		// A bug in the loop must not take the app down or leave the UI
		// waiting for run_finished.
		if p := recover(); p != nil {
			res = l.finish("", &runError{code: event.CodeInternal, why: i18n.P("error.internal.panic", "detail", fmt.Sprint(p))})
		}
	}()
	final, err := l.body()
	return l.finish(final, err)
}

func (l *loop) body() (string, error) {
	l.next = l.chain()
	if err := l.resolveChain(); err != nil {
		return "", err
	}
	if last := l.history[len(l.history)-1]; last.Role == llm.RoleAssistant && len(last.ToolCalls) == 0 && !l.req.Resume {
		return last.Content, nil // a continued run that had already answered
	}
	if l.noTools {
		// A model that cannot call tools gets none, so it has none to wait for.
		if len(l.r.opts.Tools.Definitions()) > 0 {
			l.toolsUnavailable()
		}
	} else if w := l.r.opts.WaitTools; w != nil {
		w(l.ctx, l.em.say)
	}
	for iter := 1; ; iter++ {
		if limit := l.spent(iter - 1); limit != "" {
			return l.summarise(limit)
		}
		l.nearing(iter - 1)
		// A safe point: the last tool results are in, the next request not sent.
		if err := l.steer(); err != nil {
			return l.finalText(), err
		}
		// Read each time: a tool source that connects (or changes its
		// tools) during the run is offered from the next request on.
		defs := toolDefs(l.r.opts.Tools.Definitions())
		if l.noTools {
			defs = nil
		}
		resp, err := l.call(defs)
		if err != nil && l.fallBack(err) {
			if err := l.resolveChain(); err != nil {
				return "", err
			}
			iter-- // the same round, asked of the next model
			continue
		}
		if err != nil {
			return l.partial(resp), err
		}
		l.answered = true
		msg := resp.Message
		if len(msg.ToolCalls) == 0 {
			if resp.FinishReason == llm.FinishLength {
				l.cutOffNotice()
			}
			l.finalMsg = &msg
			return msg.Content, nil
		}
		if err := l.runTools(msg); err != nil {
			return l.finalText(), err
		}
	}
}

// resolve finds the provider and the context window of the run's model. It
// is the one place the window comes from: the configured contextTokens,
// capped at what the model really has.
func (l *loop) resolve() error {
	l.provider = nil
	p, m, err := l.r.opts.Resolve(l.model)
	if err != nil {
		return &runError{code: event.CodeModel, why: i18n.P("error.model.resolve", "model", l.model, "detail", err.Error()), err: err}
	}
	l.provider, l.provModel, l.limit = p, m, l.t.ContextTokens
	// Budget against what the model really has (Ollama caps num_ctx at the
	// model's maximum); the provider caches this, so Chat pays nothing more.
	if sh, ok := p.(llm.ModelShower); ok {
		d, err := sh.Show(l.ctx, m)
		if n, ok := p.(Noticer); ok {
			for _, m := range n.Notices() {
				l.em.say(event.LevelInfo, m)
			}
		}
		if err != nil {
			return err
		}
		l.modelMax = d.ContextLength
		if d.ContextLength > 0 && d.ContextLength < l.limit {
			l.limit = d.ContextLength
		}
		// A model that cannot call tools (Ollama or its fitness check says so)
		// gets no tool schemas: they would only take room in its window.
		l.noTools = len(d.Capabilities) > 0 && !d.Has(llm.CapTools)
	}
	return nil
}

// Noticer is a provider with something to tell the user as its run starts, after
// Show (the models service: it started Ollama, or started it again after it died).
type Noticer interface {
	Notices() []i18n.Message
}

// call builds the context and streams one model reply. extra messages go
// after the built context (the summary instruction). When the provider
// refuses the request as too long although the budget said it fits (a
// tokenizer denser than the estimate), the estimate is raised and the
// request rebuilt smaller, a few times at most, before the error stands.
// A request the builder itself found too big was never sent: raising the
// estimate then would only make it bigger, and stay raised for later runs.
func (l *loop) call(defs []llm.ToolDef, extra ...llm.Message) (llm.Response, error) {
	for attempt := 1; ; attempt++ {
		resp, err := l.callOnce(defs, extra...)
		le, ok := llm.AsError(err)
		var unsent *prompt.NoRoomError
		if !ok || le.Kind != llm.KindContextOverflow || errors.As(err, &unsent) || attempt >= 4 || l.r.opts.Estimator == nil ||
			resp.Message.Content != "" || len(resp.Message.ToolCalls) > 0 || !l.r.opts.Estimator.Overflowed(l.model) {
			return resp, err
		}
		if !l.noticed["overflow"] {
			l.noticed["overflow"] = true
			l.em.say(event.LevelInfo, i18n.M("notice.refit", "limit", strconv.Itoa(l.limit)))
		}
	}
}

func (l *loop) callOnce(defs []llm.ToolDef, extra ...llm.Message) (llm.Response, error) {
	out, err := l.r.opts.Context.Build(l.ctx, ContextInput{
		SessionID: l.run.SessionID, RunID: l.run.ID, Model: l.model, History: l.history, Tools: defs,
		ContextLimit: l.limit, ReplyTokens: l.t.MaxTokens, ModelContext: l.modelMax,
		Channel: cmp.Or(l.req.Channel, l.r.opts.Channel),
	})
	if _, ok := llm.AsError(err); ok {
		return llm.Response{}, err // e.g. context_overflow: the message cannot fit at all
	}
	if err != nil {
		return llm.Response{}, &runError{code: event.CodeInternal, why: i18n.P("error.context.build", "detail", err.Error()), err: err}
	}
	for _, n := range out.Notices {
		if key := n.String(); !l.noticed[key] {
			l.noticed[key] = true
			l.em.say(event.LevelWarning, n)
		}
	}
	for _, n := range out.Notes {
		if key := n.String(); !l.noticed[key] {
			l.noticed[key] = true
			l.em.say(event.LevelInfo, n)
			l.notes = append(l.notes, event.NoticeData{Level: event.LevelInfo, Message: n.String(), Code: n.Code, Args: n.Args})
		}
	}
	l.firstKept, l.built, l.turnRoom = out.FirstKept, len(l.history), out.TurnRoom
	if out.LeftOutTurns > l.leftOut {
		l.leftOut = out.LeftOutTurns
	}
	l.shed = l.shed.Merge(out.Shed)
	msgs := out.Messages
	if len(extra) > 0 {
		msgs = append(msgs[:len(msgs):len(msgs)], extra...)
	}
	if out.Tools != nil {
		defs = out.Tools
	}
	l.reply = l.t.MaxTokens
	if out.ReplyTokens > 0 {
		l.reply = out.ReplyTokens
	}
	req := llm.Request{Model: l.provModel, Messages: msgs, Tools: defs, ContextTokens: l.limit,
		MaxTokens: l.reply, Temperature: l.t.Temperature}
	resp, err := l.chat(req)
	if resp.ToolsDropped {
		l.toolsUnavailable()
	}
	if resp.ImagesDropped && !l.noticed["images"] {
		l.noticed["images"] = true
		l.em.say(event.LevelWarning, i18n.M("notice.noImages", "model", l.model))
	}
	if u := resp.Usage; u.PromptTokens > 0 || u.CompletionTokens > 0 {
		l.usage.PromptTokens += u.PromptTokens
		l.usage.CompletionTokens += u.CompletionTokens
		limit := resp.ContextTokens
		if limit <= 0 {
			limit = l.limit
		}
		ud := event.UsageData{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens,
			ContextUsed: u.PromptTokens + u.CompletionTokens, ContextLimit: limit}
		l.r.setUsage(l.run.SessionID, ud)
		l.em.emit(event.Usage, ud)
		if e := l.r.opts.Estimator; e != nil && u.PromptTokens > 0 && out.EstimatedTokens > 0 {
			e.Observe(l.model, out.EstimatedTokens, u.PromptTokens)
		}
	}
	return resp, err
}

// toolsUnavailable says once per chat that the model chats without tools.
func (l *loop) toolsUnavailable() {
	if !l.noticed["tools"] {
		l.noticed["tools"] = true
		if !l.r.firstNoTools(l.run.SessionID, l.model) {
			return // this chat was told by an earlier reply
		}
		l.em.say(event.LevelWarning, i18n.M("notice.noTools", "model", l.model))
	}
}

func (l *loop) onChunk(c llm.Chunk) {
	if w := l.watch; w != nil && !w.see() {
		return // cut off for saying nothing in time: the next model answers
	}
	l.answered = true
	switch c.Kind {
	case llm.ChunkText:
		l.em.emit(event.TextDelta, event.DeltaData{Text: c.Text})
	case llm.ChunkReasoning:
		l.em.emit(event.ReasoningDelta, event.DeltaData{Text: c.Text})
	}
	// Tool calls are announced when they run, with their session-unique ids.
}

// partial keeps what the user already saw of a failed or cancelled reply.
func (l *loop) partial(resp llm.Response) string {
	text := strings.TrimSpace(resp.Message.Content)
	if text != "" {
		l.finalMsg = &llm.Message{Role: llm.RoleAssistant, Content: text, Reasoning: resp.Message.Reasoning}
	}
	return text
}

// summarise makes one final call WITHOUT tools so the user always gets an
// answer when a budget of the turn is spent (never a silent stop:
// docs/design/agent-loop.md#budgets); the run ends well, with limit named for Continue.
func (l *loop) summarise(limit string) (string, error) {
	l.ended = limit
	notice, instruction, reached := l.limitWords(limit)
	l.em.say(event.LevelWarning, notice)
	resp, err := l.call(nil, llm.Message{Role: llm.RoleUser, Content: instruction})
	if err != nil {
		if l.ctx.Err() != nil {
			return l.partial(resp), err
		}
		text := fmt.Sprintf("%s, and could not sum up what I did (%v). Ask me to continue, or split the task into smaller steps.", reached, err)
		l.finalMsg = &llm.Message{Role: llm.RoleAssistant, Content: text}
		l.em.emit(event.TextDelta, event.DeltaData{Text: text})
		return text, nil
	}
	msg := resp.Message
	msg.ToolCalls = nil // nothing was offered; a call printed anyway is not run
	if strings.TrimSpace(msg.Content) == "" {
		msg.Content = reached + ". Ask me to continue, or split the task into smaller steps."
		l.em.emit(event.TextDelta, event.DeltaData{Text: msg.Content})
	}
	l.finalMsg = &msg
	return msg.Content, nil
}
