package schedule

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzCron: any cron expression is accepted or refused by Validate, and an
// accepted one gives a next run (or an error) without a panic or a hang.
// Seeds: testdata/fuzz/FuzzCron.
func FuzzCron(f *testing.F) {
	for _, s := range []string{"0 9 * * 1-5", "*/5 * * * *", "@daily", "0 0 31 2 *", "61 25 * * *", "", "* * * * * * *", "0 9 * * MON#2"} {
		f.Add(s)
	}
	after := time.Date(2026, 3, 29, 1, 30, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, expr string) {
		s := Schedule{Kind: KindCron, Expr: expr, TZ: "Europe/Berlin"}
		if s.Validate() != nil {
			return
		}
		_, _ = s.Next(after, time.Time{})
	})
}

// FuzzJobsFile: any jobs.json loads to jobs and problems, or to an error — never a
// panic. Seeds: testdata/fuzz/FuzzJobsFile.
func FuzzJobsFile(f *testing.F) {
	f.Add([]byte(`{"version":1,"jobs":[{"id":"a","name":"n","schedule":{"kind":"every","everyMs":60000},"payload":{"message":"m"}}]}`))
	f.Add([]byte(`{"jobs":[{"id":"a"},{"id":"a"},7,null]}`))
	f.Add([]byte(`{"jobs":{}}`))
	f.Add([]byte(`[`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, FileName), data, 0o600); err != nil {
			t.Fatal(err)
		}
		_, _, _ = NewStore(dir).Load()
	})
}
