package session

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// fill appends n messages shaped like a real chat: runs of a user question,
// a tool batch with a few hundred bytes of result and an answer.
func fill(b *testing.B, s *Store, id string, n int) {
	b.Helper()
	recs := make([]Record, 0, 512)
	for i := range n {
		run := "run-" + strconv.Itoa(i/4)
		switch i % 4 {
		case 0:
			recs = append(recs, MessageRecord(run, user("Question "+run+" about the files in my project?")))
		case 1:
			recs = append(recs, toolBatch(run, "call-"+run, "read_file", `{"path":"notes.md"}`, "")[0])
		case 2:
			recs = append(recs, toolBatch(run, "call-"+run, "read_file", "{}", strings.Repeat("result text ", 40))[1])
		case 3:
			recs = append(recs, MessageRecord(run, assistant(strings.Repeat("An answer of some length. ", 10))),
				RunRecord(Run{ID: run, Status: StatusOK}))
		}
		if len(recs) >= 500 {
			mustAppend(b, s, id, recs...)
			recs = recs[:0]
		}
	}
	mustAppend(b, s, id, recs...)
}

// BenchmarkAppend appends one message to a session that already holds 10,
// 1 000 or 10 000 messages. Target: the same ns/op at every size (an append
// never reads the file: open, flock, read the last byte, one write), well
// under 100 µs.
func BenchmarkAppend(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprintf("existing=%d", n), func(b *testing.B) {
			s, _ := newTestStore(b)
			m := mustCreate(b, s, CreateOptions{})
			fill(b, s, m.ID, n)
			if got := len(mustLoad(b, s, m.ID).Entries); got != n {
				b.Fatalf("filled %d messages, want %d", got, n)
			}
			rec := MessageRecord("run-x", assistant(strings.Repeat("word ", 40)))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := s.Append(m.ID, rec); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLoad loads a session of 1 000 messages: cold (a store that never
// read it, so the whole file is parsed), unchanged (read before: only a stat)
// and appended (one message appended since the last load, as in a turn).
// Targets: cold under 10 ms; unchanged and appended under 0.5 ms (a copy of
// the kept state, no parse of what did not change).
func BenchmarkLoad(b *testing.B) {
	s, _ := newTestStore(b)
	m := mustCreate(b, s, CreateOptions{})
	fill(b, s, m.ID, 1000)
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := NewStore(s.Dir(), Options{}).Load(m.ID); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("unchanged", func(b *testing.B) {
		mustLoad(b, s, m.ID)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.Load(m.ID); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("appended", func(b *testing.B) {
		rec := MessageRecord("run-x", assistant(strings.Repeat("word ", 40)))
		mustLoad(b, s, m.ID)
		b.ReportAllocs()
		for b.Loop() {
			mustAppend(b, s, m.ID, rec)
			if _, err := s.Load(m.ID); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkList lists 200 sessions of ~50 messages. cold is a fresh store
// (every file scanned once, message bodies not decoded); warm is the same
// store again with one session appended to, so only its new lines are
// scanned. Targets: cold under 50 ms, warm under 2 ms.
func BenchmarkList(b *testing.B) {
	s, _ := newTestStore(b)
	ids := make([]string, 200)
	for i := range ids {
		ids[i] = mustCreate(b, s, CreateOptions{ID: fmt.Sprintf("s%03d", i)}).ID
		fill(b, s, ids[i], 50)
	}
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			l, err := NewStore(s.Dir(), Options{}).List()
			if err != nil || len(l) != len(ids) {
				b.Fatal(len(l), err)
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		if _, err := s.List(); err != nil {
			b.Fatal(err)
		}
		rec := MessageRecord("", user("one more"))
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			mustAppend(b, s, ids[i%len(ids)], rec)
			i++
			if _, err := s.List(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
