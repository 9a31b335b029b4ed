package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/adrg/xdg"

	"hearth/backend/internal/fakeollama"
	"hearth/backend/schedule"
)

func TestCronAddListRunRemove(t *testing.T) {
	startChat(t, fakeollama.Reply{Content: "Drink some water!"})
	code, out, errOut := runIn(t, "", "cron", "add", "--name", "water", "--message", "remind me to drink water", "--every", "3600")
	if code != 0 {
		t.Fatalf("add: %d %s", code, errOut)
	}
	m := regexp.MustCompile(`^Added reminder ([0-9a-f]{8}) \(water\): every hour; next run .* \(in 1 h\)\.\n$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("add output %q", out)
	}
	id := m[1]
	code, out, _ = runIn(t, "", "cron", "add", "--message", "call mum", "--cron", "0 9 * * 1-5", "--tz", "Europe/Berlin")
	if code != 0 || !strings.Contains(out, "on weekdays at 09:00 (Europe/Berlin)") {
		t.Fatalf("add cron: %d %q", code, out)
	}
	code, out, _ = runIn(t, "", "cron", "list")
	if code != 0 || !strings.Contains(out, id+"  water") || !strings.Contains(out, "call mum") || !strings.HasPrefix(out, "ID ") {
		t.Fatalf("list: %d\n%s", code, out)
	}
	code, out, errOut = runIn(t, "", "cron", "run", id)
	if code != 0 || out != "Drink some water!\n" {
		t.Fatalf("run: %d %q %q", code, out, errOut)
	}
	code, out, _ = runIn(t, "", "cron", "list", "--json")
	var jobs []schedule.Job
	if err := json.Unmarshal([]byte(out), &jobs); err != nil || code != 0 {
		t.Fatalf("list --json: %v\n%s", err, out)
	}
	for _, j := range jobs {
		if j.ID == id && (j.LastStatus != "ok" || len(j.History) != 1) {
			t.Errorf("after run: %+v", j)
		}
	}
	if code, out, _ = runIn(t, "", "cron", "remove", id); code != 0 || !strings.Contains(out, "Removed") {
		t.Fatalf("remove: %d %q", code, out)
	}
	if code, _, errOut = runIn(t, "", "cron", "remove", id); code != 1 || !strings.Contains(errOut, "hearth cron list") {
		t.Errorf("remove again: %d %q", code, errOut)
	}
}

func TestCronUsageAndDamagedFile(t *testing.T) {
	startChat(t)
	for _, args := range [][]string{
		{"cron", "add", "--message", "x"},
		{"cron", "add", "--message", "x", "--every", "60", "--at", "in 1 minute"},
		{"cron", "add", "--message", "x", "--at", "someday"},
		{"cron", "add", "--message", "x", "--every", "60", "--tz", "UTC"},
		{"cron", "remove"},
	} {
		if code, _, errOut := runIn(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", args, code, errOut)
		}
	}
	p := filepath.Join(xdg.DataHome, "hearth", "cron", "jobs.json")
	os.MkdirAll(filepath.Dir(p), 0o700)
	os.WriteFile(p, []byte("{not json"), 0o600)
	code, _, errOut := runIn(t, "", "cron", "list")
	if code != 1 || !strings.Contains(errOut, "damaged") || !strings.Contains(errOut, "hint") {
		t.Errorf("damaged list: %d %q", code, errOut)
	}
	if code, _, _ := runIn(t, "", "cron", "add", "--message", "x", "--every", "60"); code != 1 {
		t.Errorf("add over a damaged file: exit %d", code)
	}
	if b, _ := os.ReadFile(p); string(b) != "{not json" {
		t.Errorf("damaged file changed: %q", b)
	}
}
