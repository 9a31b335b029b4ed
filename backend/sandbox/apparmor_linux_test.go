package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestAppArmorRestrictionIsRead(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		content string
		want    bool
	}{{"1\n", true}, {"0\n", false}, {"", false}} {
		p := filepath.Join(dir, "sysctl")
		if err := os.WriteFile(p, []byte(c.content), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := appArmorKeepsUserns(p); got != c.want {
			t.Errorf("%q: got %v, want %v", c.content, got, c.want)
		}
	}
	if appArmorKeepsUserns(filepath.Join(dir, "missing")) {
		t.Error("a system without the sysctl was taken for a restricting one")
	}
}

// The hint's command, pasted into a shell, writes a profile for the very binary that
// allows it user namespaces and leaves it otherwise unconfined.
func TestAppArmorHintWritesTheProfile(t *testing.T) {
	exe := "/home/ann/My Apps/100%/hearth" // a space and a printf directive stay as they are
	hint := appArmorHint(exe)
	i := strings.Index(hint, "printf ")
	if i < 0 || !strings.Contains(hint, "| sudo tee /etc/apparmor.d/hearth && sudo apparmor_parser -r /etc/apparmor.d/hearth") {
		t.Fatalf("hint without the commands: %s", hint)
	}
	cmd := hint[i:]
	printf, _, _ := strings.Cut(cmd, " | sudo")
	out, err := exec.Command("/bin/sh", "-c", printf).Output()
	if err != nil {
		t.Fatalf("%s: %v", printf, err)
	}
	want := "abi <abi/4.0>,\ninclude <tunables/global>\nprofile hearth \"" + exe + "\" flags=(unconfined) {\n  userns,\n}\n"
	if string(out) != want {
		t.Errorf("profile written:\n%s\nwant:\n%s", out, want)
	}
}
