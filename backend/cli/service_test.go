package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/adrg/xdg"

	"hearth/backend/applock"
	"hearth/backend/settings"
)

// fakeSystemctl puts a systemctl running script first on PATH ("" leaves none there).
func fakeSystemctl(t *testing.T, script string) {
	t.Helper()
	dir := t.TempDir()
	if script != "" {
		if err := os.WriteFile(filepath.Join(dir, "systemctl"), []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+"/usr/bin:/bin")
	if script == "" {
		t.Setenv("PATH", dir)
	}
}

func statusJSON(t *testing.T) (settings.Status, serviceStatus) {
	t.Helper()
	_, out, errOut := run(t, nil, "status", "--json")
	var st settings.Status
	var rep struct {
		Service serviceStatus `json:"service"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("%v: %s %s", err, out, errOut)
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	return st, rep.Service
}

// hearth status names who holds the data folder, from the lock's record.
func TestStatusShowsTheHolder(t *testing.T) {
	setup(t, fakeOllama(t))
	fakeSystemctl(t, "")
	code, out, _ := run(t, nil, "status")
	if code != 0 || !strings.Contains(out, "Service     not running (no Hearth holds the data folder)\n") ||
		!strings.Contains(out, "systemd is not available here") && !strings.Contains(out, "not installed") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	desk, err := applock.AcquireAs(lockPath(), applock.KindDesktop)
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ = run(t, nil, "status")
	if code != 0 || !strings.Contains(out, "Service     not running: desktop (pid "+strconv.Itoa(os.Getpid())+", since ") {
		t.Fatalf("beside the desktop app: exit %d\n%s", code, out)
	}
	_ = desk.Release()
	l, err := applock.AcquireAs(lockPath(), applock.KindServe)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	code, out, _ = run(t, nil, "status")
	want := "Service     running: serve (pid " + strconv.Itoa(os.Getpid()) + ", since "
	if code != 0 || !strings.Contains(out, want) || !strings.Contains(out, "holds the data folder\n") {
		t.Fatalf("exit %d, want %q:\n%s", code, want, out)
	}
	st, svc := statusJSON(t)
	if st.Version == "" || !st.OllamaReachable {
		t.Fatalf("the status's own fields changed: %+v", st)
	}
	if !svc.Held || svc.Kind != "serve" || svc.PID != os.Getpid() || svc.Since.IsZero() {
		t.Fatalf("service %+v", svc)
	}
}

// With systemctl, its answer is the unit's state; when the user manager cannot answer
// (or hangs), the unit folders say it, and status still succeeds.
func TestStatusShowsTheUnit(t *testing.T) {
	setup(t, fakeOllama(t))
	installed := filepath.Join(xdg.DataHome, "systemd", "user", unitName)
	if err := os.MkdirAll(filepath.Dir(installed), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(installed, []byte("[Service]\nExecStart=hearth serve\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("systemctl answers", func(t *testing.T) {
		fakeSystemctl(t, `[ "$*" = "--user is-enabled hearth.service" ] && echo disabled && exit 1; exit 4`)
		code, out, _ := run(t, nil, "status")
		if code != 0 || !strings.Contains(out, "user unit hearth.service disabled ("+installed+")") ||
			!strings.Contains(out, "hint: systemctl --user enable --now hearth") {
			t.Fatalf("exit %d:\n%s", code, out)
		}
		_, svc := statusJSON(t)
		if svc.Unit.State != "disabled" || svc.Unit.Path != installed || svc.Unit.Note != "" {
			t.Fatalf("unit %+v", svc.Unit)
		}
	})
	t.Run("no user manager", func(t *testing.T) {
		fakeSystemctl(t, `echo "Failed to connect to bus: No medium found" >&2; exit 1`)
		wants := filepath.Join(xdg.ConfigHome, "systemd", "user", "default.target.wants")
		if err := os.MkdirAll(wants, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(installed, filepath.Join(wants, unitName)); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(filepath.Join(wants, unitName))
		code, out, _ := run(t, nil, "status")
		if code != 0 || !strings.Contains(out, "user unit hearth.service enabled") ||
			!strings.Contains(out, "user manager did not answer: read from the unit folders") {
			t.Fatalf("exit %d:\n%s", code, out)
		}
	})
	t.Run("systemctl hangs", func(t *testing.T) {
		fakeSystemctl(t, "sleep 120")
		code, out, _ := run(t, nil, "status")
		if code != 0 || !strings.Contains(out, "systemctl did not answer within 3s: read from the unit folders") ||
			!strings.Contains(out, "user unit hearth.service disabled") {
			t.Fatalf("exit %d:\n%s", code, out)
		}
	})
	t.Run("garbage answer", func(t *testing.T) {
		fakeSystemctl(t, `head -c 100000 /dev/zero | tr '\0' 'x'; echo`)
		_, svc := statusJSON(t)
		if len(svc.Unit.State) > 64 {
			t.Fatalf("a flood from systemctl became the state: %d bytes", len(svc.Unit.State))
		}
	})
}
