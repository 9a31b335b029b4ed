package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	osbox "hearth/backend/sandbox"
)

// TestExecSandboxTable runs destructive and ordinary commands for real, through exec in
// Hearth's sandbox, and — so that a sandbox bug can never harm this machine — inside a
// disposable outer jail too: bubblewrap with a read-only root, only the test's folder
// writable, no network, its own PID namespace. The test re-runs itself in the jails of
// outer_jail_test.go: as an ordinary user (the sandbox gets user namespaces) and, when
// run as root, as root (where the jail's /proc leaves root's way: namespaces without a
// user namespace). Each jail also runs one fallback: bubblewrap, and Landlock alone.
func TestExecSandboxTable(t *testing.T) {
	jail := os.Getenv(jailEnv)
	if jail == "" {
		runInOuterJails(t, "^TestExecSandboxTable$")
		return
	}
	osbox.HardenSelf() // as Hearth does first thing: the helper must start from a non-dumpable process
	// The fixture's home lies in the real /tmp, which each run gets an empty copy of:
	// another folder stands for /tmp (backend/sandbox tests the real one).
	sysTmp := t.TempDir()
	box := osbox.New(osbox.Options{Tmp: sysTmp})
	st := box.Status()
	t.Logf("sandbox as uid %d: %s", os.Getuid(), st.Summary)
	if st.Mode == osbox.ModeNone {
		t.Skipf("no sandbox on this kernel (no Landlock and no working bubblewrap): %s", st.Warning)
	}
	if st.Mode == osbox.ModeLandlock && !st.Namespaces {
		t.Errorf("the %s jail lets the sandbox have namespaces, yet it found none: %s", jail, st.Summary)
	}
	runTable(t, box)
	// The fallbacks, each in one jail: bubblewrap (no Landlock in the kernel) and
	// Landlock alone (no namespaces).
	fallback := osbox.ModeBubblewrap
	if jail == jailRoot {
		fallback = osbox.ModeLandlock
	}
	if fb := osbox.New(osbox.Options{Force: fallback, Tmp: sysTmp}); fb.Status().Mode == fallback {
		runTable(t, fb)
	} else {
		t.Errorf("%s does not work in the %s jail: %s", fallback, jail, fb.Status().Summary)
	}
}

func runTable(t *testing.T, box *osbox.Sandbox) {
	st := box.Status()
	f := newJailFixture(t)
	raw := newExecForTable(f, box, &ExecGuard{off: true})
	before := f.snapshot(t)
	rows := destructive
	if st.Namespaces || st.Mode == osbox.ModeBubblewrap {
		rows = append(append([]string(nil), destructive...), modeRows...)
	} else {
		t.Logf("Landlock without namespaces: the %d rows that change a mode, owner or time outside are not run (docs/safety.md)", len(modeRows))
	}
	for _, c := range rows {
		res := invoke(context.Background(), raw, execJSON(c, 20))
		if strings.Contains(res.Content, secretKey) {
			t.Errorf("%s: %q read a hidden secret:\n%s", st.Mode, c, res.Content)
		}
		if diff := f.snapshot(t).diff(before); diff != "" {
			t.Fatalf("%s: %q changed things outside the workspace: %s\noutput: %s", st.Mode, c, diff, res.Content)
		}
		f.reset(t)
	}
	guarded := newExecForTable(f, box, nil)
	for _, c := range ordinary {
		f.reset(t)
		res := invoke(context.Background(), guarded, execJSON(c.cmd, 30))
		if res.IsError || !strings.Contains(res.Content, c.want) {
			t.Errorf("%s: ordinary command %q refused or broken:\n%s", st.Mode, c.cmd, res.Content)
		}
	}
	t.Logf("%d destructive commands had no effect outside the workspace; %d ordinary commands ran (%s)", len(rows), len(ordinary), st.Summary)
}

const secretKey = "sk-hidden-0123456789"

// jailFixture is a home folder laid out as Hearth's: config, data (with the default
// workspace inside it), state, plus start-up files and a folder outside the workspace.
type jailFixture struct{ root, home, ws, tmp, outside string }

