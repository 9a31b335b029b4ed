package sandbox

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// env for a test: a workspace, a folder outside it, a hidden folder with a secret, and a
// temp folder.
type fixture struct{ ws, outside, hidden, tmp string }

func newFixture(t *testing.T) fixture {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	f := fixture{ws: filepath.Join(root, "hidden", "workspace"), outside: filepath.Join(root, "outside"), hidden: filepath.Join(root, "hidden"), tmp: filepath.Join(root, "tmp")}
	for _, d := range []string{f.ws, f.outside, f.tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(f.hidden, "config.json"), []byte("SECRET-KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.outside, "keep.txt"), []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f fixture) policy() Policy {
	return Policy{Writable: []string{f.ws, f.tmp}, Hidden: []string{f.hidden}, Confine: true}
}

func runIn(t *testing.T, exe string, req request, dir, script string) (string, int) {
	t.Helper()
	c := exec.Command("/bin/sh", "-c", script)
	c.Dir = dir
	c.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir}
	if req.Tmp == "" {
		// The fixture lives in the real /tmp, which each run gets an empty copy of:
		// another folder stands for /tmp here (tmp_test.go tests the real one).
		req.Tmp = t.TempDir()
	}
	wrapHelper(c, exe, req)
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	err := c.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run: %v", err)
	}
	return out.String(), code
}

func TestHelperConfines(t *testing.T) {
	s := New(Options{})
	st := s.Status()
	t.Logf("sandbox status: %+v", st)
	if st.LandlockABI == 0 {
		t.Skip("this kernel has no Landlock")
	}
	type variant struct {
		name       string
		ns, noUser bool
	}
	var variants []variant
	if st.Namespaces {
		variants = append(variants, variant{"ns=true", true, !st.UserNamespace})
	}
	if st.UserNamespace && os.Geteuid() == 0 {
		// Root's way where no user namespace can be made.
		variants = append(variants, variant{"ns=true,root-without-user-namespace", true, true})
	}
	for _, v := range append(variants, variant{"ns=false", false, false}) {
		ns := v.ns
		t.Run(v.name, func(t *testing.T) {
			f := newFixture(t)
			req := request{Policy: f.policy(), NS: ns, NoUser: v.noUser}
			out, code := runIn(t, s.opts.Exe, req, f.ws, "echo in > inside.txt && cat inside.txt")
			if code != 0 || out != "in\n" {
				t.Fatalf("write in workspace: %d %q", code, out)
			}
			out, code = runIn(t, s.opts.Exe, req, f.ws, "echo x > "+f.outside+"/new.txt")
			if code == 0 {
				t.Errorf("write outside succeeded: %q", out)
			}
			out, _ = runIn(t, s.opts.Exe, req, f.ws, "cat "+f.hidden+"/config.json; cat ../config.json")
			if strings.Contains(out, "SECRET-KEY") {
				t.Errorf("hidden file read: %q", out)
			}
			out, _ = runIn(t, s.opts.Exe, req, f.ws, "cat /proc/"+strconv.Itoa(os.Getpid())+"/environ")
			switch {
			case ns && strings.Contains(out, "PATH="):
				t.Errorf("parent environ read: %q", out)
			case !ns:
				// Without a PID namespace only Hearth being non-dumpable keeps it out,
				// which binds users other than root (docs/safety.md).
				t.Logf("without namespaces, parent environ readable: %v", strings.Contains(out, "PATH="))
			}
			out, code = runIn(t, s.opts.Exe, req, f.ws, "echo t > "+f.tmp+"/t && cat "+f.outside+"/keep.txt")
			if code != 0 || out != "keep" {
				t.Errorf("temp write / outside read: %d %q", code, out)
			}
			// No capabilities in either mode, also when Hearth runs as root.
			out, code = runIn(t, s.opts.Exe, req, f.ws, "grep -E '^Cap(Prm|Eff|Amb)' /proc/self/status")
			if code != 0 || strings.Count(out, "0000000000000000") != 3 {
				t.Errorf("the command has capabilities: %d %q", code, out)
			}
			if !ns {
				return // Landlock does not govern mode, owner or times (docs/safety.md)
			}
			// Mode, owner and times: refused outside by the read-only mounts, whoever runs
			// Hearth (as root too, whose command keeps no capabilities to undo them).
			keep := filepath.Join(f.outside, "keep.txt")
			before := statLine(t, keep)
			for _, c := range []string{
				"chmod 600 " + keep,
				"chown $(id -u):$(id -g) " + keep,
				"touch -d 2000-01-01 " + keep,
				// Undoing the mounts first; the hidden file reads as empty.
				"umount -l " + f.hidden + " 2>/dev/null; mount -o remount,rw / 2>/dev/null; mount -o remount,rw " + f.outside + " 2>/dev/null; cat " + f.hidden + "/config.json; chmod 600 " + keep,
			} {
				out, code := runIn(t, s.opts.Exe, req, f.ws, c)
				if code == 0 || strings.Contains(out, "SECRET-KEY") {
					t.Errorf("%q succeeded outside: %d %q", c, code, out)
				}
				if got := statLine(t, keep); got != before {
					t.Errorf("%q changed %s: %s -> %s", c, keep, before, got)
				}
			}
			out, code = runIn(t, s.opts.Exe, req, f.ws, "chmod 600 inside.txt && chown $(id -u):$(id -g) inside.txt && touch -d 2001-01-01 inside.txt && stat -c '%a %y' inside.txt")
			if code != 0 || !strings.HasPrefix(out, "600 2001-01-01") {
				t.Errorf("mode, owner and times inside the workspace: %d %q", code, out)
			}
		})
	}
}

