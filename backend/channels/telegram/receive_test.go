package telegram

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"hearth/backend/channels"
	"hearth/backend/internal/fakebot"
)

func TestOffsetKeptAcrossRestart(t *testing.T) {
	fake, dir := fakebot.New(t), t.TempDir()
	var ids []int64
	for _, s := range []string{"one", "two", "three"} {
		ids = append(ids, fake.Send(fakebot.Msg{From: alice, Text: s}))
	}
	// The first adapter stops inside the last handler: it never polls again,
	// so Telegram still holds all three; only the kept offset can tell.
	a := newAdapter(t, fake, dir, nil)
	ctx, cancel := context.WithCancel(context.Background())
	var seen []string
	err := a.Receive(ctx, func(_ context.Context, in channels.Inbound) {
		seen = append(seen, in.Text)
		if len(seen) == 3 {
			cancel()
		}
	})
	if !isCtx(err) || strings.Join(seen, ",") != "one,two,three" {
		t.Fatalf("first run: %v, %v", seen, err)
	}
	if fake.Pending() != 3 {
		t.Fatalf("the fake holds %d updates, want all 3 unconfirmed", fake.Pending())
	}
	four := fake.Send(fakebot.Msg{From: alice, Text: "four"})

	b := newAdapter(t, fake, dir, nil)
	got, _, _ := run(t, b)
	if in := next(t, got); in.UpdateID != four || in.Text != "four" {
		t.Fatalf("after the restart got %d %q, want %d four (nothing repeated, nothing lost)", in.UpdateID, in.Text, four)
	}
	none(t, fake, got)
	if off, _ := b.loadOffset(); off <= four {
		t.Fatalf("kept offset %d, want past %d", off, four)
	}
	_ = ids
}

func TestDuplicateHandledOnce(t *testing.T) {
	fake := fakebot.New(t)
	id := fake.Send(fakebot.Msg{From: alice, Text: "hello"})
	fake.Duplicate(id)
	got, _, _ := run(t, newAdapter(t, fake, t.TempDir(), nil))
	if in := next(t, got); in.UpdateID != id {
		t.Fatalf("got %d, want %d", in.UpdateID, id)
	}
	none(t, fake, got)
}

// A kill while the handler runs leaves the offset before that update: it
// comes again after the restart (at least once for an unhandled update),
// while the ones handled before do not (exactly once for them).
func TestKillMidHandlingRedelivers(t *testing.T) {
	fake, dir := fakebot.New(t), t.TempDir()
	first := fake.Send(fakebot.Msg{From: alice, Text: "handled"})
	second := fake.Send(fakebot.Msg{From: alice, Text: "cut short"})
	dead := make(chan struct{})
	a := newAdapter(t, fake, dir, nil)
	go func() {
		defer close(dead)
		_ = a.Receive(context.Background(), func(_ context.Context, in channels.Inbound) {
			if in.UpdateID == second {
				runtime.Goexit() // the process dies here: the handler never returns
			}
		})
	}()
	select {
	case <-dead:
	case <-time.After(waitLong):
		t.Fatal("the first run did not reach the second update")
	}
	got, _, _ := run(t, newAdapter(t, fake, dir, nil))
	if in := next(t, got); in.UpdateID != second {
		t.Fatalf("after the kill got %d, want %d again (and never %d)", in.UpdateID, second, first)
	}
	none(t, fake, got)
}

func TestOutageThenResumeLosesNothing(t *testing.T) {
	fake := fakebot.New(t)
	sl := &sleeps{}
	sl.hook = func(total time.Duration) {
		if total >= 30*time.Second && fake.IsDown() {
			fake.Up() // the network is back after 30 s of waits
		}
	}
	got, _, _ := run(t, newAdapter(t, fake, t.TempDir(), sl))
	before := fake.Send(fakebot.Msg{From: alice, Text: "before"})
	if in := next(t, got); in.UpdateID != before {
		t.Fatalf("got %d, want %d", in.UpdateID, before)
	}
	fake.Down()
	var during []int64
	for _, s := range []string{"a", "b", "c"} {
		during = append(during, fake.Send(fakebot.Msg{From: alice, Text: s}))
	}
	for _, id := range during {
		if in := next(t, got); in.UpdateID != id {
			t.Fatalf("after the outage got %d, want %d", in.UpdateID, id)
		}
	}
	none(t, fake, got)
	waits := sl.list()
	if len(waits) < 2 {
		t.Fatalf("waits %v: want a backoff", waits)
	}
	for i, w := range waits {
		if w <= 0 || w > maxBackoff {
			t.Fatalf("wait %d is %v, want within (0, %v]", i, w, maxBackoff)
		}
		if i > 0 && w < waits[i-1] && w != maxBackoff {
			t.Fatalf("waits shrank before the cap: %v", waits)
		}
	}
}

