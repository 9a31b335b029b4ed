package channels

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"hearth/backend/event"
	"hearth/backend/i18n"
)

// typingEvery is how often the typing indicator is renewed while a turn runs
// (Telegram's fades after about five seconds).
const typingEvery = 4 * time.Second

// follower carries one run's events to its chat: the sink only queues (a run
// must never wait for the platform), the follower's goroutine sends.
type follower struct {
	s      *Service
	chatID string
	runID  string

	mu    sync.Mutex
	queue []event.Event
	wake  chan struct{}

	reply      *Reply
	calls      map[string]event.ToolCallData
	lastTyping time.Time
	command    bool // a slash command's run: its reply comes worded in Lines
	asking     int  // approval cards waiting: nobody is "typing" meanwhile
}

// sinkFor is the sink of the turns of a chat: each run gets a follower.
func (s *Service) sinkFor(chatID string) event.Sink {
	return func(ev event.Event) {
		if f := s.follower(chatID, ev.RunID); f != nil {
			f.push(ev)
		}
	}
}

// follower returns the run's follower, starting it on the run's first event.
func (s *Service) follower(chatID, runID string) *follower {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f, ok := s.runs[runID]; ok {
		return f
	}
	if s.closed || s.quit == nil {
		return nil
	}
	f := &follower{s: s, chatID: chatID, runID: runID, wake: make(chan struct{}, 1), calls: map[string]event.ToolCallData{}}
	s.runs[runID] = f
	s.wg.Add(1)
	go f.loop(s.quit)
	return f
}

func (f *follower) push(ev event.Event) {
	f.mu.Lock()
	f.queue = append(f.queue, ev)
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

func (f *follower) take() []event.Event {
	f.mu.Lock()
	defer f.mu.Unlock()
	q := f.queue
	f.queue = nil
	return q
}

func (f *follower) loop(quit <-chan struct{}) {
	s := f.s
	defer s.wg.Done()
	defer func() {
		s.mu.Lock()
		delete(s.runs, f.runID)
		s.mu.Unlock()
	}()
	tick := time.NewTicker(s.opts.Tick)
	defer tick.Stop()
	for {
		select {
		case <-quit:
			f.finish()
			return
		case <-tick.C:
			f.pace()
			continue
		case <-f.wake:
		}
		for _, ev := range f.take() {
			if f.on(ev) {
				return
			}
		}
	}
}

// ctx bounds one call to the platform.
func (f *follower) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), sendTimeout)
}

// ensure makes the reply once the channel is there.
func (f *follower) ensure() *Reply {
	if f.reply == nil {
		ch := f.s.channel()
		if ch == nil {
			return nil
		}
		f.reply = NewReply(ch, f.chatID, editEvery, f.s.opts.Now)
	}
	return f.reply
}

// editEvery is the least time between two edits of one message.
const editEvery = time.Second

// pace is the clock's turn: what waits is shown when an edit is due, and the
// typing indicator is renewed.
func (f *follower) pace() {
	ctx, cancel := f.ctx()
	defer cancel()
	if r := f.ensure(); r != nil {
		r.Tick(ctx)
	}
	f.typing(ctx)
}

func (f *follower) typing(ctx context.Context) {
	if f.asking > 0 {
		return
	}
	now := f.s.opts.Now()
	if !f.lastTyping.IsZero() && now.Sub(f.lastTyping) < typingEvery {
		return
	}
	if ch := f.s.channel(); ch != nil {
		f.lastTyping = now
		_ = ch.Typing(ctx, f.chatID)
	}
}

// on handles one event; it reports the run's end.
func (f *follower) on(ev event.Event) bool {
	ctx, cancel := f.ctx()
	defer cancel()
	r := f.ensure()
	if r == nil {
		if ev.Type == event.RunFinished {
			f.finish()
			return true
		}
		return false
	}
	switch d := ev.Data.(type) {
	case event.StartedData:
		f.command = d.Command != ""
		f.typing(ctx)
	case event.DeltaData:
		if ev.Type != event.TextDelta {
			break
		}
		if len(d.Lines) > 0 {
			r.Write(ctx, f.s.lines(d.Lines))
			break
		}
		r.Write(ctx, d.Text)
	case event.ToolCallData:
		f.calls[d.CallID] = d
		r.Line(ctx, "🔧 "+toolLine(d))
	case event.ApprovalData:
		f.approval(ctx, ev, d)
	case event.ErrorData:
		r.Line(ctx, "⚠️ "+f.s.errorText(d))
	case event.NoticeData:
		if d.Level == event.LevelWarning {
			r.Line(ctx, "ℹ️ "+f.s.noticeLine(d))
		}
	case event.FinishedData:
		if d.Status == event.StatusOK && !r.Sent() && strings.TrimSpace(d.Final) != "" {
			r.Write(ctx, d.Final)
		}
		if d.Status == event.StatusCancelled {
			r.Line(ctx, f.s.say("channels.stopped"))
		}
		f.finish()
		return true
	}
	return false
}

// finish shows the whole answer and settles the run's cards.
func (f *follower) finish() {
	ctx, cancel := f.ctx()
	defer cancel()
	if f.reply != nil {
		f.reply.Close(ctx)
	}
	f.s.dropCards(ctx, f.runID)
}

// lines words a slash command's reply in the phone's language.
func (s *Service) lines(ls []event.Line) string {
	l := s.lang()
	out := make([]string, len(ls))
	for i, line := range ls {
		out[i] = i18n.Message{Code: line.Code, Args: line.Args}.In(l)
	}
	return strings.Join(out, "\n")
}

// errorText is a run's error as one short coded line.
func (s *Service) errorText(d event.ErrorData) string {
	msg := d.Message
	if d.Text != nil {
		msg = i18n.Message{Code: d.Text.Code, Args: d.Text.Args}.In(s.lang())
	}
	return s.say("channels.error.run", "code", d.Code, "detail", firstLine(s.mask(msg, "")))
}

// noticeLine is a warning of the run in the phone's language.
func (s *Service) noticeLine(d event.NoticeData) string {
	if d.Code == "" || len(d.Lists) > 0 {
		return s.mask(d.Message, "")
	}
	return s.mask(i18n.Message{Code: d.Code, Args: d.Args}.In(s.lang()), "")
}

// toolLine is a tool call in a few words: its name and its first argument.
func toolLine(d event.ToolCallData) string {
	var args map[string]any
	_ = json.Unmarshal(d.Args, &args)
	for _, k := range []string{"path", "command", "query", "url", "name", "action", "content"} {
		if v, ok := args[k].(string); ok && strings.TrimSpace(v) != "" {
			return d.Name + " " + clip(oneLine(v), 60)
		}
	}
	return d.Name
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
