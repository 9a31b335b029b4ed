package channels

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// fakeNow is a clock a test moves by hand.
type fakeNow struct{ t time.Time }

func (c *fakeNow) now() time.Time      { return c.t }
func (c *fakeNow) add(d time.Duration) { c.t = c.t.Add(d) }
func ops(f *fakeChannel) (out []string) {
	for _, c := range f.got("") {
		out = append(out, c.Op+":"+c.Msg+":"+c.Text)
	}
	return out
}

// One message grows by edits, at most one per second of the clock; Close shows
// the rest whatever the pace.
func TestReplyEditsOneMessageAtTheChannelsPace(t *testing.T) {
	ctx := context.Background()
	ch, clock := newFakeChannel(), &fakeNow{t: time.Unix(1000, 0)}
	r := NewReply(ch, "7", time.Second, clock.now)
	r.Write(ctx, "Hel")
	r.Write(ctx, "lo") // too soon: no edit
	clock.add(400 * time.Millisecond)
	r.Tick(ctx) // still too soon
	clock.add(600 * time.Millisecond)
	r.Tick(ctx) // due
	r.Write(ctx, ", world")
	r.Tick(ctx)
	r.Close(ctx)
	r.Close(ctx) // nothing new: no edit
	want := []string{"send:1:Hel", "edit:1:Hello", "edit:1:Hello, world"}
	if got := ops(ch); !reflect.DeepEqual(got, want) {
		t.Fatalf("calls\n%q\nwant\n%q", got, want)
	}
}

// Past the limit the text is split at a paragraph boundary: the first part is
// frozen in its message, the rest goes on in a new one.
func TestReplySplitsAtParagraphs(t *testing.T) {
	ctx := context.Background()
	ch, clock := newFakeChannel(), &fakeNow{t: time.Unix(1000, 0)}
	ch.limit = 30
	r := NewReply(ch, "7", time.Second, clock.now)
	r.Write(ctx, "First paragraph here.\n\nSecond")
	r.Write(ctx, " paragraph goes on.")
	r.Close(ctx)
	// The first part is frozen where the paragraph ends; the rest is a new message.
	want := []string{"send:1:First paragraph here.\n\nSecond", "edit:1:First paragraph here.", "send:2:Second paragraph goes on."}
	if got := ops(ch); !reflect.DeepEqual(got, want) {
		t.Fatalf("calls\n%q\nwant\n%q", got, want)
	}
	for _, c := range ch.got("") {
		if n := len([]rune(c.Text)); n > 30 {
			t.Errorf("a message of %d runes, limit 30: %q", n, c.Text)
		}
	}
}

// A text without any break is cut hard at the limit, on a rune boundary.
func TestReplyCutsLongWordsOnRunes(t *testing.T) {
	ctx := context.Background()
	ch, clock := newFakeChannel(), &fakeNow{t: time.Unix(1000, 0)}
	ch.limit = 10
	r := NewReply(ch, "7", time.Second, clock.now)
	r.Write(ctx, strings.Repeat("界", 25))
	r.Close(ctx)
	for _, c := range ch.got("") {
		if n := len([]rune(c.Text)); n > 10 {
			t.Errorf("a message of %d runes", n)
		}
	}
	if got := ch.got("send"); len(got) != 3 || ch.got("send")[2].Text != strings.Repeat("界", 5) {
		t.Fatalf("sends %q", ch.texts("send"))
	}
}

// Tool lines start a paragraph of their own; Break sends what follows anew.
func TestReplyLinesAndBreak(t *testing.T) {
	ctx := context.Background()
	ch, clock := newFakeChannel(), &fakeNow{t: time.Unix(1000, 0)}
	r := NewReply(ch, "7", time.Second, clock.now)
	r.Write(ctx, "Looking.")
	clock.add(time.Second)
	r.Line(ctx, "🔧 read_file notes.md")
	r.Break(ctx)
	r.Write(ctx, "Done.")
	r.Close(ctx)
	want := []string{"send:1:Looking.", "edit:1:Looking.\n\n🔧 read_file notes.md", "send:2:Done."}
	if got := ops(ch); !reflect.DeepEqual(got, want) {
		t.Fatalf("calls\n%q\nwant\n%q", got, want)
	}
}

// Emoji count two units, as Telegram counts: no message passes the limit.
func TestReplyCountsLikeTelegram(t *testing.T) {
	ctx := context.Background()
	ch, clock := newFakeChannel(), &fakeNow{t: time.Unix(1000, 0)}
	ch.limit = 10
	r := NewReply(ch, "7", time.Second, clock.now)
	r.Write(ctx, strings.Repeat("😀", 12))
	r.Close(ctx)
	total := 0
	for _, c := range ch.got("send") {
		if n := units(c.Text); n > 10 {
			t.Errorf("a message of %d units: %q", n, c.Text)
		}
		total += len([]rune(c.Text))
	}
	if total != 12 {
		t.Errorf("%d emoji sent, want 12", total)
	}
}

// Whatever the model writes, every message fits and nothing is lost but the
// blanks where it was split.
func FuzzReplySplit(f *testing.F) {
	f.Add("Hello world.\n\nSecond paragraph\nline", 12)
	f.Add(strings.Repeat("😀", 9), 3)
	f.Add("a\n\n\n\nb  c", 2)
	f.Fuzz(func(t *testing.T, text string, limit int) {
		if limit < 2 || limit > 200 || !utf8.ValidString(text) {
			return
		}
		ctx := context.Background()
		ch, clock := newFakeChannel(), &fakeNow{t: time.Unix(1000, 0)}
		ch.limit = limit
		r := NewReply(ch, "7", time.Second, clock.now)
		orig := text
		for len(text) > 0 { // in deltas of a few bytes, as a model streams
			n := min(len(text), 7)
			for n < len(text) && !utf8.RuneStart(text[n]) {
				n++
			}
			r.Write(ctx, text[:n])
			text = text[n:]
		}
		r.Close(ctx)
		last := map[string]string{}
		var order []string
		for _, c := range ch.got("") {
			if units(c.Text) > limit {
				t.Fatalf("a message of %d units, limit %d", units(c.Text), limit)
			}
			if _, ok := last[c.Msg]; !ok {
				order = append(order, c.Msg)
			}
			last[c.Msg] = c.Text
		}
		var all []string
		for _, id := range order {
			all = append(all, last[id])
		}
		squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
		if got, want := squeeze(strings.Join(all, " ")), squeeze(orig); got != want {
			t.Fatalf("shown %q, written %q", got, want)
		}
	})
}
