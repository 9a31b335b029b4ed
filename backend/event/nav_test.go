package event

import (
	"fmt"
	"sync"
	"testing"
)

// A move set before the page asks is handed over once; the newest of several wins.
func TestPendingNavHandsOverOnceNewestWins(t *testing.T) {
	var p PendingNav
	if n, ok := p.Take(); ok || n != (Nav{}) {
		t.Fatalf("empty: %+v %v", n, ok)
	}
	p.Set(Nav{Kind: NavOpenChat, SessionID: "a"})
	if n, ok := p.Take(); !ok || n != (Nav{Kind: NavOpenChat, SessionID: "a"}) {
		t.Fatalf("first take: %+v %v", n, ok)
	}
	if n, ok := p.Take(); ok {
		t.Fatalf("taken twice: %+v", n)
	}
	p.Set(Nav{Kind: NavOpenChat, SessionID: "a"})
	p.Set(Nav{Kind: NavNewChat})
	p.Set(Nav{Kind: NavOpenChat, SessionID: "c"})
	if n, ok := p.Take(); !ok || n != (Nav{Kind: NavOpenChat, SessionID: "c"}) {
		t.Fatalf("newest: %+v %v", n, ok)
	}
	p.Set(Nav{Kind: NavOpenChat, SessionID: "d"})
	p.Set(Nav{Kind: NavNewChat})
	if n, ok := p.Take(); !ok || n != (Nav{Kind: NavNewChat}) {
		t.Fatalf("a new chat after an open: %+v %v", n, ok)
	}
}

// Clicks and the page's takes at once: every move is taken at most once, and what is not
// taken by the end is the last one set.
func TestPendingNavConcurrent(t *testing.T) {
	var p PendingNav
	var wg sync.WaitGroup
	var mu sync.Mutex
	taken := map[string]int{}
	for w := range 4 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := range 200 {
				p.Set(Nav{Kind: NavOpenChat, SessionID: fmt.Sprintf("%d-%d", w, i)})
			}
		}()
		go func() {
			defer wg.Done()
			for range 200 {
				if n, ok := p.Take(); ok {
					mu.Lock()
					taken[n.SessionID]++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	for id, k := range taken {
		if k != 1 {
			t.Errorf("%s taken %d times", id, k)
		}
	}
	p.Set(Nav{Kind: NavOpenChat, SessionID: "last"})
	if n, _ := p.Take(); n.SessionID != "last" {
		t.Errorf("after the rush: %+v", n)
	}
}
