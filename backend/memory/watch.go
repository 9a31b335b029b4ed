package memory

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// watchDebounce coalesces the bursts of events one save makes.
const watchDebounce = 150 * time.Millisecond

// Watch reports changes of the memory and persona files made outside this
// store (an editor, another Hearth process) on the store's news, until
// ctx ends. The recall index needs no watcher: it checks the files' stats
// before every search.
func (s *Store) Watch(ctx context.Context) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch memory files: %w", err)
	}
	dirs := []string{s.ws, filepath.Join(s.ws, "memory"), filepath.Join(s.ws, "skills")}
	skills, _ := filepath.Glob(filepath.Join(s.ws, "skills", "*"))
	dirs = append(dirs, skills...)
	for _, d := range dirs {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			if err := w.Add(d); err != nil {
				w.Close()
				return fmt.Errorf("watch %s: %w", d, err)
			}
		}
	}
	s.watchers.Add(1)
	go s.watchLoop(ctx, w)
	return nil
}

func (s *Store) watchLoop(ctx context.Context, w *fsnotify.Watcher) {
	defer s.watchers.Done()
	defer w.Close()
	var mu sync.Mutex
	var inflight sync.WaitGroup // callbacks already running: they commit to the history
	timers := map[string]*time.Timer{}
	defer func() {
		mu.Lock()
		for _, t := range timers {
			if t.Stop() {
				inflight.Done()
			}
		}
		mu.Unlock()
		inflight.Wait()
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case <-w.Errors:
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			rel, err := filepath.Rel(s.ws, ev.Name)
			if err != nil {
				continue
			}
			if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() && ev.Has(fsnotify.Create) {
				_ = w.Add(ev.Name) // a new skill folder
				continue
			}
			name, err := CheckName(filepath.ToSlash(rel))
			if err != nil {
				continue
			}
			mu.Lock()
			if t := timers[name]; t != nil && t.Stop() {
				inflight.Done()
			}
			inflight.Add(1)
			timers[name] = time.AfterFunc(watchDebounce, func() {
				defer inflight.Done()
				if ctx.Err() == nil && !s.ownEcho(name) {
					s.recordOutside(name) // first: who hears of the change finds it in the history
					s.notify(name)
				}
			})
			mu.Unlock()
		}
	}
}
