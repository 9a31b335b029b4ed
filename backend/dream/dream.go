package dream

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"hearth/backend/i18n"
	"hearth/backend/internal/atomicfile"
	"hearth/backend/internal/clip"
	"hearth/backend/internal/safefile"
	"hearth/backend/llm"
	"hearth/backend/memory"
	"hearth/backend/session"
)

// DefaultEvery is how often Dream looks for new history.
const DefaultEvery = 4 * time.Hour

// Options configure a Service. Store, Resolve and Model are required.
type Options struct {
	// Store is the current workspace's memory files (the memory service's).
	Store func() *memory.Store
	// Sessions are the chats; nil leaves recent chats out.
	Sessions *session.Store
	Resolve  func(name string) (llm.Provider, string, error)
	// Model is the model a pass uses (the default chat model).
	Model         func() string
	ContextTokens int
	Budget        Budget
	Every         time.Duration // 0: DefaultEvery
	// Limits, when set, gives the budget and interval at each use instead (the
	// settings, which may change while Hearth runs); zero values take the defaults.
	Limits func() (Budget, time.Duration)
	// Writer saves the edits; nil writes them into the files.
	Writer Writer
	// Done hears every pass's report (the Activity view, the window).
	Done func(Report)
	// Running hears that a pass started (true) and ended (false): the tray lists it
	// with a Stop while it runs.
	Running func(running bool)
	Now     func() time.Time
}

// State is Dream's bookkeeping, kept in dream.json in the workspace's state
// folder (memory.Store.StateDir), out of the workspace.
type State struct {
	Paused  bool      `json:"paused"`
	LastRun time.Time `json:"lastRun,omitzero"`
	// HistoryLen and HistoryHash mark how much of HISTORY.md the last pass read.
	HistoryLen  int     `json:"historyLen"`
	HistoryHash string  `json:"historyHash,omitempty"`
	Last        *Report `json:"last,omitempty"`
}

// Status is what the Reminders view shows of the system job.
type Status struct {
	Paused  bool      `json:"paused"`
	Running bool      `json:"running"`
	Every   string    `json:"every"`
	NextRun time.Time `json:"nextRun,omitzero"`
	Last    *Report   `json:"last,omitempty"`
}

// Service runs Dream passes: on a timer in the process that runs reminders, and on
// request (Run now, `hearth memory dream`). One pass at a time.
type Service struct {
	opts Options

	mu       sync.Mutex
	running  bool
	stopPass context.CancelCauseFunc // the running pass's, for Stop
	cancel   context.CancelFunc
	wg       sync.WaitGroup
}

// New returns the service; nothing runs until Start or RunNow.
func New(opts Options) *Service {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Every <= 0 {
		opts.Every = DefaultEvery
	}
	opts.Budget = opts.Budget.withDefaults()
	return &Service{opts: opts}
}

// limits are the budget of a pass and the time between passes.
func (s *Service) limits() (Budget, time.Duration) {
	b, every := s.opts.Budget, s.opts.Every
	if s.opts.Limits != nil {
		b, every = s.opts.Limits()
	}
	if every <= 0 {
		every = DefaultEvery
	}
	return b.withDefaults(), every
}

// statePath is dream.json in the workspace's state folder ("" without one).
func (s *Service) statePath() string {
	if d := s.opts.Store().StateDir(); d != "" {
		return filepath.Join(d, "dream.json")
	}
	return ""
}

// maxState bounds dream.json: a few stamps and counters.
const maxState = 1 << 20

func (s *Service) state() State {
	var st State
	p := s.statePath()
	if p == "" {
		return st
	}
	// Non-blocking, regular files only, bounded: a pipe or /dev/zero in its
	// place is refused at once, and Dream starts over as with a damaged file.
	b, err := safefile.ReadFile(p, maxState)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		slog.Warn("dream.json unreadable: starting over", "err", err)
	}
	if err == nil {
		if err := json.Unmarshal(b, &st); err != nil {
			slog.Warn("dream.json unreadable: starting over", "err", err) // the worst case is one extra pass
			st = State{}
		}
	}
	return st
}

func (s *Service) save(st State) error {
	p := s.statePath()
	if p == "" {
		return errors.New("dream: no state folder to keep dream.json in")
	}
	return atomicfile.WriteJSON(p, st)
}

// Status is the job's state for the Reminders view.
func (s *Service) Status() Status {
	st := s.state()
	s.mu.Lock()
	running := s.running
	s.mu.Unlock()
	_, every := s.limits()
	out := Status{Paused: st.Paused, Running: running, Every: every.String(), Last: st.Last}
	if !st.Paused {
		out.NextRun = st.LastRun.Add(every)
		if st.LastRun.IsZero() {
			out.NextRun = s.opts.Now().Add(firstDelay)
		}
	}
	return out
}

// SetPaused pauses or resumes the job (kept across restarts).
func (s *Service) SetPaused(paused bool) error {
	st := s.state()
	st.Paused = paused
	return s.save(st)
}

// firstDelay keeps the first pass away from the busy start of the app.
const firstDelay = 10 * time.Minute

