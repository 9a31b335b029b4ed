package applock

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestAcquireTwiceInOneProcessIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "hearth.lock")
	first, err := Acquire(path)
	if err != nil {
		t.Fatal(err)
	}
	// flock locks belong to the open file description, so a second open in the same
	// process conflicts just like another process would.
	if _, err := Acquire(path); !errors.Is(err, ErrHeld) {
		t.Fatalf("second acquire: want ErrHeld, got %v", err)
	}
	if err := first.Release(); err != nil {
		t.Fatal(err)
	}
	again, err := Acquire(path)
	if err != nil {
		t.Fatalf("acquire after release: %v", err)
	}
	defer again.Release()
	if h, held, err := Probe(path); err != nil || !held || strconv.Itoa(h.PID) != strconvPid() || h.Kind != KindDesktop {
		t.Fatalf("probe = %+v held %v err %v, want our pid %s as desktop", h, held, err, strconvPid())
	}
}

func TestLockHeldByAnotherProcess(t *testing.T) {
	if _, err := exec.LookPath("flock"); err != nil {
		t.Skip("flock(1) not installed")
	}
	path := filepath.Join(t.TempDir(), "hearth.lock")
	// util-linux flock holds the lock while `sleep` runs.
	cmd := exec.Command("flock", "-n", path, "sh", "-c", "echo ready; sleep 5")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	buf := make([]byte, 6)
	if _, err := out.Read(buf); err != nil {
		t.Fatal(err)
	}
	_, err = Acquire(path)
	if !errors.Is(err, ErrHeld) || !strings.Contains(err.Error(), path) {
		t.Fatalf("want ErrHeld naming %s, got %v", path, err)
	}
}

func TestReleaseNilAndTwice(t *testing.T) {
	var l *Lock
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	got, err := Acquire(filepath.Join(t.TempDir(), "x.lock"))
	if err != nil {
		t.Fatal(err)
	}
	_ = got.Release()
	if err := got.Release(); err != nil {
		t.Fatalf("second release: %v", err)
	}
}

func strconvPid() string { return strconv.Itoa(os.Getpid()) }
