// Package sandbox runs a command so that it can only write where it is allowed to,
// cannot read Hearth's own folders, has no network unless allowed, cannot see Hearth's
// processes, and leaves nothing running when it ends or when Hearth dies.
//
// How: Hearth re-executes its own binary as a small helper (the hidden first argument
// HelperArg, handled in this package's init before anything else runs). The helper is
// started in new user, PID, mount and (without network) network namespaces where the
// kernel allows; it hides Hearth's folders under empty mounts, mounts a /proc of its own,
// keeps the read-only folders inside writable ones (knowledge folders) read-only by
// mounts of their own, applies Landlock (write only to the workspace, allowedPaths and
// the temp folder), and runs the command as its child. It is the command's reaper: when the command ends, is
// stopped, or Hearth dies (a parent-death signal), every process the command started
// ends too, setsid ones included. Without Landlock, bubblewrap does the same job where it
// is installed; with neither, the command runs as before, under the reaper only, and
// Status says so. See docs/safety.md.
package sandbox

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	"hearth/backend/i18n"
	"hearth/backend/internal/confined"
)

// HelperArg is the hidden first argument that makes a Hearth binary act as the helper.
// It carries a protocol version, so a launcher of another version refuses it cleanly.
const HelperArg = "__hearth-sandbox-v1"

// Mode is how commands are confined.
type Mode string

const (
	// ModeLandlock: Landlock, with namespaces where the kernel allows them.
	ModeLandlock Mode = "landlock"
	// ModeBubblewrap: no Landlock in the kernel; bubblewrap confines the command.
	ModeBubblewrap Mode = "bubblewrap"
	// ModeNone: neither; the command runs unconfined (only the reaper ends its children).
	ModeNone Mode = "none"
)

// Policy is what one sandboxed command may do.
type Policy struct {
	// Writable folders: the workspace, tools.allowedPaths and the temp folder.
	Writable []string `json:"writable,omitempty"`
	// Hidden folders cannot be read: Hearth's config, state, data and cache folders.
	// A writable folder inside one (the default workspace lives in the data folder)
	// stays reachable.
	Hidden []string `json:"hidden,omitempty"`
	// ReadOnly folders stay read-only although they lie inside a writable one: the
	// knowledge folders (docs/files.md). A writable folder inside one stays writable
	// (a knowledge folder that holds the workspace); one that is itself writable, or
	// lies in a hidden folder, is left as that says. See guardedReadOnly.
	ReadOnly []string `json:"readonly,omitempty"`
	// Network allows connections (tools.exec.network).
	Network bool `json:"network,omitempty"`
	// Confine false runs the command under the reaper only (an MCP server that did not
	// opt in to the sandbox).
	Confine bool `json:"confine,omitempty"`
	// TempDir holds the command's own temp folder where no mount namespace gives it a
	// private /tmp (Landlock alone): a folder made for the run and removed after it.
	// Empty: os.TempDir().
	TempDir string `json:"tmpdir,omitempty"`
	// Sockets are pathname Unix sockets outside the workspace the command may still
	// reach: what the user opted in to (ssh-agent's socket).
	Sockets []string `json:"sockets,omitempty"`
}

// request is what Hearth hands the helper.
type request struct {
	Policy
	NS bool `json:"ns,omitempty"` // the helper was started in new namespaces: set them up
	// NoUser: the namespaces have no user namespace of their own (root, see probe).
	NoUser bool `json:"nouser,omitempty"`
	// UID and GID are the user's outside: the helper maps them to themselves inside.
	UID int `json:"uid,omitempty"`
	GID int `json:"gid,omitempty"`
	// Cover are the pathname sockets bound on this machine (from /proc/net/unix)
	// outside the writable folders and Sockets: with a mount namespace each is covered.
	Cover []string `json:"cover,omitempty"`
	// Tmp is the folder made private for the run ("" means /tmp; tests name another).
	Tmp string `json:"tmp,omitempty"`
	// Program is the folder of the program run, when it lies in Tmp (an MCP server
	// unpacked there, a test binary): kept read-only inside the private tmp, or the
	// program could not start.
	Program string `json:"program,omitempty"`
}

// programIn is what of the program at path must stay visible when tmp is made
// private: its folder (a program may read files beside it), or itself when it sits
// in tmp directly; "" when it lies elsewhere.
func programIn(path, tmp string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	if realTmp, err := filepath.EvalSymlinks(tmp); err == nil {
		tmp = realTmp
	}
	if !filepath.IsAbs(path) || !confined.Within(path, tmp) || path == tmp {
		return ""
	}
	if dir := filepath.Dir(path); dir != tmp {
		return dir
	}
	return path
}

