package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// live is a terminal's: a pseudo-terminal is live; /dev/null (a character
// device), a pipe and a regular file are not.
func TestLiveOnlyAtATerminal(t *testing.T) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	plain := filepath.Join(t.TempDir(), "in.txt")
	if err := os.WriteFile(plain, []byte("hi\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(plain)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for name, in := range map[string]*os.File{"/dev/null": null, "pipe": r, "file": f} {
		if (&env{stdin: in}).live() {
			t.Errorf("%s taken for a terminal", name)
		}
	}

	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	defer pty.Close()
	if err := unix.IoctlSetPointerInt(int(pty.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(pty.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("naming the pseudo-terminal: %v", err)
	}
	tty, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("opening the pseudo-terminal: %v", err)
	}
	defer tty.Close()
	if !(&env{stdin: tty}).live() {
		t.Error("a terminal was not taken for one")
	}
}
