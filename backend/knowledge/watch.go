package knowledge

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// watcher keeps the folders fresh in the process that watches (the desktop):
// an event in a watched folder re-indexes its knowledge folder after a short
// quiet time (a save is a burst of events); a folder tree with more folders
// than MaxWatches is walked every PollEvery instead, and every folder is
// walked every fullEvery in case an event was missed (a full queue, an index
// rebuilt).
type watcher struct {
	s  *Service
	fw *fsnotify.Watcher

	mu      sync.Mutex
	watched map[string]string // folder watched → knowledge folder id
	polling map[string]bool   // knowledge folder id → walked, not watched
	timers  map[string]*time.Timer
	closed  bool

	ctx    context.Context // the watcher's: ends with Close
	cancel context.CancelFunc
	done   sync.WaitGroup
}

// fullEvery is how often every folder is walked whatever the events said.
const fullEvery = 10 * time.Minute

// Watch starts watching the listed folders and indexes them (in the
// background); the command line never calls it.
func (s *Service) Watch(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.watch != nil {
		return nil
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch knowledge folders: %w", err)
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	w := &watcher{s: s, fw: fw, ctx: ctx, watched: map[string]string{}, polling: map[string]bool{}, timers: map[string]*time.Timer{}, cancel: cancel}
	s.watch = w
	w.done.Add(2)
	go w.loop(ctx)
	go func() {
		defer w.done.Done()
		_ = s.Refresh(ctx, "") // the status holds each folder's outcome
		w.tick(ctx)
	}()
	return nil
}

// Watching reports whether this process watches the folders.
func (s *Service) Watching() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.watch != nil
}

// Close stops the watcher and waits for a pass under way.
func (s *Service) Close() {
	s.mu.Lock()
	w := s.watch
	s.watch = nil
	s.mu.Unlock()
	if w == nil {
		return
	}
	w.mu.Lock()
	w.closed = true
	w.cancel()
	for _, t := range w.timers {
		t.Stop()
	}
	w.mu.Unlock()
	w.fw.Close()
	w.done.Wait()
	s.refreshing.Lock() // a debounced pass still running ends first
	s.refreshing.Unlock()
}

func (w *watcher) loop(ctx context.Context) {
	defer w.done.Done()
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-w.fw.Errors:
			if !ok {
				return
			}
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			w.mu.Lock()
			id, known := w.watched[filepath.Dir(ev.Name)]
			if !known {
				id, known = w.watched[ev.Name]
			}
			if known && !w.closed {
				if t := w.timers[id]; t != nil {
					t.Stop()
				}
				w.timers[id] = time.AfterFunc(w.s.opts.Debounce, func() { w.refresh(ctx, id) })
			}
			w.mu.Unlock()
		}
	}
}

// refresh indexes folder id again unless the watcher closed; Close waits for it.
func (w *watcher) refresh(ctx context.Context, id string) {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	w.done.Add(1)
	w.mu.Unlock()
	defer w.done.Done()
	_ = w.s.Refresh(ctx, id) // the status holds the outcome
}

// tick walks the polled folders every PollEvery and all every fullEvery.
func (w *watcher) tick(ctx context.Context) {
	t := time.NewTicker(w.s.opts.PollEvery)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if time.Since(last) >= fullEvery {
			last = time.Now()
			_ = w.s.Refresh(ctx, "")
			continue
		}
		w.mu.Lock()
		var ids []string
		for id := range w.polling {
			ids = append(ids, id)
		}
		w.mu.Unlock()
		for _, id := range ids {
			_ = w.s.Refresh(ctx, id)
		}
	}
}

// dirs makes the watches of folder id follow its walk's folders: each is
// watched, or, past MaxWatches, none is and the folder is polled.
func (w *watcher) dirs(id string, dirs []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	if len(dirs) > w.s.opts.MaxWatches {
		w.dropLocked(id)
		w.polling[id] = true
		return
	}
	delete(w.polling, id)
	for _, d := range dirs {
		if _, ok := w.watched[d]; ok {
			continue
		}
		if err := w.fw.Add(d); err != nil {
			// The system's watch limit: walk this folder instead.
			w.s.log.Warn("knowledge folder polled, not watched", "dir", d, "err", err)
			w.dropLocked(id)
			w.polling[id] = true
			return
		}
		w.watched[d] = id
	}
}

func (w *watcher) dropLocked(id string) {
	for d, fid := range w.watched {
		if fid == id {
			_ = w.fw.Remove(d)
			delete(w.watched, d)
		}
	}
}

// follow drops the watches of folders no longer listed.
func (w *watcher) follow() {
	listed := map[string]bool{}
	for _, f := range w.s.opts.Settings.Config().Knowledge.Folders {
		listed[FolderID(f.Path)] = true
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for d, id := range w.watched {
		if !listed[id] {
			_ = w.fw.Remove(d)
			delete(w.watched, d)
		}
	}
	for id := range w.polling {
		if !listed[id] {
			delete(w.polling, id)
		}
	}
}

// mode is folder id's watch as its status says it.
func (w *watcher) mode(id string) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.polling[id] {
		return "polling"
	}
	for _, fid := range w.watched {
		if fid == id {
			return "watching"
		}
	}
	return ""
}

// Apply follows a saved change of the list (the settings' followers call it) in the
// process that watches: a folder new to it is indexed, and one no longer listed leaves
// the index. Elsewhere it does nothing.
func (s *Service) Apply() {
	s.mu.Lock()
	w := s.watch
	var had []string
	for id := range s.status {
		had = append(had, id)
	}
	s.mu.Unlock()
	if w == nil {
		return
	}
	w.follow()
	listed := map[string]bool{}
	for _, f := range s.opts.Settings.Config().Knowledge.Folders {
		listed[FolderID(f.Path)] = true
	}
	for _, id := range had {
		if !listed[id] {
			s.mu.Lock()
			delete(s.status, id)
			s.mu.Unlock()
			go w.drop(id)
		}
		delete(listed, id)
	}
	for id := range listed {
		go w.refresh(w.ctx, id)
	}
}

// drop takes folder id's passages out of the index unless the watcher closed.
func (w *watcher) drop(id string) {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	w.done.Add(1)
	w.mu.Unlock()
	defer w.done.Done()
	w.s.refreshing.Lock()
	defer w.s.refreshing.Unlock()
	if x, err := w.s.idx(); err == nil {
		if err := x.DropFolder(w.ctx, id); err != nil {
			w.s.log.Warn("knowledge folder not taken out of the index", "id", id, "err", err)
		}
	}
}