func newJailFixture(t *testing.T) jailFixture {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home := filepath.Join(root, "home")
	f := jailFixture{root: root, home: home, ws: filepath.Join(home, ".local/share/hearth/workspace"),
		tmp: filepath.Join(root, "tmp"), outside: filepath.Join(root, "outside")}
	files := map[string]string{
		".config/hearth/config.json":                  `{"providers":{"openai":{"apiKey":"` + secretKey + `"}}}`,
		".local/share/hearth/sessions/a.jsonl":        `{"role":"user","content":"` + secretKey + `"}`,
		".local/state/hearth/audit/audit.jsonl":       "{}",
		".bashrc":                                     "# rc\n",
		".profile":                                    "# profile\n",
		".ssh/authorized_keys":                        "ssh-ed25519 AAAA me\n",
		".ssh/id_ed25519":                             "PRIVATE\n",
		"Documents/notes.txt":                         "notes\n",
		".cache/other/blob":                           "cache\n",
		".local/share/hearth/workspace/AGENTS.md":     "# agents\n",
		".local/share/hearth/workspace/memory/MEM.md": "memory\n",
	}
	for rel, body := range files {
		p := filepath.Join(home, rel)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{f.tmp, f.outside} {
		_ = os.MkdirAll(d, 0o755)
	}
	_ = os.WriteFile(filepath.Join(f.outside, "keep.txt"), []byte("keep\n"), 0o644)
	return f
}

// reset puts back the workspace files the commands may delete.
func (f jailFixture) reset(t *testing.T) {
	// chmod -R 000 ~ may (rightly) change the workspace's modes.
	for _, d := range []string{f.ws, f.tmp} {
		_ = os.Chmod(d, 0o755)
		_ = filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err == nil && e.IsDir() {
				_ = os.Chmod(p, 0o755)
			} else if err == nil {
				_ = os.Chmod(p, 0o644)
			}
			return nil
		})
	}
	_ = os.MkdirAll(filepath.Join(f.ws, "memory"), 0o755)
	_ = os.MkdirAll(f.tmp, 0o755)
	_ = os.WriteFile(filepath.Join(f.ws, "AGENTS.md"), []byte("# agents\n"), 0o644)
	_ = os.WriteFile(filepath.Join(f.ws, "notes.txt"), []byte("one\ntwo\nthree\n"), 0o644)
	_ = os.WriteFile(filepath.Join(f.ws, "data.csv"), []byte("a,b\n1,2\n3,4\n"), 0o644)
}

type snap map[string]string

// snapshot records every file and folder of the fixture outside the workspace and temp.
func (f jailFixture) snapshot(t *testing.T) snap {
	s := snap{}
	_ = filepath.WalkDir(f.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			s[p] = "error " + err.Error()
			return nil
		}
		if p == f.ws || p == f.tmp {
			return filepath.SkipDir
		}
		info, _ := d.Info()
		// Mode, owner and times too: chmod, chown and touch are effects.
		v := fmt.Sprintf("%v", info.Mode())
		if st, ok := info.Sys().(*syscall.Stat_t); ok {
			v += fmt.Sprintf(" %d:%d %d nlink=%d mtime=%d ctime=%d", st.Uid, st.Gid, st.Size, st.Nlink, st.Mtim.Nano(), st.Ctim.Nano())
		}
		if d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			sum := sha256.Sum256(b)
			v += " " + hex.EncodeToString(sum[:8])
		}
		s[p] = v
		return nil
	})
	return s
}

func (s snap) diff(before snap) string {
	var out []string
	for p, v := range before {
		if s[p] != v {
			out = append(out, fmt.Sprintf("%s: %q -> %q", p, v, s[p]))
		}
	}
	for p := range s {
		if _, ok := before[p]; !ok {
			out = append(out, "new "+p)
		}
	}
	return strings.Join(out, "; ")
}

func newExecForTable(f jailFixture, box *osbox.Sandbox, guard *ExecGuard) *ExecTool {
	policy := &Policy{Workspace: f.ws, Home: f.home}
	env := map[string]string{"HOME": f.home, "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}
	return NewExec(policy, ExecOptions{
		Sandbox: box, Guard: guard, TempDir: f.tmp,
		Hidden:    []string{filepath.Join(f.home, ".config/hearth"), filepath.Join(f.home, ".local/share/hearth"), filepath.Join(f.home, ".local/state/hearth")},
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
	})
}

// execJSON is exec's arguments as the model sends them.
func execJSON(command string, timeout int) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"command": command, "timeout": timeout})
	return b
}

// invoke runs one call of t outside an agent's Registry, through the same
// Prepare and Run.
func invoke(ctx context.Context, t Tool, raw json.RawMessage) Result {
	r := NewRegistry(RegistryOptions{})
	if err := r.Register(t); err != nil {
		return Errorf("%v", err)
	}
	return r.Call(ctx, t.Name(), raw)
}
