package dream

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"hearth/backend/internal/fakeollama"
)

// Dream's state lives in the workspace's state folder, not in the workspace; a
// named pipe or /dev/zero put where dream.json is read is refused at once —
// Status answers, starting over — instead of hanging or filling memory.
func TestDreamStateOutOfWorkspaceAndBounded(t *testing.T) {
	f := newFixture(t, fakeollama.Script{}, Budget{})
	dir := f.mem.Store().StateDir()
	if dir == "" || filepath.Dir(dir) == f.ws {
		t.Fatalf("state folder %q", dir)
	}
	if err := f.svc.save(State{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "dream.json")); err != nil {
		t.Fatalf("dream.json not in the state folder: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(f.ws, ".hearth", "dream.json")); !os.IsNotExist(err) {
		t.Errorf("dream.json in the workspace: %v", err)
	}
	p := filepath.Join(dir, "dream.json")
	for _, plant := range []string{"fifo", "/dev/zero"} {
		_ = os.Remove(p)
		if plant == "fifo" {
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Skip("no named pipes:", err)
			}
		} else if err := os.Symlink(plant, p); err != nil {
			t.Fatal(err)
		}
		done := make(chan State, 1)
		go func() { done <- f.svc.state() }()
		select {
		case st := <-done:
			if !st.LastRun.IsZero() {
				t.Errorf("%s: state %+v", plant, st)
			}
		case <-time.After(time.Minute):
			t.Fatalf("%s as dream.json hung the reader", plant)
		}
	}
}
