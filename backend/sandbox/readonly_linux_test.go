//go:build linux

package sandbox

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runner runs a script in dir under one way of confining it.
type runner struct {
	name string
	// alone: Landlock without a mount namespace, which cannot stop chmod or touch -d
	// and refuses making anything directly in the folders on the way (docs/safety.md).
	alone bool
	run   func(t *testing.T, p Policy, dir, script string) (string, int)
}

// runners are every mode this machine can run: Landlock with namespaces, root's way
// without a user namespace, Landlock alone and bubblewrap.
func runners(t *testing.T) []runner {
	t.Helper()
	sysTmp := t.TempDir()
	var out []runner
	for _, s := range sandboxModes(t, sysTmp) {
		st := s.Status()
		out = append(out, runner{name: modeName(s), alone: st.Mode == ModeLandlock && !st.Namespaces,
			run: func(t *testing.T, p Policy, dir, script string) (string, int) {
				c := exec.Command("/bin/sh", "-c", script)
				c.Dir, c.Env = dir, []string{"PATH=/usr/bin:/bin", "HOME=" + dir}
				s.Wrap(c, p)
				return combined(t, c)
			}})
		if st.Mode == ModeLandlock && st.UserNamespace && os.Geteuid() == 0 {
			exe := s.opts.Exe
			out = append(out, runner{name: "landlock-root-without-user-namespace",
				run: func(t *testing.T, p Policy, dir, script string) (string, int) {
					return runIn(t, exe, request{Policy: p, NS: true, NoUser: true, Tmp: sysTmp}, dir, script)
				}})
		}
	}
	return out
}

func combined(t *testing.T, c *exec.Cmd) (string, int) {
	t.Helper()
	var b bytes.Buffer
	c.Stdout, c.Stderr = &b, &b
	err := c.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return b.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run: %v", err)
	}
	return b.String(), 0
}

// snapshot is every entry under dir with its content, and its mode and times when
// withMeta: what a command must leave as it was.
func snapshot(t *testing.T, dir string, withMeta bool) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %v", strings.TrimPrefix(p, dir), d.Type())
		if d.Type().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, " %q", data)
		}
		if withMeta {
			fmt.Fprintf(&b, " %s", statLine(t, p))
		}
		b.WriteByte('\n')
		return nil
	})
	if err != nil {
		t.Fatalf("snapshot %s: %v", dir, err)
	}
	return b.String()
}