func TestBackoffGrowsToCapWithJitter(t *testing.T) {
	if d := backoff(0, 0); d != time.Second {
		t.Fatalf("first %v", d)
	}
	if d := backoff(3, 0); d != 8*time.Second {
		t.Fatalf("fourth %v", d)
	}
	if d := backoff(50, 0); d != maxBackoff {
		t.Fatalf("cap %v", d)
	}
	if d := backoff(50, 0.999); d < maxBackoff*4/5 || d > maxBackoff {
		t.Fatalf("jittered cap %v", d)
	}
}

func TestRetryAfterHonoured(t *testing.T) {
	fake := fakebot.New(t)
	fake.Fail429(2, 7) // getMe, then the first getUpdates
	sl := &sleeps{}
	got, _, _ := run(t, newAdapter(t, fake, t.TempDir(), sl))
	id := fake.Send(fakebot.Msg{From: alice, Text: "hi"})
	if in := next(t, got); in.UpdateID != id {
		t.Fatalf("got %d", in.UpdateID)
	}
	waits := sl.list()
	if len(waits) < 2 || waits[0] != 7*time.Second || waits[1] != 7*time.Second {
		t.Fatalf("waits %v, want 7s twice (retry_after)", waits)
	}

	// Sends wait it out too.
	a := newAdapter(t, fake, t.TempDir(), sl)
	fake.Fail429(1, 3)
	if _, err := a.Send(context.Background(), "4242", channels.Outbound{Text: "x"}); err != nil {
		t.Fatal(err)
	}
	if w := sl.list(); w[len(w)-1] != 3*time.Second {
		t.Fatalf("send waited %v", w)
	}
}

func TestUnauthorizedStops(t *testing.T) {
	fake := fakebot.New(t)
	fake.Revoke()
	_, errc, _ := run(t, newAdapter(t, fake, t.TempDir(), nil))
	err := ended(t, errc)
	if !errors.Is(err, channels.ErrUnauthorized) || !strings.Contains(err.Error(), "hint:") {
		t.Fatalf("got %v, want ErrUnauthorized with a hint", err)
	}
	if strings.Contains(err.Error(), fakebot.Token) {
		t.Fatal("the token leaked into the error")
	}

	// Revoked while polling.
	fake2 := fakebot.New(t)
	got, errc2, _ := run(t, newAdapter(t, fake2, t.TempDir(), nil))
	fake2.Send(fakebot.Msg{From: alice, Text: "hi"})
	next(t, got)
	fake2.Revoke()
	if err := ended(t, errc2); !errors.Is(err, channels.ErrUnauthorized) {
		t.Fatalf("got %v", err)
	}
}

func TestConflictStops(t *testing.T) {
	fake := fakebot.New(t)
	fake.Conflict(1)
	_, errc, _ := run(t, newAdapter(t, fake, t.TempDir(), nil))
	if err := ended(t, errc); !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "hint:") {
		t.Fatalf("got %v", err)
	}
}

func TestMeAndMalformedToken(t *testing.T) {
	fake := fakebot.New(t)
	a := newAdapter(t, fake, t.TempDir(), nil)
	if _, ok := a.Known(); ok {
		t.Fatal("known before asking")
	}
	me, err := a.Me(context.Background())
	if k, ok := a.Known(); !ok || k != me {
		t.Fatalf("known %+v %v", k, ok)
	}
	if err != nil || me.ID != fakebot.BotUser.ID || me.Username != fakebot.BotUser.Username {
		t.Fatalf("%+v %v", me, err)
	}
	for _, tok := range []string{"", "  ", "12/../x", "a b"} {
		if _, err := New(Options{Token: tok}); err == nil {
			t.Fatalf("token %q accepted", tok)
		}
	}
}

