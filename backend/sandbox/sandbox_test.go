package sandbox

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
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
	for _, ns := range []bool{true, false} {
		if ns && !st.Namespaces {
			continue
		}
		t.Run("ns="+strconv.FormatBool(ns), func(t *testing.T) {
			f := newFixture(t)
			req := request{Policy: f.policy(), NS: ns}
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
		})
	}
}