func mkfiles(t *testing.T, files map[string]string) {
	t.Helper()
	for p, body := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A knowledge folder inside the workspace stays as it was whatever a command tries —
// writing, making, removing, moving in or out, renaming it or its parent, reaching it by
// a link — in every mode, the configured path a symlink or not; the rest of the
// workspace stays writable.
func TestKnowledgeFolderReadOnlyInWorkspace(t *testing.T) {
	for _, r := range runners(t) {
		t.Run(r.name, func(t *testing.T) {
			for _, via := range []string{"", "knowledge-link", "workspace-link"} {
				viaLink := via
				root, _ := filepath.EvalSymlinks(t.TempDir())
				ws := filepath.Join(root, "ws")
				kn := filepath.Join(ws, "docs", "notes")
				mkfiles(t, map[string]string{
					filepath.Join(kn, "a.txt"):           "knowledge",
					filepath.Join(kn, "sub", "b.md"):     "more",
					filepath.Join(ws, "src", "main.go"):  "package main\n",
					filepath.Join(ws, "docs", "todo.md"): "todo\n",
				})
				listed, writable := kn, ws
				switch via {
				case "knowledge-link":
					// The folder as configured is a link to the real one.
					listed = filepath.Join(root, "notes-link")
					if err := os.Symlink(kn, listed); err != nil {
						t.Fatal(err)
					}
				case "workspace-link":
					// The workspace named through a link longer than the knowledge
					// folder's real path: mounts ordered by the names given would put
					// the workspace on top of the read-only folder.
					writable = filepath.Join(root, strings.Repeat("long-name-", 12))
					if err := os.Symlink(ws, writable); err != nil {
						t.Fatal(err)
					}
				}
				p := Policy{Writable: []string{writable}, ReadOnly: []string{listed}, Confine: true, TempDir: root}
				before := snapshot(t, kn, !r.alone)
				for _, c := range []string{
					"touch docs/notes/new.txt",
					"echo x > docs/notes/a.txt",
					"echo x >> docs/notes/a.txt",
					"truncate -s 0 docs/notes/a.txt",
					"rm docs/notes/a.txt",
					"rm -rf docs/notes",
					"rm -rf docs",
					"mkdir docs/notes/d",
					"mv docs/notes/a.txt src/",
					"mv docs/notes/sub src/",
					"echo y > src/in.txt && mv src/in.txt docs/notes/",
					"mv docs docs-away",
					"mv docs/notes notes-away",
					"ln -s docs/notes link; echo x > link/new.txt; echo x > link/a.txt",
					"ln docs/notes/a.txt src/hard && echo pwned > src/hard",
					"chmod 600 docs/notes/a.txt",
					"touch -d 2000-01-01 docs/notes/a.txt",
				} {
					if r.alone && (strings.HasPrefix(c, "chmod") || strings.HasPrefix(c, "touch -d")) {
						continue // Landlock governs neither (docs/safety.md)
					}
					out, code := r.run(t, p, ws, c)
					if code == 0 {
						t.Errorf("%s: %q succeeded: %q", viaLink, c, out)
					}
					if got := snapshot(t, kn, !r.alone); got != before {
						t.Fatalf("%s: %q changed the knowledge folder:\n%s\nwas\n%s", viaLink, c, got, before)
					}
					for _, stray := range []string{"docs-away", "notes-away", "link", "src/a.txt", "src/sub", "src/hard", "src/in.txt"} {
						_ = os.RemoveAll(filepath.Join(ws, stray))
					}
				}
				out, code := r.run(t, p, ws, "echo w >> src/main.go && echo n > src/new.go && mkdir -p src/pkg && echo x > src/pkg/x.go && echo t >> docs/todo.md")
				if code != 0 {
					t.Errorf("%s: writing elsewhere in the workspace: %d %q", viaLink, code, out)
				}
				out, code = r.run(t, p, ws, "echo n > top.txt && echo n > docs/beside.txt")
				switch {
				case r.alone && code == 0:
					t.Errorf("Landlock alone cannot grant making files directly in the folders on the way to a knowledge folder without granting it there too; docs/safety.md says so, yet it worked")
				case !r.alone && code != 0:
					t.Errorf("%s: a new file beside the knowledge folder: %d %q", viaLink, code, out)
				}
			}
		})
	}
}

// A knowledge folder that holds the workspace leaves the workspace writable; the rest
// of the folder stays read-only, also when it lies in another writable folder (~).
func TestKnowledgeFolderHoldingTheWorkspace(t *testing.T) {
	for _, r := range runners(t) {
		t.Run(r.name, func(t *testing.T) {
			home, _ := filepath.EvalSymlinks(t.TempDir())
			kn := filepath.Join(home, "Projects")
			ws := filepath.Join(kn, "hearth-ws")
			mkfiles(t, map[string]string{filepath.Join(kn, "plan.md"): "plan", filepath.Join(ws, "keep.txt"): "ws"})
			p := Policy{Writable: []string{home, ws}, ReadOnly: []string{kn}, Confine: true, TempDir: home}
			out, code := r.run(t, p, ws, "echo n > new.txt && mkdir d && mv new.txt d/ && rm keep.txt")
			if code != 0 {
				t.Errorf("the workspace inside a knowledge folder: %d %q", code, out)
			}
			for _, c := range []string{"echo x > ../plan.md", "touch ../new.md", "rm ../plan.md", "mv ../plan.md .", "mv " + kn + " " + home + "/moved"} {
				if out, code := r.run(t, p, ws, c); code == 0 {
					t.Errorf("%q succeeded: %q", c, out)
				}
			}
			if b, err := os.ReadFile(filepath.Join(kn, "plan.md")); err != nil || string(b) != "plan" {
				t.Errorf("the knowledge folder changed: %q %v", b, err)
			}
			if _, err := os.Stat(filepath.Join(kn, "new.md")); err == nil {
				t.Error("a file was made in the knowledge folder")
			}
		})
	}
}
