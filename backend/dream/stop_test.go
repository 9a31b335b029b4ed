package dream

import (
	"errors"
	"testing"
	"time"

	"hearth/backend/internal/fakeollama"
	"hearth/backend/memory"
)

// Stop (the tray's) ends a running pass before it writes; Running told the tray it
// started and that it ended.
func TestStopEndsThePassUnwritten(t *testing.T) {
	hang := fakeollama.Reply{Content: "thinking", Hang: true}
	f := newFixture(t, fakeollama.Script{Default: &hang}, Budget{ToolCalls: 10, Tokens: 1_000_000})
	told := make(chan bool, 2)
	f.svc.opts.Running = func(r bool) { told <- r }
	if f.svc.Stop() {
		t.Error("Stop with no pass running reported one")
	}
	before := read(t, f.ws, memory.MemoryFile)
	if before == "" {
		t.Fatal("the fixture wrote no MEMORY.md")
	}
	done := make(chan error, 1)
	go func() { _, err := f.svc.RunNow(t.Context()); done <- err }()
	if !<-told {
		t.Fatal("Running(true) not first")
	}
	for len(f.fake.ChatRequests()) == 0 { // the model is asked: the pass is under way
		select {
		case err := <-done:
			t.Fatalf("pass ended before the model was asked: %v", err)
		case <-time.After(10 * time.Millisecond):
		}
	}
	if !f.svc.Stop() {
		t.Error("Stop did not find the running pass")
	}
	if err := <-done; !errors.Is(err, ErrStopped) {
		t.Errorf("stopped pass returned %v", err)
	}
	if <-told {
		t.Error("Running(false) not told at the end")
	}
	if f.svc.Status().Running || len(f.reports) != 0 || read(t, f.ws, memory.MemoryFile) != before {
		t.Errorf("after Stop: running %v, reports %v, memory changed %v", f.svc.Status().Running, f.reports,
			read(t, f.ws, memory.MemoryFile) != before)
	}
}
