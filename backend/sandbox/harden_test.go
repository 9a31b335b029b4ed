package sandbox

import (
	"os"
	"os/exec"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// After HardenSelf the process is not dumpable, yet still reads its own /proc/self/stat
// and runs children as before — sandboxed ones in namespaces too, as any user.
func TestHardenSelf(t *testing.T) {
	userNS := userNamespaces() // asked while this process is still dumpable
	HardenSelf()
	if d, _ := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0); d != 0 {
		t.Fatalf("dumpable = %d after HardenSelf", d)
	}
	// What secrets.scrubProcEnviron needs of its own /proc. (Its environ and mem are
	// owned by root now, so a user other than root opens them only after making the
	// process dumpable for the moment, which that function does.)
	if _, err := os.ReadFile("/proc/self/stat"); err != nil {
		t.Fatalf("own stat unreadable: %v", err)
	}
	if os.Getuid() == 0 {
		if _, err := os.ReadFile("/proc/self/environ"); err != nil {
			t.Fatalf("own environ unreadable: %v", err)
		}
	}
	if exe, err := os.Executable(); err != nil || exe == "" {
		t.Fatalf("os.Executable: %q %v", exe, err)
	}
	if out, err := exec.Command("/bin/sh", "-c", "echo child").Output(); err != nil || string(out) != "child\n" {
		t.Fatalf("child: %q %v", out, err)
	}
	// A non-dumpable parent once kept every user but root out of the namespaces.
	if userNS {
		if err := tryHelper(New(Options{}).opts.Exe, request{Policy: Policy{Confine: true}, NS: true}); err != nil {
			t.Errorf("the sandbox helper does not start in namespaces from a non-dumpable process (uid %d): %v", os.Getuid(), err)
		}
	}
}

// userNamespaces reports whether this process may start a child in a new user namespace.
func userNamespaces() bool {
	c := exec.Command("/bin/true")
	c.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}}
	return c.Run() == nil
}