// Start runs passes on the timer until Close: every Every, and only when there is
// new history.
func (s *Service) Start(ctx context.Context) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.mu.Lock()
	if s.cancel != nil {
		s.mu.Unlock()
		cancel()
		return
	}
	s.cancel = cancel
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			wait := firstDelay
			if st := s.state(); !st.LastRun.IsZero() {
				_, every := s.limits()
				wait = max(time.Until(st.LastRun.Add(every)), time.Minute)
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			if st := s.state(); !st.Paused {
				if _, err := s.run(ctx, false); err != nil && ctx.Err() == nil && !errors.Is(err, ErrStopped) {
					slog.Warn("dream pass failed", "err", err)
				}
			}
		}
	}()
}

// Close stops the timer and cancels a running pass (its edits are not written).
func (s *Service) Close(context.Context) error {
	s.mu.Lock()
	cancel := s.cancel
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	s.wg.Wait()
	return nil
}

// ErrBusy is a pass asked for while one runs.
var ErrBusy error = &memory.Error{Msg: i18n.M("dream.busy")}

// ErrStopped ends a pass the person stopped (the tray's Stop): nothing is written, and
// the next pass reads the same history again.
var ErrStopped = errors.New("the Dream pass was stopped")

// Stop cancels the running pass, if any, before it writes; it reports whether one ran.
func (s *Service) Stop() bool {
	s.mu.Lock()
	stop := s.stopPass
	s.mu.Unlock()
	if stop != nil {
		stop(ErrStopped)
	}
	return stop != nil
}

// RunNow runs a pass at once, even with nothing new (it still tidies the files).
func (s *Service) RunNow(ctx context.Context) (Report, error) { return s.run(ctx, true) }

func (s *Service) run(ctx context.Context, always bool) (Report, error) {
	s.mu.Lock()
	if s.running {
		s.mu.Unlock()
		return Report{}, ErrBusy
	}
	s.running = true
	ctx, stop := context.WithCancelCause(ctx)
	s.stopPass = stop
	s.mu.Unlock()
	if s.opts.Running != nil {
		s.opts.Running(true)
	}
	defer func() {
		s.mu.Lock()
		s.running, s.stopPass = false, nil
		s.mu.Unlock()
		stop(nil)
		if s.opts.Running != nil {
			s.opts.Running(false)
		}
	}()
	st := s.state()
	rep, next, err := s.pass(ctx, st, always)
	if err != nil {
		rep.Err = err.Error()
		if e := (*memory.Error)(nil); errors.As(err, &e) {
			rep.Failure = &e.Msg
		} else {
			f := i18n.M("dream.failed", "error", err.Error())
			rep.Failure = &f
		}
	}
	if ctx.Err() != nil { // cancelled by shutdown or Stop: nothing written, done next time
		return rep, context.Cause(ctx)
	}
	next.Last = &rep
	if serr := s.save(next); serr != nil {
		err = errors.Join(err, fmt.Errorf("dream: save its state: %w", serr))
	}
	if s.opts.Done != nil {
		s.opts.Done(rep)
	}
	return rep, err
}

// pass gathers what is new, runs the model under the budget and writes the result.
func (s *Service) pass(ctx context.Context, st State, always bool) (Report, State, error) {
	started := s.opts.Now()
	budget, _ := s.limits()
	rep := Report{Started: started, Budget: budget, Files: []string{}}
	store := s.opts.Store()
	material, next, err := s.material(store, st)
	next.Paused = st.Paused
	if err != nil {
		return rep, st, err
	}
	if material == "" && !always {
		rep.Skipped = "no new history"
		next.LastRun = started
		return rep, next, nil
	}
	material = cmp.Or(material, "(nothing new: tidy the files — merge duplicates, drop what is stale)")
	name := s.opts.Model()
	p, model, err := s.opts.Resolve(name)
	if err != nil {
		return rep, st, &memory.Error{Msg: i18n.M("dream.noModel", "model", name, "error", err.Error()), Err: err}
	}
	rep.Model = name
	ps := &pass{p: p, model: model, ctxTok: s.opts.ContextTokens, budget: budget, store: store, rep: &rep, work: map[string]*doc{}}
	for short, path := range editable {
		f, err := store.Read(path)
		if err != nil {
			return rep, st, err
		}
		ps.work[short] = &doc{path: path, base: f.Content, hash: f.Hash, text: f.Content}
	}
	err = ps.run(ctx, material)
	rep.Duration = s.opts.Now().Sub(started)
	if err != nil {
		return rep, st, fmt.Errorf("dream with %s: %w", name, err)
	}
	if ctx.Err() != nil {
		return rep, st, ctx.Err()
	}
	if err := s.write(ps, &rep); err != nil {
		return rep, st, err
	}
	next.LastRun = started
	return rep, next, nil
}

