package app

import (
	"runtime"
	"testing"
	"time"
)

func TestRestReleasesAfterWorkOnlyOnceItRests(t *testing.T) {
	var r rest
	r.after = time.Millisecond
	ran := make(chan int, 4)
	n := 0
	r.add(func() { n++; ran <- n })
	r.touch()
	if got := <-ran; got != 1 {
		t.Fatalf("release ran %d times, want 1", got)
	}
	select {
	case <-ran:
		t.Fatal("release ran again without new work")
	case <-time.After(20 * time.Millisecond):
	}
	r.touch() // new work: one more release
	if got := <-ran; got != 2 {
		t.Fatalf("release ran %d times, want 2", got)
	}
	r.stop()
	r.touch() // after Close nothing is armed
	select {
	case <-ran:
		t.Fatal("release ran after stop")
	case <-time.After(20 * time.Millisecond):
	}
}

// TestRestReleasesAroundOneCollection: at rest, the releases that free memory run before
// Go's collection and the ones that unmap pages after it, once a burst, however many
// touches the burst had.
func TestRestReleasesAroundOneCollection(t *testing.T) {
	r := &rest{after: 10 * time.Millisecond}
	gcs := func() uint32 {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.NumGC
	}
	type call struct {
		name string
		gc   uint32
	}
	calls := make(chan call, 10)
	r.add(func() { calls <- call{"release", gcs()} })
	r.addRested(func() { calls <- call{"rested", gcs()} })
	for range 3 {
		r.touch()
	}
	hang := time.After(30 * time.Second)
	var got []call
	for len(got) < 2 {
		select {
		case c := <-calls:
			got = append(got, c)
		case <-hang:
			t.Fatalf("the rest never came: %v", got)
		}
	}
	if got[0].name != "release" || got[1].name != "rested" || got[1].gc <= got[0].gc {
		t.Errorf("calls %+v: want the release, a collection, then the rested hook", got)
	}
	select {
	case c := <-calls:
		t.Errorf("%s ran again after three touches of one burst", c.name)
	case <-time.After(50 * time.Millisecond):
	}
}

// TestRestNowComesAtOnce: the window coming to rest brings the release forward from the
// timer, and after stop it does nothing.
func TestRestNowComesAtOnce(t *testing.T) {
	r := rest{after: time.Hour} // only now() can make it run within the test
	ran := make(chan struct{}, 2)
	r.addRested(func() { ran <- struct{}{} })
	wait := func(what string) {
		t.Helper()
		select {
		case <-ran:
		case <-time.After(30 * time.Second): // a hang detector: now() runs at once
			t.Fatalf("now() did not bring the rest forward %s", what)
		}
	}
	r.now() // no work yet: the window rests all the same
	wait("with no timer armed")
	r.touch()
	r.now()
	wait("over the armed timer")
	r.stop()
	r.now()
	select {
	case <-ran:
		t.Fatal("the rest ran after stop")
	case <-time.After(20 * time.Millisecond):
	}
}
