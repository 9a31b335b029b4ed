package sandbox

import (
	"os"
	"os/exec"
	"testing"

	"golang.org/x/sys/unix"
)

// After HardenSelf the process is not dumpable, yet still reads its own /proc and runs
// children as before.
func TestHardenSelf(t *testing.T) {
	HardenSelf()
	if d, _ := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0); d != 0 {
		t.Fatalf("dumpable = %d after HardenSelf", d)
	}
	if _, err := os.ReadFile("/proc/self/environ"); err != nil {
		t.Fatalf("own environ unreadable: %v", err)
	}
	if exe, err := os.Executable(); err != nil || exe == "" {
		t.Fatalf("os.Executable: %q %v", exe, err)
	}
	if out, err := exec.Command("/bin/sh", "-c", "echo child").Output(); err != nil || string(out) != "child\n" {
		t.Fatalf("child: %q %v", out, err)
	}
}
