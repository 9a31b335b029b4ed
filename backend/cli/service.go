package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/adrg/xdg"

	"hearth/backend/app"
	"hearth/backend/settings"
)

// serviceStatus is what `hearth status` says of the service: who holds the data folder
// (the lock) and the systemd user unit.
type serviceStatus struct {
	Held      bool      `json:"held"`                // a process holds hearth.lock
	Kind      string    `json:"kind,omitempty"`      // desktop, serve, cli; empty when unknown
	PID       int       `json:"pid,omitempty"`       // its pid, when it wrote one
	Since     time.Time `json:"since,omitzero"`      // when it took the lock
	LockError string    `json:"lockError,omitempty"` // the lock could not be read
	Unit      unitState `json:"unit"`
}

// unitState is the hearth.service user unit as systemd (or, without its answer, the
// unit folders) sees it.
type unitState struct {
	// State is systemctl's is-enabled answer (enabled, disabled, masked, …),
	// "not-installed", or "unknown" when it cannot be told (no systemd here).
	State string `json:"state"`
	Path  string `json:"path,omitempty"` // where the unit file is, when found
	Note  string `json:"note,omitempty"` // why State is only what the files say
}

// statusReport is `hearth status --json`: the status's fields as before, and the service.
type statusReport struct {
	settings.Status
	Service serviceStatus `json:"service"`
}

// unitName is the unit make install and the package install (build/linux/hearth.service).
const unitName = "hearth.service"

// systemctlTimeout bounds the question to systemd: a user manager that does not answer
// must not hold up `hearth status`.
const systemctlTimeout = 3 * time.Second

func readService(ctx context.Context, h *app.App) serviceStatus {
	var s serviceStatus
	holder, held, err := h.LockState()
	if err != nil {
		s.LockError = err.Error()
	}
	s.Held = held
	if held {
		s.Kind, s.PID, s.Since = string(holder.Kind), holder.PID, holder.Since
	}
	s.Unit = readUnit(ctx)
	return s
}

// readUnit asks systemctl whether the user unit is enabled; without systemctl it says so,
// and when systemctl cannot answer (no user manager: a shell without a login session)
// the unit folders tell whether it is installed and enabled.
func readUnit(ctx context.Context) unitState {
	u := unitState{Path: findUnit()}
	bin, err := exec.LookPath("systemctl")
	if err != nil {
		u.State, u.Note = "unknown", "systemd is not available here (no systemctl)"
		if u.Path == "" {
			u.State = "not-installed"
		}
		return u
	}
	ctx, cancel := context.WithTimeout(ctx, systemctlTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--user", "is-enabled", unitName)
	cmd.WaitDelay = time.Second // a child keeping the pipe open must not hold us
	out := &capped{max: 256}
	cmd.Stdout = out
	_ = cmd.Run() // is-enabled exits non-zero for every state but enabled
	if state := strings.TrimSpace(firstLine(out.String())); unitStateRe.MatchString(state) {
		u.State = state
		return u
	}
	why := "systemd's user manager did not answer"
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		why = fmt.Sprintf("systemctl did not answer within %s", systemctlTimeout)
	}
	u.State, u.Note = unitFromFiles(u.Path), why+": read from the unit folders"
	return u
}

// unitStateRe is what an is-enabled answer looks like (enabled, linked-runtime, …);
// anything else is not taken for one.
var unitStateRe = regexp.MustCompile(`^[a-z][a-z-]{0,31}$`)

// capped keeps the first max bytes written to it and drops the rest: systemctl's answer
// is a word, and a flood must not grow without bound.
type capped struct {
	buf bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (c *capped) String() string { return c.buf.String() }

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// unitDirs are the user unit folders systemd searches that Hearth installs into or a
// person copies the unit to, in systemd's order.
func unitDirs() []string {
	return []string{filepath.Join(xdg.ConfigHome, "systemd", "user"), "/etc/systemd/user",
		filepath.Join(xdg.DataHome, "systemd", "user"), "/usr/local/lib/systemd/user", "/usr/lib/systemd/user"}
}

// findUnit is the first hearth.service in the unit folders, or "".
func findUnit() string {
	for _, d := range unitDirs() {
		p := filepath.Join(d, unitName)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// unitFromFiles is the state the folders show: enabled when default.target wants it
// (for this user or for every user), else disabled when installed.
func unitFromFiles(path string) string {
	for _, d := range []string{filepath.Join(xdg.ConfigHome, "systemd", "user"), "/etc/systemd/user"} {
		if _, err := os.Lstat(filepath.Join(d, "default.target.wants", unitName)); err == nil {
			return "enabled"
		}
	}
	if path == "" {
		return "not-installed"
	}
	return "disabled"
}

// printService adds the Service lines to `hearth status`.
func printService(w io.Writer, s serviceStatus) {
	switch {
	case s.Held && s.Kind == string(app.LockServe):
		who := app.LockHolder{Kind: app.LockKind(s.Kind), PID: s.PID, Since: s.Since}
		fmt.Fprintf(w, "Service     running: %s holds the data folder\n", who)
	case s.Held:
		who := app.LockHolder{Kind: app.LockKind(s.Kind), PID: s.PID, Since: s.Since}
		fmt.Fprintf(w, "Service     not running: %s holds the data folder\n", who)
	case s.LockError != "":
		fmt.Fprintf(w, "Service     unknown: %s\n", s.LockError)
	default:
		fmt.Fprintf(w, "Service     not running (no Hearth holds the data folder)\n")
	}
	u := s.Unit
	switch u.State {
	case "not-installed":
		fmt.Fprintf(w, "%suser unit %s not installed (make install or the package installs it)\n", pad, unitName)
	case "unknown":
		fmt.Fprintf(w, "%suser unit %s: %s\n", pad, unitName, u.Note)
	default:
		fmt.Fprintf(w, "%suser unit %s %s (%s)\n", pad, unitName, u.State, u.Path)
		if u.Note != "" {
			fmt.Fprintf(w, "%s%s\n", pad, u.Note)
		}
		if u.State == "disabled" {
			fmt.Fprintf(w, "%shint: systemctl --user enable --now hearth (runs Hearth without a window at login)\n", pad)
		}
	}
}