// write saves the changed working copies, one commit per file saying what the pass did.
func (s *Service) write(ps *pass, rep *Report) error {
	reason := "Dream: " + strings.TrimSpace(rep.Summary)
	if rep.Summary == "" {
		reason = "Dream: tidied memory"
	}
	if rep.Stopped != "" {
		reason += " (stopped at the " + rep.Stopped + " budget)"
	}
	o := memory.Origin{Author: memory.AuthorDream, Reason: reason}
	var errs []error
	for _, n := range slices.Sorted(maps.Keys(ps.work)) {
		d := ps.work[n]
		if d.text == d.base {
			continue
		}
		proposed, err := s.writer(ps.store).Write(d.path, d.text, d.hash, o)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", n, err))
			continue
		}
		rep.Files = append(rep.Files, d.path)
		rep.Proposed = rep.Proposed || proposed
	}
	return errors.Join(errs...)
}

func (s *Service) writer(st *memory.Store) Writer {
	if s.opts.Writer != nil {
		return s.opts.Writer
	}
	return direct{st}
}

// direct writes into the files, refusing when the user changed one meanwhile.
type direct struct{ st *memory.Store }

// ErrChanged is a file the user changed while Dream worked on it: Dream's edit
// of it is dropped (the next pass starts from the new text).
var ErrChanged = errors.New("changed while Dream worked on it; its edits were dropped")

func (d direct) Write(file, text, baseHash string, o memory.Origin) (bool, error) {
	res, err := d.st.SaveAs(file, text, baseHash, o)
	if err != nil {
		return false, err
	}
	if res.Conflict != nil {
		return false, ErrChanged
	}
	return res.Proposed, nil
}

// Caps of the material one pass reads: a pass folds in a day or so of history; a
// longer backlog is read over several passes (the cursor moves by what was read).
const (
	maxMaterial = 12_000
	maxChat     = 1_500
)

// material is what is new since st: HISTORY.md past the cursor, daily notes and
// chats changed since the last pass. It returns the state the pass moves to.
func (s *Service) material(store *memory.Store, st State) (string, State, error) {
	next := st
	var b strings.Builder
	h, err := store.Read(memory.HistoryFile)
	if err != nil {
		return "", st, err
	}
	start := 0
	if st.HistoryLen <= len(h.Content) && prefixHash(h.Content[:st.HistoryLen]) == st.HistoryHash {
		start = st.HistoryLen // the usual case: entries were appended
	}
	if fresh := strings.TrimSpace(h.Content[start:]); fresh != "" {
		take := h.Content[start:]
		if len(take) > maxMaterial/2 {
			take = take[:cutAt(take, maxMaterial/2)]
		}
		b.WriteString("### HISTORY.md (new entries)\n" + strings.TrimSpace(take) + "\n\n")
		next.HistoryLen = start + len(take)
	} else {
		next.HistoryLen = len(h.Content)
	}
	next.HistoryHash = prefixHash(h.Content[:next.HistoryLen])
	files, err := store.List()
	if err != nil {
		return "", st, err
	}
	for _, f := range files {
		if f.Kind != memory.KindDaily || !f.ModTime.After(st.LastRun) || b.Len() > maxMaterial {
			continue
		}
		d, err := store.Read(f.Path)
		if err != nil || strings.TrimSpace(d.Content) == "" {
			continue
		}
		fmt.Fprintf(&b, "### Daily note %s\n%s\n\n", f.Name, clipText(d.Content, maxMaterial/4))
	}
	if s.opts.Sessions != nil {
		sums, _ := s.opts.Sessions.List()
		for _, sum := range sums {
			if !sum.Updated.After(st.LastRun) || b.Len() > maxMaterial || strings.HasPrefix(sum.ID, "cron:") || sum.ID == "heartbeat" {
				continue
			}
			if text := recentChat(s.opts.Sessions, sum.ID); text != "" {
				fmt.Fprintf(&b, "### Chat %q (%s)\n%s\n\n", sum.Title, sum.Updated.Format("2006-01-02"), text)
			}
		}
	}
	return strings.TrimSpace(b.String()), next, nil
}

// recentChat is the end of a chat's user and assistant text, up to maxChat bytes.
func recentChat(ss *session.Store, id string) string {
	sess, err := ss.Load(id)
	if err != nil {
		return ""
	}
	var lines []string
	size := 0
	msgs := sess.Messages()
	for i := len(msgs) - 1; i >= 0 && size < maxChat; i-- {
		m := msgs[i]
		if (m.Role != llm.RoleUser && m.Role != llm.RoleAssistant) || strings.TrimSpace(m.Content) == "" {
			continue
		}
		line := strings.ToUpper(string(m.Role)) + ": " + clipText(m.Content, 400)
		lines = append([]string{line}, lines...)
		size += len(line)
	}
	return strings.Join(lines, "\n")
}

func prefixHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}

// cutAt is a cut point at most n bytes in, at a paragraph (entry) end when one is near.
func cutAt(s string, n int) int {
	if i := strings.LastIndex(s[:n], "\n\n"); i > n/2 {
		return i + 2
	}
	return len(clip.Prefix(s, n))
}

func clipText(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	return s[:cutAt(s, n)] + " […]"
}
