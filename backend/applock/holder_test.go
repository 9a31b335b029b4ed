package applock

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// holdRaw takes path's flock the way another process would, without writing a record,
// so the test decides what the file says.
func holdRaw(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
}

func TestSecondStartNamesTheHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hearth.lock")
	before := time.Now().Add(-time.Second)
	first, err := AcquireAs(path, KindServe)
	if err != nil {
		t.Fatal(err)
	}
	_, err = AcquireAs(path, KindDesktop)
	var held *HeldError
	if !errors.As(err, &held) || !errors.Is(err, ErrHeld) {
		t.Fatalf("second acquire: want a HeldError, got %v", err)
	}
	h := held.Holder
	if h.Kind != KindServe || h.PID != os.Getpid() || h.Since.Before(before) || h.Since.After(time.Now()) {
		t.Fatalf("holder %+v, want serve, our pid, since now", h)
	}
	if msg := err.Error(); !strings.Contains(msg, "serve (pid ") || !strings.Contains(msg, path) {
		t.Fatalf("message does not name the holder and the file: %s", msg)
	}
	if SecondDesktop(h) != StepRefuse {
		t.Fatal("a desktop must not focus a serve holder")
	}
	if err := first.Release(); err != nil {
		t.Fatal(err)
	}
	if _, held, err := Probe(path); held || err != nil {
		t.Fatalf("after release: held %v err %v", held, err)
	}
	// The next holder's shorter record replaces the longer one whole.
	again, err := AcquireAs(path, KindCLI)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Release()
	data, _ := os.ReadFile(path)
	if h, err := ParseHolder(data); err != nil || h.Kind != KindCLI || strings.Count(string(data), "\n") != 1 {
		t.Fatalf("record %q: %+v %v", data, h, err)
	}
}

func TestSecondDesktopDecision(t *testing.T) {
	for _, tc := range []struct {
		h    Holder
		want Step
	}{
		{Holder{Kind: KindServe, PID: 7}, StepRefuse},
		{Holder{Kind: KindCLI, PID: 7}, StepRefuse},
		{Holder{Kind: KindDesktop, PID: 7}, StepFocus},
		{Holder{PID: 7}, StepFocus}, // an older Hearth wrote its pid only: a desktop
		{Holder{}, StepFocus},       // unreadable: what a second desktop always did
	} {
		if got := SecondDesktop(tc.h); got != tc.want {
			t.Errorf("SecondDesktop(%+v) = %v, want %v", tc.h, got, tc.want)
		}
	}
}

func TestProbeMissingFreeAndHeld(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hearth.lock")
	if _, held, err := Probe(path); held || err != nil {
		t.Fatalf("missing file: held %v err %v", held, err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("probing must not create the lock file")
	}
	l, err := AcquireAs(path, KindServe)
	if err != nil {
		t.Fatal(err)
	}
	h, held, err := Probe(path)
	if !held || err != nil || h.Kind != KindServe {
		t.Fatalf("held by serve: %+v held %v err %v", h, held, err)
	}
	_ = l.Release()
	// A probe in between never makes a start fail: it only holds a shared lock a moment.
	if _, _, err := Probe(path); err != nil {
		t.Fatal(err)
	}
	l, err = AcquireAs(path, KindServe)
	if err != nil {
		t.Fatalf("start after a probe: %v", err)
	}
	_ = l.Release()
}

// A symlink planted where the lock lives is never followed: not by a start (which
// would write its record into the target) nor by a probe.
func TestPlantedSymlinkIsRefused(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "precious")
	if err := os.WriteFile(target, []byte("keep me\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "hearth.lock")
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	if _, err := AcquireAs(path, KindServe); err == nil || errors.Is(err, ErrHeld) || !strings.Contains(err.Error(), "symbolic link: remove it") {
		t.Fatalf("acquire through a symlink: %v", err)
	}
	if _, _, err := Probe(path); err == nil {
		t.Fatal("probe followed a symlink")
	}
	if data, _ := os.ReadFile(target); string(data) != "keep me\n" {
		t.Fatalf("the symlink's target was written: %q", data)
	}
}

// A FIFO at the lock's place neither blocks a start nor is taken for the lock.
func TestFIFOIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hearth.lock")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := AcquireAs(path, KindServe); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("acquire on a FIFO: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("acquire blocked on a FIFO")
	}
	if _, _, err := Probe(path); err == nil {
		t.Fatal("probe took a FIFO for the lock")
	}
}

// Whatever the held file says — garbage, a huge file, a record of an unknown kind — the
// refusal stays a HeldError with as much of the holder as can be trusted.
func TestGarbageInTheHeldFile(t *testing.T) {
	for _, tc := range []struct {
		name    string
		content []byte
		want    Holder
	}{
		{"binary junk", []byte("\x00\xff{{not json"), Holder{}},
		{"huge", []byte(strings.Repeat("9", 8<<20)), Holder{}},
		{"older Hearth's pid", []byte("4242\n"), Holder{PID: 4242}},
		{"unknown kind", []byte(`{"kind":"rm -rf /","pid":5}`), Holder{PID: 5}},
		{"negative pid", []byte(`{"kind":"serve","pid":-3}`), Holder{Kind: KindServe}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "hearth.lock")
			if err := os.WriteFile(path, tc.content, 0o600); err != nil {
				t.Fatal(err)
			}
			holdRaw(t, path)
			_, err := AcquireAs(path, KindDesktop)
			var held *HeldError
			if !errors.As(err, &held) {
				t.Fatalf("want a HeldError, got %v", err)
			}
			if held.Holder != tc.want {
				t.Fatalf("holder %+v, want %+v", held.Holder, tc.want)
			}
			if len(err.Error()) > 500 {
				t.Fatalf("the message repeats the file: %d bytes", len(err.Error()))
			}
		})
	}
}

func TestHolderString(t *testing.T) {
	since := time.Date(2026, 12, 7, 21, 3, 0, 0, time.UTC)
	for h, want := range map[Holder]string{
		{}:                                      "another Hearth",
		{PID: 9}:                                "another Hearth (pid 9)",
		{Kind: KindServe, PID: 9, Since: since}: "serve (pid 9, since " + since.Local().Format("2006-01-02 15:04 MST") + ")",
		{Kind: KindDesktop, PID: 9, Since: since}: "desktop (pid 9, since ",
	} {
		if got := h.String(); !strings.HasPrefix(got, want) {
			t.Errorf("%+v: %q, want %q", h, got, want)
		}
	}
}

func FuzzParseHolder(f *testing.F) {
	for _, s := range []string{"", "4242\n", `{"kind":"serve","pid":12,"since":"2026-12-07T21:03:00Z"}`,
		`{"kind":"serve","pid":12}{"kind":"desktop"}`, "{", `{"pid":1e99}`, "-1"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := ParseHolder(data)
		if err != nil && h != (Holder{}) {
			t.Fatalf("an error with a holder: %+v", h)
		}
		if h.PID < 0 {
			t.Fatalf("negative pid %d", h.PID)
		}
		switch h.Kind {
		case "", KindDesktop, KindServe, KindCLI:
		default:
			t.Fatalf("unknown kind passed through: %q", h.Kind)
		}
		_ = h.String()
	})
}
