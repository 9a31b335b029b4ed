package tools

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const (
	jailEnv  = "HEARTH_TEST_OUTER_JAIL"
	jailRoot = "root"
	jailUser = "user"
)

// runInOuterJails re-runs the named test of this binary inside bubblewrap jails and
// reports their results, or skips when no jail can be made here.
//
// Two jails, because they reach different parts of the sandbox: bubblewrap's fresh
// /proc keeps paths like /proc/sys covered, and the kernel refuses a nested /proc under
// such covers, so a sandbox inside a jail made by root runs on Landlock alone. A jail
// made by an ordinary user (nobody, when the test runs as root) has nothing covered,
// and the sandbox inside it gets its namespaces, read-only mounts included.
func runInOuterJails(t *testing.T, name string) {
	t.Helper()
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		t.Skip("bubblewrap is not installed (apt install bubblewrap): the outer jail that keeps a sandbox bug from harming this machine cannot be made")
	}
	ran := 0
	for _, kind := range []string{jailUser, jailRoot} {
		if kind == jailRoot && os.Getuid() != 0 {
			continue
		}
		t.Run(kind, func(t *testing.T) {
			if runInOuterJail(t, bwrap, kind, name) {
				ran++
			}
		})
	}
	if ran == 0 {
		t.Skip("no outer jail could be made here")
	}
}

// runInOuterJail runs one jail; false when it could not be made (the subtest skips).
func runInOuterJail(t *testing.T, bwrap, kind, name string) bool {
	root := t.TempDir()
	exe, err := os.Executable() // absolute: the jail starts in root
	if err != nil {
		t.Fatal(err)
	}
	var pre []string
	if kind == jailUser && os.Getuid() == 0 {
		// As nobody, with a copy of this binary it can run and a folder it owns.
		if err := os.Chmod(filepath.Dir(root), 0o711); err != nil {
			t.Fatal(err)
		}
		self := exe
		exe = filepath.Join(root, "tools.test")
		if err := copyExe(self, exe); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(root, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		setpriv, err := exec.LookPath("setpriv")
		if err != nil {
			t.Skip("setpriv (util-linux) is not installed: the jail as an ordinary user cannot be made")
		}
		pre = []string{setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"}
	}
	args := []string{bwrap, "--die-with-parent", "--unshare-all", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
		"--tmpfs", "/run", "--bind", root, root, "--setenv", "HOME", root, "--setenv", "TMPDIR", root, "--setenv", jailEnv, kind,
		"--chdir", root, "--", exe, "-test.run=" + name, "-test.v"}
	if kind == jailUser {
		args = append(args[:3], append([]string{"--unshare-user"}, args[3:]...)...)
	}
	args = append(pre, args...)
	cmd := exec.Command(args[0], args[1:]...)
	out, err := cmd.CombinedOutput()
	if err != nil && strings.Contains(string(out), "bwrap:") && !strings.Contains(string(out), "--- ") {
		t.Skipf("the %s jail cannot be made here: %s", kind, out)
		return false
	}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "exec_sandbox_test.go") || strings.Contains(l, "--- SKIP") {
			t.Log(strings.TrimSpace(l))
		}
	}
	if err != nil {
		t.Fatalf("in the %s jail: %v\n%s", kind, err, out)
	}
	if strings.Contains(string(out), "--- SKIP") && !strings.Contains(string(out), "--- PASS") {
		t.Skipf("skipped in the %s jail", kind)
		return false
	}
	return true
}

func copyExe(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