// Status says how commands are confined on this machine.
type Status struct {
	Mode        Mode `json:"mode"`
	LandlockABI int  `json:"landlockABI"` // 0: the kernel has no Landlock
	Namespaces  bool `json:"namespaces"`  // PID and mount namespaces work
	// UserNamespace: the namespaces include a user namespace (false only for root where
	// user namespaces cannot be made: root needs none for the others).
	UserNamespace bool   `json:"userNamespace,omitempty"`
	Bubblewrap    string `json:"bubblewrap,omitempty"`
	// Summary is one line for `hearth status` and Settings; SummaryMessage is the same
	// line as a code the window words in the UI language (Summary stays the English).
	// (ts_type keeps the window's generated Status a plain shape.)
	Summary        string        `json:"summary"`
	SummaryMessage *i18n.Message `json:"summaryMessage,omitempty" ts_type:"i18n.Message"`
	// Warning is set when commands run without confinement; WarningMessage as Summary's.
	Warning        string        `json:"warning,omitempty"`
	WarningMessage *i18n.Message `json:"warningMessage,omitempty" ts_type:"i18n.Message"`
	// Hint says how to get the stronger mode when the system keeps Hearth from it
	// (Ubuntu's AppArmor policy on user namespaces).
	Hint string `json:"hint,omitempty"`
}

// SetSummary sets the summary line from m: its English for the CLI, its code for the
// window, which words it in the UI language.
func (st *Status) SetSummary(m i18n.Message) { st.Summary, st.SummaryMessage = m.String(), &m }

// SetWarning sets the warning from m, as SetSummary the summary.
func (st *Status) SetWarning(m i18n.Message) { st.Warning, st.WarningMessage = m.String(), &m }

// Options configure a Sandbox.
type Options struct {
	// Exe is the Hearth binary to re-execute; empty means this process's own.
	Exe string
	// Force ModeBubblewrap uses bubblewrap even where Landlock works, and ModeLandlock
	// Landlock without namespaces even where they work (tests of those fallbacks; they
	// still need to work on this machine).
	Force Mode
	// Tmp is the folder each run gets a private, empty copy of (default /tmp); tests
	// name a folder of their own to stand for it.
	Tmp string
}

// Sandbox wraps commands. It probes the machine once, on first use.
type Sandbox struct {
	opts   Options
	once   sync.Once
	status Status
}

// New returns a Sandbox; nothing is probed until it is used.
func New(opts Options) *Sandbox {
	if opts.Exe == "" {
		if exe, err := os.Executable(); err == nil {
			opts.Exe = exe
		} else {
			opts.Exe = "/proc/self/exe"
		}
	}
	return &Sandbox{opts: opts}
}

// Status probes the machine (once) and says how commands will be confined.
func (s *Sandbox) Status() Status {
	s.once.Do(func() { s.status = probe(s.opts) })
	return s.status
}

// Wrap rewrites cmd (not yet started) to run inside the sandbox under policy p, with the
// helper as its reaper. cmd.Path, Args, Dir, Env and the standard streams are kept as
// the command's own.
func (s *Sandbox) Wrap(cmd *exec.Cmd, p Policy) {
	st := s.Status()
	if p.TempDir == "" {
		p.TempDir = os.TempDir()
	}
	tmp := s.opts.Tmp
	if tmp == "" {
		tmp = "/tmp"
	}
	if p.Confine && st.Mode == ModeBubblewrap {
		wrapBubblewrap(cmd, st.Bubblewrap, p, tmp, coverSockets(p), programIn(cmd.Path, tmp))
		return
	}
	if st.Mode == ModeNone {
		p.Confine = false
	}
	req := request{Policy: p, NS: p.Confine && st.Namespaces, NoUser: !st.UserNamespace, Tmp: tmp, Program: programIn(cmd.Path, tmp)}
	if req.NS {
		req.Cover = coverSockets(p)
	}
	wrapHelper(cmd, s.opts.Exe, req)
}

func encodeRequest(r request) string {
	b, _ := json.Marshal(r)
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeRequest(s string) (request, error) {
	var r request
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return r, err
	}
	return r, json.Unmarshal(b, &r)
}