func statLine(t *testing.T, p string) string {
	t.Helper()
	var st syscall.Stat_t
	if err := syscall.Stat(p, &st); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("mode=%o uid=%d gid=%d mtime=%d ctime=%d", st.Mode, st.Uid, st.Gid, st.Mtim.Nano(), st.Ctim.Nano())
}

// A Hearth folder inside a writable one (Hearth's folders under an allowed ~, or under
// $TMPDIR) stays unreadable and whole in both modes: covered by a mount with namespaces,
// granted around by Landlock alone. The rest of the writable folder stays writable; with
// Landlock alone nothing new can be made directly in the folders on the way to it (and
// nothing there renamed), with namespaces those folders are as writable as the rest.
func TestHiddenInsideWritable(t *testing.T) {
	s := New(Options{})
	st := s.Status()
	if st.LandlockABI == 0 {
		t.Skip("this kernel has no Landlock")
	}
	for _, ns := range []bool{true, false} {
		if ns && !st.Namespaces {
			continue
		}
		t.Run("ns="+strconv.FormatBool(ns), func(t *testing.T) {
			home, _ := filepath.EvalSymlinks(t.TempDir())
			hidden := filepath.Join(home, ".config", "hearth")
			for _, d := range []string{hidden, filepath.Join(home, "Documents"), filepath.Join(home, ".config", "other")} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for p, body := range map[string]string{filepath.Join(hidden, "config.json"): "SECRET-KEY", filepath.Join(home, ".bashrc"): "# rc\n"} {
				if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			req := request{Policy: Policy{Writable: []string{home}, Hidden: []string{hidden}, Confine: true}, NS: ns, NoUser: !st.UserNamespace}
			for _, c := range []string{
				"cat .config/hearth/config.json",
				"grep -r SECRET . 2>/dev/null",
				"ln -s ../.config/hearth Documents/link; cat Documents/link/config.json",
				"mv .config/hearth Documents/stolen; cat Documents/stolen/config.json",
				"mv .config .config-old; cat .config-old/hearth/config.json",
				"rm -rf .config/hearth",
				"echo '{}' > .config/hearth/config.json",
			} {
				out, _ := runIn(t, s.opts.Exe, req, home, c)
				if strings.Contains(out, "SECRET-KEY") {
					t.Errorf("%q read the hidden file: %q", c, out)
				}
				if moved := filepath.Join(home, ".config-old"); ns {
					// With namespaces a folder on the way may be renamed (the cover
					// moves with it): the hidden folder is unread and whole, elsewhere.
					_ = os.Rename(moved, filepath.Join(home, ".config"))
				}
				if b, err := os.ReadFile(filepath.Join(hidden, "config.json")); err != nil || string(b) != "SECRET-KEY" {
					t.Fatalf("%q changed the hidden folder: %q %v", c, b, err)
				}
			}
			out, code := runIn(t, s.opts.Exe, req, home, "echo doc > Documents/new.txt && echo x > .config/other/o && echo '# more' >> .bashrc && cat Documents/new.txt .bashrc")
			if code != 0 || out != "doc\n# rc\n# more\n" {
				t.Errorf("writing beside the hidden folder: %d %q", code, out)
			}
			out, code = runIn(t, s.opts.Exe, req, home, "echo new > made-here.txt")
			if ns && code != 0 {
				t.Errorf("with namespaces, a new file directly in the writable folder: %d %q", code, out)
			}
			if !ns && code == 0 {
				t.Errorf("Landlock alone cannot grant making files in a folder on the way to a hidden one without granting it inside that folder too; docs/safety.md says so, yet it worked")
			}
		})
	}
}

// The bubblewrap fallback keeps the same rules: a Hearth folder inside a writable one
// stays covered, the workspace inside Hearth's data folder stays writable, nothing
// outside can be written or have its mode changed, and the command has no capabilities
// (bubblewrap started by root keeps them all unless told otherwise).
func TestBubblewrapConfines(t *testing.T) {
	s := New(Options{Force: ModeBubblewrap})
	if st := s.Status(); st.Mode != ModeBubblewrap {
		t.Skipf("bubblewrap does not work here: %s", st.Summary)
	}
	home, _ := filepath.EvalSymlinks(t.TempDir())
	hidden, data := filepath.Join(home, ".config", "hearth"), filepath.Join(home, ".local", "share", "hearth")
	ws, outside := filepath.Join(data, "workspace"), filepath.Join(t.TempDir(), "outside")
	for _, d := range []string{hidden, ws, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, body := range map[string]string{filepath.Join(hidden, "config.json"): "SECRET-KEY", filepath.Join(data, "sessions.jsonl"): "SECRET-KEY", filepath.Join(outside, "keep.txt"): "keep"} {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := Policy{Writable: []string{home, ws}, Hidden: []string{hidden, data}, Confine: true}
	run := func(script string) (string, int) {
		c := exec.Command("/bin/sh", "-c", script)
		c.Dir, c.Env = ws, []string{"PATH=/usr/bin:/bin", "HOME=" + home}
		s.Wrap(c, p)
		out, err := c.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return string(out), ee.ExitCode()
		}
		return string(out), 0
	}
	keep := filepath.Join(outside, "keep.txt")
	before := statLine(t, keep)
	for _, c := range []string{
		"cat " + hidden + "/config.json " + data + "/sessions.jsonl",
		"umount " + hidden + "; mount -o remount,rw /; cat " + hidden + "/config.json",
		"echo x > " + outside + "/new.txt",
		"chmod 600 " + keep + "; touch -d 2000-01-01 " + keep,
	} {
		if out, _ := run(c); strings.Contains(out, "SECRET-KEY") {
			t.Errorf("%q read a hidden file: %q", c, out)
		}
	}
	if got := statLine(t, keep); got != before {
		t.Errorf("the file outside changed: %s -> %s", before, got)
	}
	if _, err := os.Stat(filepath.Join(outside, "new.txt")); err == nil {
		t.Error("a file was written outside")
	}
	if out, _ := run("cat /proc/" + strconv.Itoa(os.Getpid()) + "/environ"); strings.Contains(out, "PATH=") {
		t.Errorf("the parent's environ was read: %q", out)
	}
	if out, code := run("grep CapEff /proc/self/status"); code != 0 || !strings.Contains(out, "0000000000000000") {
		t.Errorf("capabilities: %d %q", code, out)
	}
	out, code := run("echo w > in-ws.txt && echo h > " + home + "/in-home.txt && cat in-ws.txt " + home + "/in-home.txt")
	if code != 0 || out != "w\nh\n" {
		t.Errorf("writing in the workspace and the allowed home: %d %q", code, out)
	}
}

// A program that lives in the folder made private (an MCP server unpacked in /tmp)
// keeps its own folder, read-only; one elsewhere keeps nothing there.
func TestProgramIn(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "srv")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "server"), filepath.Join(tmp, "tool")} {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for path, want := range map[string]string{
		filepath.Join(dir, "server"): dir,
		filepath.Join(tmp, "tool"):   filepath.Join(tmp, "tool"),
		"/bin/sh":                    "",
		tmp:                          "",
		"relative/server":            "",
	} {
		if got := programIn(path, tmp); got != want {
			t.Errorf("programIn(%q) = %q, want %q", path, got, want)
		}
	}
}
