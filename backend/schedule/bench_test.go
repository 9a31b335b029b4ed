package schedule

import (
	"context"
	"testing"
	"time"

	"hearth/backend/internal/fakeclock"
)

// benchStore writes n jobs that are all due well after the benchmark's hour.
func benchStore(b *testing.B, n int) *Store {
	b.Helper()
	st := NewStore(b.TempDir())
	err := st.Update(func([]Job) ([]Job, error) {
		jobs := make([]Job, n)
		for i := range jobs {
			kinds := []Schedule{
				{Kind: KindEvery, EverySeconds: 86400},
				{Kind: KindCron, Expr: "0 3 * * *", TZ: "Europe/Berlin"},
				{Kind: KindAt, At: t0.Add(48 * time.Hour)},
			}
			jobs[i] = Job{ID: NewJobID() + string(rune('a'+i%26)), JobSpec: JobSpec{Message: "m", Schedule: kinds[i%3]},
				Created: t0, NextRun: t0.Add(2*time.Hour + time.Duration(i)*time.Second)}
		}
		return jobs, nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return st
}

// BenchmarkIdleWake measures one idle wake-up of the scheduler with 1 000
// jobs (re-read the clock, stat jobs.json, scan for due jobs, pick the
// sleep). Target: < 1 ms per wake (ns/op), and at most one wake a minute
// while nothing is due (wakes/min, measured over a simulated hour).
func BenchmarkIdleWake(b *testing.B) {
	st := benchStore(b, 1000)
	clock := fakeclock.New(t0)
	s, err := New(Options{Store: st, Clock: clock, Run: func(context.Context, Job) Outcome {
		b.Fatal("an idle benchmark ran a job")
		return Outcome{}
	}})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	s.Wake(ctx) // the first wake loads the file
	if jobs, _, _ := s.Jobs(); len(jobs) != 1000 {
		b.Fatalf("%d jobs loaded", len(jobs))
	}

	b.ResetTimer()
	for b.Loop() {
		if d := s.Wake(ctx); d != MaxSleep {
			b.Fatalf("idle sleep %v, want %v", d, MaxSleep)
		}
	}
	b.StopTimer()

	// The loop itself over a simulated hour of wall time.
	s2, _ := New(Options{Store: st, Clock: clock, Run: s.opts.Run})
	ctx2, cancel := context.WithCancel(ctx)
	s2.Start(ctx2)
	start := clock.Afters()
	end := clock.Now().Add(time.Hour)
	for clock.Now().Before(end) {
		if !clock.WaitForWaiters(1) {
			b.Fatal("scheduler loop not sleeping")
		}
		clock.Set(clock.NextTimer())
	}
	wakes := clock.Afters() - start
	cancel()
	s2.Wait()
	b.ReportMetric(float64(wakes)/60, "wakes/min")
	if wakes > 61 {
		b.Errorf("%d wakes in an idle hour, want at most one a minute", wakes)
	}
}
