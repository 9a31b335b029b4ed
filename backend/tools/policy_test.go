package tools

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sandbox makes a workspace, an outside folder and a fake home under t.TempDir().
type sandbox struct {
	root, ws, outside, home string
	policy                  *Policy
}

func newSandbox(t testing.TB) *sandbox {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := &sandbox{root: root, ws: filepath.Join(root, "ws"), outside: filepath.Join(root, "outside"), home: filepath.Join(root, "home")}
	for _, d := range []string{s.ws, s.outside, filepath.Join(s.home, ".ssh")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.write(t, filepath.Join(s.outside, "secret.txt"), "outside secret\n")
	s.write(t, filepath.Join(s.home, ".ssh", "id_rsa"), "PRIVATE KEY\n")
	s.write(t, filepath.Join(s.ws, "hello.txt"), "hello\nworld\n")
	s.write(t, filepath.Join(s.ws, "config.json"), `{"k":1}`)
	s.policy = &Policy{Workspace: s.ws, Home: s.home, ProtectedPaths: []string{filepath.Join(s.ws, "config.json")}}
	return s
}

func (s *sandbox) write(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestPolicyEscapesRefused(t *testing.T) {
	s := newSandbox(t)
	if err := os.Symlink(s.outside, filepath.Join(s.ws, "link-out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(s.outside, "secret.txt"), filepath.Join(s.ws, "secret-link")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path string
		want error
	}{
		{"../outside/secret.txt", ErrOutsideWorkspace},
		{"sub/../../outside/secret.txt", ErrOutsideWorkspace},
		{filepath.Join(s.outside, "secret.txt"), ErrOutsideWorkspace},
		{"link-out/secret.txt", ErrOutsideWorkspace},
		{"link-out/new-file.txt", ErrOutsideWorkspace}, // not yet existing, under a symlink
		{"secret-link", ErrOutsideWorkspace},
		{"~/.ssh/id_rsa", ErrOutsideWorkspace},
		{"/etc/passwd", ErrOutsideWorkspace},
		{"/proc/self/environ", ErrDevice},
		{"/dev/zero", ErrDevice},
		{"/sys/kernel", ErrDevice},
	}
	for _, c := range cases {
		for _, write := range []bool{false, true} {
			_, err := s.policy.resolve(c.path, write)
			if !errors.Is(err, c.want) {
				t.Errorf("resolve(%q, write=%v) = %v, want %v", c.path, write, err, c.want)
			}
		}
	}
	// Device files stay refused even without the workspace confinement.
	open := &Policy{Workspace: s.ws, Unrestricted: true}
	for _, p := range []string{"/dev/zero", "/proc/self/environ", "/dev/null"} {
		if _, err := open.Resolve(p); !errors.Is(err, ErrDevice) {
			t.Errorf("unrestricted Resolve(%q) = %v, want ErrDevice", p, err)
		}
	}
	if got, err := open.Resolve(filepath.Join(s.outside, "secret.txt")); err != nil || got != filepath.Join(s.outside, "secret.txt") {
		t.Errorf("unrestricted outside read = %q, %v", got, err)
	}
}

func TestPolicyInsideAllowed(t *testing.T) {
	s := newSandbox(t)
	if err := os.Symlink(filepath.Join(s.ws, "hello.txt"), filepath.Join(s.ws, "inner-link")); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"hello.txt":                         filepath.Join(s.ws, "hello.txt"),
		"./a/../hello.txt":                  filepath.Join(s.ws, "hello.txt"),
		filepath.Join(s.ws, "new/deep.txt"): filepath.Join(s.ws, "new/deep.txt"),
		"inner-link":                        filepath.Join(s.ws, "hello.txt"),
		".":                                 s.ws,
	}
	for in, want := range cases {
		got, err := s.policy.ResolveWrite(in)
		if err != nil || got != want {
			t.Errorf("ResolveWrite(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	// allowedPaths opens another root, "~" included.
	s.policy.AllowedPaths = []string{s.outside, "~/notes"}
	if _, err := s.policy.Resolve("../outside/secret.txt"); err != nil {
		t.Errorf("allowed path refused: %v", err)
	}
	if _, err := s.policy.ResolveWrite("~/notes/today.md"); err != nil {
		t.Errorf("allowed ~ path refused: %v", err)
	}
	if _, err := s.policy.Resolve("~/.ssh/id_rsa"); !errors.Is(err, ErrOutsideWorkspace) {
		t.Errorf("~/.ssh allowed: %v", err)
	}
}

func TestPolicyProtected(t *testing.T) {
	s := newSandbox(t)
	s.policy.ProtectedPaths = append(s.policy.ProtectedPaths, "memory/locked")
	if _, err := s.policy.Resolve("config.json"); err != nil {
		t.Fatalf("protected read refused: %v", err)
	}
	for _, p := range []string{"config.json", "./sub/../config.json", filepath.Join(s.ws, "config.json"), "memory/locked/a.md"} {
		if _, err := s.policy.ResolveWrite(p); !errors.Is(err, ErrProtected) {
			t.Errorf("ResolveWrite(%q) = %v, want ErrProtected", p, err)
		}
	}
	// A symlink to the protected file is still the protected file.
	if err := os.Symlink(filepath.Join(s.ws, "config.json"), filepath.Join(s.ws, "alias.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.policy.ResolveWrite("alias.json"); !errors.Is(err, ErrProtected) {
		t.Errorf("write through symlink to protected: %v", err)
	}
	_, err := s.policy.ResolveWrite("config.json")
	if err == nil || !strings.Contains(err.Error(), "never written") || !strings.Contains(err.Error(), "config.json") {
		t.Errorf("protected refusal unclear: %v", err)
	}
}
