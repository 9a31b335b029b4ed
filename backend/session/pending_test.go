package session

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"hearth/backend/internal/safefile"
)

func TestPendingRoundTripAndEmpty(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{ID: "cron:a"})
	if got, err := s.LoadPending(m.ID); err != nil || got != nil {
		t.Fatalf("no file: got %v, %v", got, err)
	}
	want := []Pending{{ID: "p1", Mode: ModeSteer, Text: "look in src/"}, {ID: "p2", Mode: ModeQueue, Text: "then test", Channel: "cli", Held: true}}
	if err := s.SavePending(m.ID, want); err != nil {
		t.Fatal(err)
	}
	// A fresh store reads what the last one wrote, as after kill -9.
	got, err := NewStore(s.Dir(), Options{}).LoadPending(m.ID)
	if err != nil || len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("reloaded %+v, %v; want %+v", got, err, want)
	}
	if err := s.SavePending(m.ID, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir(), "cron%3Aa"+PendingExt)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("an empty list leaves its file: %v", err)
	}
	// The sessions list never mistakes the file for a chat.
	if err := s.SavePending(m.ID, want); err != nil {
		t.Fatal(err)
	}
	list, err := s.List()
	if err != nil || len(list) != 1 {
		t.Fatalf("list: %d chats, %v", len(list), err)
	}
	if err := s.Delete(m.ID, ""); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.LoadPending(m.ID); got != nil {
		t.Fatalf("a deleted chat keeps pending messages %v", got)
	}
}

func TestSavePendingNeedsTheSession(t *testing.T) {
	s, _ := newTestStore(t)
	err := s.SavePending("gone", []Pending{{ID: "p1", Mode: ModeQueue, Text: "x"}})
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("saved for a missing chat: %v", err)
	}
}

// badPending plants something at the pending file's place and checks Load refuses
// it with an error naming where it was kept, and that the planted thing is moved aside.
func badPending(t *testing.T, plant func(path string)) {
	t.Helper()
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{})
	p := filepath.Join(s.Dir(), m.ID+PendingExt)
	plant(p)
	got, err := s.LoadPending(m.ID)
	if err == nil || got != nil || !strings.Contains(err.Error(), "kept as") {
		t.Fatalf("planted file read as %v, %v", got, err)
	}
	if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the bad file stays in place: %v", err)
	}
	if got, err := s.LoadPending(m.ID); err != nil || got != nil {
		t.Fatalf("after moving aside: %v, %v", got, err)
	}
}

func TestLoadPendingRefusesPlantedFiles(t *testing.T) {
	t.Run("symlink", func(t *testing.T) {
		badPending(t, func(p string) {
			secret := filepath.Join(t.TempDir(), "secret")
			must(t, os.WriteFile(secret, []byte(`{"v":1,"messages":[{"id":"x","mode":"queue","text":"stolen"}]}`), 0o600))
			must(t, os.Symlink(secret, p))
		})
	})
	t.Run("fifo", func(t *testing.T) {
		badPending(t, func(p string) { must(t, syscall.Mkfifo(p, 0o600)) })
	})
	t.Run("huge", func(t *testing.T) {
		badPending(t, func(p string) {
			f, err := os.Create(p)
			must(t, err)
			must(t, f.Truncate(maxPendingBytes+1))
			must(t, f.Close())
		})
	})
	t.Run("damaged", func(t *testing.T) {
		badPending(t, func(p string) { must(t, os.WriteFile(p, []byte(`{"v":1,"messages":[{"id":"x","mo`), 0o600)) })
	})
	t.Run("bad mode", func(t *testing.T) {
		badPending(t, func(p string) {
			must(t, os.WriteFile(p, []byte(`{"v":1,"messages":[{"id":"x","mode":"now","text":"a"}]}`), 0o600))
		})
	})
}

func TestSavePendingReplacesAPlantedSymlink(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{})
	target := filepath.Join(t.TempDir(), "target")
	must(t, os.WriteFile(target, []byte("keep"), 0o600))
	must(t, os.Symlink(target, filepath.Join(s.Dir(), m.ID+PendingExt)))
	if err := s.SavePending(m.ID, []Pending{{ID: "p1", Mode: ModeQueue, Text: "x"}}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Fatalf("wrote through the symlink: %q", b)
	}
	if got, err := s.LoadPending(m.ID); err != nil || len(got) != 1 {
		t.Fatalf("reload: %v, %v", got, err)
	}
}

func TestSavePendingRefusesTooMuch(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{})
	var list []Pending
	for i := range MaxPending {
		list = append(list, Pending{ID: "p" + string(rune('a'+i%26)) + string(rune('a'+i/26)), Mode: ModeQueue, Text: strings.Repeat("\x01", MaxPendingText)})
	}
	err := s.SavePending(m.ID, list)
	if err == nil || !strings.Contains(err.Error(), "hint") {
		t.Fatalf("saved %d messages of control bytes: %v", len(list), err)
	}
	if _, err := safefile.ReadFile(filepath.Join(s.Dir(), m.ID+PendingExt), 0); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a refused save left a file: %v", err)
	}
}

func TestCheckPending(t *testing.T) {
	for _, m := range []Pending{{Mode: ModeQueue}, {ID: "a", Mode: "later"}, {ID: "a", Mode: ModeSteer, Text: "\xff"},
		{ID: "a", Mode: ModeSteer, Text: strings.Repeat("x", MaxPendingText+1)}} {
		if CheckPending(m) == nil {
			t.Errorf("%+v passed", m)
		}
	}
	if _, err := ParsePending([]byte(`{"v":1,"messages":[{"id":"a","mode":"queue"},{"id":"a","mode":"queue"}]}`)); err == nil {
		t.Error("an id given twice passed")
	}
}

// FuzzParsePending feeds pending files of any shape to the parser: it never panics,
// and what it accepts passes CheckPending and survives a round trip.
func FuzzParsePending(f *testing.F) {
	f.Add([]byte(`{"v":1,"messages":[{"id":"p1","mode":"steer","text":"a","at":"2026-11-22T04:00:01Z"}]}`))
	f.Add([]byte(`{"v":2}`))
	f.Add([]byte(`{"v":1,"messages":[{"id":"p1","mode":"queue","text":"\u0000","held":true}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		list, err := ParsePending(data)
		if err != nil {
			return
		}
		for _, m := range list {
			if CheckPending(m) != nil {
				t.Fatalf("accepted %+v", m)
			}
		}
		b, err := json.Marshal(pendingFile{V: 1, Messages: list})
		if err != nil {
			t.Fatal(err)
		}
		if again, err := ParsePending(b); err != nil || len(again) != len(list) {
			t.Fatalf("round trip: %v", err)
		}
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