// Attacker: a symlink planted where the offset is kept is refused, not followed.
func TestOffsetSymlinkRefused(t *testing.T) {
	fake, dir := fakebot.New(t), t.TempDir()
	target := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.WriteFile(target, []byte(`{"offset":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, offsetFile)); err != nil {
		t.Fatal(err)
	}
	a := newAdapter(t, fake, dir, nil)
	err := a.Receive(context.Background(), func(context.Context, channels.Inbound) {})
	if err == nil || !strings.Contains(err.Error(), "hint:") {
		t.Fatalf("got %v, want a refusal with a hint", err)
	}
	// Writing replaces the link; the file it pointed at is untouched.
	if err := a.saveOffset(99); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != `{"offset":1}` {
		t.Fatalf("written through the link: %s", b)
	}
	if off, err := a.loadOffset(); err != nil || off != 99 {
		t.Fatalf("%d %v", off, err)
	}
}

func TestDamagedOffsetRefused(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, offsetFile), []byte("{nope"), 0o600); err != nil {
		t.Fatal(err)
	}
	a := newAdapter(t, fakebot.New(t), dir, nil)
	if _, err := a.loadOffset(); err == nil || !strings.Contains(err.Error(), "hint:") {
		t.Fatalf("got %v", err)
	}
	fifo := filepath.Join(t.TempDir(), offsetFile)
	if err := mkfifo(fifo); err == nil {
		b := newAdapter(t, fakebot.New(t), filepath.Dir(fifo), nil)
		if _, err := b.loadOffset(); err == nil {
			t.Fatal("a FIFO was read as the offset")
		}
	}
}

// Attacker: an answer that never ends is read up to a bound, and polling goes on.
func TestHugeUpdatesBodyBounded(t *testing.T) {
	fake := fakebot.New(t)
	fake.Huge(1)
	got, _, _ := run(t, newAdapter(t, fake, t.TempDir(), nil))
	id := fake.Send(fakebot.Msg{From: alice, Text: "after"})
	if in := next(t, got); in.UpdateID != id {
		t.Fatalf("got %d", in.UpdateID)
	}
	polls := fake.Log("getUpdates")
	var limited bool
	for _, p := range polls {
		if n := p.Params["limit"]; n != nil && n.(interface{ String() string }).String() == "1" {
			limited = true
		}
	}
	if !limited {
		t.Fatal("after an oversized answer the adapter did not ask for one update at a time")
	}
}

func TestMissingStateDirStartsAtZero(t *testing.T) {
	fake := fakebot.New(t)
	dir := filepath.Join(t.TempDir(), "not", "yet")
	got, _, _ := run(t, newAdapter(t, fake, dir, nil))
	id := fake.Send(fakebot.Msg{From: alice, Text: "first"})
	if in := next(t, got); in.UpdateID != id {
		t.Fatalf("got %d", in.UpdateID)
	}
	none(t, fake, got)
	if _, err := os.Stat(filepath.Join(dir, offsetFile)); err != nil {
		t.Fatal(err)
	}
}

// Transport errors carry the request's URL, and with it the token: the adapter
// takes it out before the error reaches a log or Settings.
func TestTokenNeverInErrors(t *testing.T) {
	fake := fakebot.New(t)
	a := newAdapter(t, fake, t.TempDir(), nil)
	fake.Down()
	_, err := a.Send(context.Background(), "4242", channels.Outbound{Text: "x"})
	if err == nil || strings.Contains(err.Error(), fakebot.Token) || !strings.Contains(err.Error(), "<token>") {
		t.Fatalf("got %v", err)
	}
}

func TestShortClientTimeoutDoesNotCutPolls(t *testing.T) {
	c := &http.Client{Timeout: 10 * time.Second}
	a := newAdapter(t, fakebot.New(t), t.TempDir(), nil, func(o *Options) { o.HTTPClient = c })
	if a.client.Timeout != 0 || c.Timeout != 10*time.Second {
		t.Fatalf("adapter's %v, caller's %v", a.client.Timeout, c.Timeout)
	}
	long := &http.Client{Timeout: time.Hour}
	if b := newAdapter(t, fakebot.New(t), t.TempDir(), nil, func(o *Options) { o.HTTPClient = long }); b.client != long {
		t.Fatal("a long enough client was replaced")
	}
}

func TestOneReceiveAtATime(t *testing.T) {
	fake := fakebot.New(t)
	a := newAdapter(t, fake, t.TempDir(), nil)
	got, _, _ := run(t, a)
	fake.Send(fakebot.Msg{From: alice, Text: "running"})
	next(t, got)
	if err := a.Receive(context.Background(), nil); err == nil || !strings.Contains(err.Error(), "already receiving") {
		t.Fatalf("a second Receive: %v", err)
	}
}
