package app

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkIdleCompaction: the next turn of a 200-turn chat on a 4 096-token
// window, with the chat compacted while idle (idle) and without (none), through the
// real app against the fake Ollama. Reported: that turn's first request in
// characters (the test's folder counted as one) and the consolidation requests
// from its start until its consolidations ended. Target (issue 31): idle makes 0
// consolidation requests, and its first request is no larger than none's.
func BenchmarkIdleCompaction(b *testing.B) {
	for _, c := range []struct {
		name string
		idle time.Duration
	}{{"idle", time.Millisecond}, {"none", 0}} {
		b.Run(c.name, func(b *testing.B) {
			a, fake := idleApp(b, c.idle)
			nextTurnIn(b, a, fake, "warm", c.idle > 0) // the budget's calibration settles, as in a used app
			var first, cons, n int
			for b.Loop() {
				f, k := nextTurnIn(b, a, fake, fmt.Sprintf("garden%d", n), c.idle > 0)
				first, cons, n = first+f, cons+k, n+1
			}
			b.ReportMetric(float64(first)/float64(n), "chars/first-request")
			b.ReportMetric(float64(cons)/float64(n), "consolidations/next-turn")
		})
	}
}
