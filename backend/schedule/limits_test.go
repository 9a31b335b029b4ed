package schedule

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/backend/internal/safefile/safefiletest"
	"hearth/backend/tools"
)

func every(msg string) JobSpec {
	return JobSpec{Message: msg, Schedule: Schedule{Kind: KindEvery, EverySeconds: 3600}}
}

func isLimit(err error, code string) bool {
	var le *LimitError
	return errors.As(err, &le) && le.Why.Text.Code == code && len(le.Why.Hint) == 1
}

// The model adding reminders without end (ten thousand tries): past MaxJobs every
// add is refused with an error that says the bound, and the file stays readable
// with every reminder it held. The first MaxJobs-5 are written in one go (an Add
// each would be a thousand fsyncs); the tries go through Add until the refusals
// are steady, since each refusal reads the same full file.
func TestTenThousandRemindersStopAtTheBound(t *testing.T) {
	st := NewStore(t.TempDir())
	now := t0
	if err := st.Update(func(jobs []Job) ([]Job, error) {
		for i := range MaxJobs - 5 {
			jobs = append(jobs, Job{ID: fmt.Sprintf("j%05d", i), JobSpec: every("water the plants"), Created: now})
		}
		return jobs, nil
	}); err != nil {
		t.Fatal(err)
	}
	added, refused := MaxJobs-5, 0
	for range 10000 - (MaxJobs - 5) {
		_, err := st.Add(every("water the plants"), now)
		switch {
		case err == nil:
			added++
		case isLimit(err, "schedule.limit.count"):
			refused++
			if refused == 1 && (!strings.Contains(err.Error(), "1000") || !strings.Contains(err.Error(), "hint:")) {
				t.Errorf("refusal: %v", err)
			}
		default:
			t.Fatalf("add: %v", err)
		}
		if refused > 50 {
			break
		}
	}
	if added != MaxJobs {
		t.Errorf("%d reminders added, want %d", added, MaxJobs)
	}
	jobs, problems, err := st.Load()
	if err != nil || len(jobs) != MaxJobs || len(problems) != 0 {
		t.Fatalf("load: %d jobs, %v, %v", len(jobs), problems, err)
	}
	data, _ := os.ReadFile(st.Path())
	if strings.Contains(string(data), "\n  ") || len(data) > maxJobsBytes/8 {
		t.Errorf("jobs.json is %d bytes, indented: %v", len(data), strings.Contains(string(data), "\n  "))
	}
	// Removing one makes room again.
	if err := st.Remove(jobs[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Add(every("one more"), now); err != nil {
		t.Errorf("after a removal: %v", err)
	}

	// A file that holds ten thousand already (an older Hearth, a hand edit) is
	// read whole, nothing lost; adding is refused until there is room.
	big := NewStore(t.TempDir())
	var b strings.Builder
	b.WriteString(`{"version":1,"jobs":[`)
	for i := range 10000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"k%05d","message":"stretch","schedule":{"kind":"every","everySeconds":3600},"created":"2026-11-23T09:00:00Z"}`, i)
	}
	b.WriteString("]}\n")
	if err := os.WriteFile(big.Path(), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if jobs, problems, err := big.Load(); err != nil || len(jobs) != 10000 || len(problems) != 0 {
		t.Fatalf("ten thousand: %d jobs, %v, %v", len(jobs), problems, err)
	}
	if _, err := big.Add(every("one more"), now); !isLimit(err, "schedule.limit.count") {
		t.Errorf("add to ten thousand: %v", err)
	}
}

// The model hears the bound from the cron tool, as an error it can act on.
func TestCronToolSaysTheBound(t *testing.T) {
	jobs := &fakeJobs{store: NewStore(t.TempDir()), now: t0}
	cron := Tools(jobs, nil, func() time.Time { return t0 }, time.UTC)[0]
	raw, _ := json.Marshal(map[string]any{"action": "add", "message": strings.Repeat("a", 2<<20), "every_seconds": 60})
	reg := tools.NewRegistry(tools.RegistryOptions{})
	if err := reg.Register(cron); err != nil {
		t.Fatal(err)
	}
	r := reg.Call(context.Background(), "cron", raw)
	if !r.IsError || !strings.Contains(r.Content, "at most 4000") {
		t.Errorf("cron add of 2 MB: %q", r.Content)
	}
}

// A 2 MB reminder (nine of them locked every reminder out) is refused with the
// bound, and so is an edit that makes one that long; nothing is written.
func TestLongReminderTextIsRefused(t *testing.T) {
	st := NewStore(t.TempDir())
	j, err := st.Add(every("short"), t0)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(st.Path())
	huge := strings.Repeat("a", 2<<20)
	if _, err := st.Add(every(huge), t0); !isLimit(err, "schedule.limit.message") || !strings.Contains(err.Error(), "4000") {
		t.Errorf("add: %v", err)
	}
	if _, err := st.Edit(j.ID, every(huge), t0); !isLimit(err, "schedule.limit.message") {
		t.Errorf("edit: %v", err)
	}
	long := every("m")
	long.Name = strings.Repeat("n", MaxNameChars+1)
	if _, err := st.Add(long, t0); !isLimit(err, "schedule.limit.name") {
		t.Errorf("name: %v", err)
	}
	// Exactly at the bound is fine, in characters, not bytes.
	if _, err := st.Add(every(strings.Repeat("é", MaxMessageChars)), t0); err != nil {
		t.Errorf("at the bound: %v", err)
	}
	after, _ := os.ReadFile(st.Path())
	if len(after) <= len(before) || strings.Contains(string(after), huge[:1000]) {
		t.Errorf("file %d → %d bytes", len(before), len(after))
	}
}

// No write makes a jobs.json the reader would refuse: one that would pass the
// bound fails with a coded error and the file stays as it was.
func TestWriteNeverPassesTheReadBound(t *testing.T) {
	st := NewStore(t.TempDir())
	if _, err := st.Add(every("keep me"), t0); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(st.Path())
	err := st.Update(func(jobs []Job) ([]Job, error) {
		for i := range 9 {
			// What the model's 2 MB messages did before they were bounded.
			jobs = append(jobs, Job{ID: "big" + string(rune('a'+i)), JobSpec: every(strings.Repeat("x", 2<<20)), Created: t0})
		}
		return jobs, nil
	})
	if !isLimit(err, "schedule.limit.file") || !strings.Contains(err.Error(), "16.0 MB") {
		t.Fatalf("update: %v", err)
	}
	after, _ := os.ReadFile(st.Path())
	if string(after) != string(before) {
		t.Error("the file changed")
	}
	if jobs, _, err := st.Load(); err != nil || len(jobs) != 1 {
		t.Errorf("load: %v, %v", jobs, err)
	}
}

// A run's long error is kept short in the history.
func TestRunErrorIsClipped(t *testing.T) {
	var j Job
	j.record(RunRecord{At: t0, Status: StatusError, Error: strings.Repeat("e", 100000)})
	if n := len([]rune(j.LastError)); n != maxRunErrorChars || len([]rune(j.History[0].Error)) != maxRunErrorChars {
		t.Errorf("kept %d characters", n)
	}
}

// jobs.json as a FIFO or a link to /dev/zero: adding a reminder answers at once
// with an error, and nothing replaces the file.
func TestAddOnBadJobsFileAnswers(t *testing.T) {
	for name, p := range safefiletest.Make(t, t.TempDir(), maxJobsBytes) {
		if name == "folder" {
			continue
		}
		dir := t.TempDir()
		if err := os.Rename(p, filepath.Join(dir, FileName)); err != nil {
			t.Fatal(err)
		}
		safefiletest.Answers(t, name, func() {
			if _, err := NewStore(dir).Add(every("m"), t0); err == nil {
				t.Errorf("%s: added", name)
			}
		})
		if fi, err := os.Lstat(filepath.Join(dir, FileName)); err != nil || fi.Mode().IsRegular() != (name == "huge") || fi.Size() == 0 && name == "huge" {
			t.Errorf("%s: replaced (%v)", name, err)
		}
	}
	_ = time.Second
}
