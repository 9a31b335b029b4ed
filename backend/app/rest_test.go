package app

import (
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
