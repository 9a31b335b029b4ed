package chat

import (
	"context"
	"sync"
	"time"
)

// idler saves a chat's long history to memory once the chat has been idle for a
// while (docs/memory.md#compaction-while-idle): a timer per chat, set again at
// each turn's end. When it fires and the chat has no turn going and no message
// waiting, Options.CompactIdle runs in the timer's goroutine. A turn that starts
// meanwhile wins: the compaction is cancelled (before its next write; what it
// saved stays saved) and the turn starts as soon as it has stopped.
type idler struct {
	delay   func() time.Duration // 0 or less: never
	compact func(ctx context.Context, sessionID string) (int, error)
	quiet   func(sessionID string) bool // no turn going, no message waiting
	done    func(sessionID string, started time.Time, saved int, err error)

	mu       sync.Mutex
	timers   map[string]*idleTimer
	running  map[string]*compaction
	starting map[string]int // turns starting in a chat: no compaction begins
	closed   bool
	wg       sync.WaitGroup // running compactions
}

// idleTimer is a chat's timer; fire compares it, so a timer replaced or stopped
// after it fired does nothing.
type idleTimer struct{ t *time.Timer }

type compaction struct {
	cancel context.CancelFunc
	done   chan struct{}
}

func newIdler() *idler {
	return &idler{timers: map[string]*idleTimer{}, running: map[string]*compaction{}, starting: map[string]int{}}
}

// newIdler is the service's idle compaction, over its options and runner.
func (s *Service) newIdler() *idler {
	i := newIdler()
	i.compact, i.done, i.delay = s.opts.CompactIdle, s.opts.Compacted, s.opts.IdleAfter
	if i.delay == nil {
		i.delay = func() time.Duration {
			return time.Duration(s.opts.Settings.Config().Agents.Defaults.IdleCompactMinutes) * time.Minute
		}
	}
	i.quiet = func(id string) bool {
		if _, busy := s.runner.Busy(id); busy {
			return false
		}
		waiting, err := s.runner.Pending(id)
		return err == nil && len(waiting) == 0
	}
	return i
}

// turnEnded sets the chat's timer again.
func (i *idler) turnEnded(sessionID string) {
	if sessionID == "" || i.compact == nil {
		return
	}
	d := i.delay()
	i.mu.Lock()
	defer i.mu.Unlock()
	if t := i.timers[sessionID]; t != nil {
		t.t.Stop()
		delete(i.timers, sessionID)
	}
	if i.closed || d <= 0 {
		return
	}
	t := &idleTimer{}
	t.t = time.AfterFunc(d, func() { i.fire(sessionID, t) }) // fire waits for i.mu, held here
	i.timers[sessionID] = t
}

// fire runs the chat's compaction unless a turn started or one runs already.
func (i *idler) fire(sessionID string, t *idleTimer) {
	i.mu.Lock()
	if i.timers[sessionID] != t || i.closed || i.starting[sessionID] > 0 || i.running[sessionID] != nil {
		i.mu.Unlock()
		return
	}
	delete(i.timers, sessionID)
	ctx, cancel := context.WithCancel(context.Background())
	c := &compaction{cancel: cancel, done: make(chan struct{})}
	i.running[sessionID] = c
	i.wg.Add(1)
	i.mu.Unlock()
	defer func() {
		cancel()
		i.mu.Lock()
		delete(i.running, sessionID)
		i.mu.Unlock()
		close(c.done)
		i.wg.Done()
	}()
	// Checked after the chat is marked: a turn starting from now on cancels us.
	if !i.quiet(sessionID) {
		return
	}
	started := time.Now()
	n, err := i.compact(ctx, sessionID)
	if i.done != nil && (n > 0 || err != nil) {
		i.done(sessionID, started, n, err)
	}
}

// yield is called before a turn of the chat starts: its timer stops, a running
// compaction is cancelled and waited for, and none begins until release.
func (i *idler) yield(sessionID string) (release func()) {
	if sessionID == "" {
		return func() {}
	}
	i.mu.Lock()
	i.starting[sessionID]++
	if t := i.timers[sessionID]; t != nil {
		t.t.Stop()
		delete(i.timers, sessionID)
	}
	c := i.running[sessionID]
	i.mu.Unlock()
	if c != nil {
		c.cancel()
		<-c.done
	}
	return func() {
		i.mu.Lock()
		if i.starting[sessionID]--; i.starting[sessionID] <= 0 {
			delete(i.starting, sessionID)
		}
		i.mu.Unlock()
	}
}

// close stops the timers and the running compactions and waits for them.
func (i *idler) close() {
	i.mu.Lock()
	i.closed = true
	for id, t := range i.timers {
		t.t.Stop()
		delete(i.timers, id)
	}
	for _, c := range i.running {
		c.cancel()
	}
	i.mu.Unlock()
	i.wg.Wait()
}
