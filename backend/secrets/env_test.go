package secrets

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

const (
	childVar     = "HEARTH_SECRETS_TEST_CHILD"
	namedSecret  = "named-VALUE-0123456789abcdef" // dropped because the config names it
	patternKey   = "sk-PATTERN-fedcba9876543210"  // dropped by its name
	plainVisible = "plain-visible-value"
)

// The child half of TestDropHidesFromProcEnviron: drop, report, wait to be read.
func TestMain(m *testing.M) {
	if os.Getenv(childVar) == "" {
		os.Exit(m.Run())
	}
	if os.Getenv(childVar) == "harden" {
		_ = unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0) // as Hearth's main does first
	}
	e := CaptureEnv()
	e.Drop("HEARTH_CONFIGURED_REF")
	_ = unix.Prctl(unix.PR_SET_DUMPABLE, 1, 0, 0, 0) // so the test can read our environ
	self, _ := os.ReadFile("/proc/self/environ")
	fmt.Printf("getenv=%s|%s|%s\n", e.Getenv("HEARTH_CONFIGURED_REF"), e.Getenv("MY_SERVICE_API_KEY"), os.Getenv("MY_SERVICE_API_KEY"))
	fmt.Printf("self-holds-secret=%v\n", bytes.Contains(self, []byte(namedSecret)) || bytes.Contains(self, []byte(patternKey)))
	fmt.Println("ready")
	time.Sleep(30 * time.Second) // killed by the test
	os.Exit(0)
}

// A variable the config names and one whose name marks a key are gone from the
// process's environment and from /proc/<pid>/environ, while Hearth still reads
// both through Env; an ordinary variable stays.
func TestDropHidesFromProcEnviron(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/<pid>/environ is Linux's")
	}
	for _, mode := range []string{"plain", "harden"} {
		t.Run(mode, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), childVar+"="+mode, "HEARTH_CONFIGURED_REF="+namedSecret,
				"MY_SERVICE_API_KEY="+patternKey, "HEARTH_PLAIN_VAR="+plainVisible)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
			var lines []string
			sc := bufio.NewScanner(out)
			for sc.Scan() && sc.Text() != "ready" {
				lines = append(lines, sc.Text())
			}
			want := []string{"getenv=" + namedSecret + "|" + patternKey + "|", "self-holds-secret=false"}
			if strings.Join(lines, "\n") != strings.Join(want, "\n") {
				t.Fatalf("child reported %q, want %q", lines, want)
			}
			environ, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", cmd.Process.Pid))
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []string{namedSecret, patternKey} {
				if bytes.Contains(environ, []byte(s)) {
					t.Errorf("/proc/<pid>/environ still holds %q", s)
				}
			}
			if !bytes.Contains(environ, []byte("HEARTH_PLAIN_VAR="+plainVisible)) {
				t.Errorf("an ordinary variable was dropped too")
			}
		})
	}
}

func TestSecretName(t *testing.T) {
	for name, want := range map[string]bool{
		"OPENAI_API_KEY": true, "GITHUB_TOKEN": true, "AWS_SECRET_ACCESS_KEY": true, "PGPASSWORD": true,
		"anthropic_api_key": true, "HOME": false, "PATH": false, "SSH_AUTH_SOCK": false, "XDG_CONFIG_HOME": false,
		"KEYBOARD": false, "GPG_AGENT_INFO": false,
	} {
		if got := SecretName(name); got != want {
			t.Errorf("SecretName(%q) = %v", name, got)
		}
	}
}
