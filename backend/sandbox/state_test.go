package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The default workspace is <data>/workspace, and Hearth keeps each workspace's
// memory history, inbox and Dream state in <data>/workspaces/<id>: a command
// that may write the workspace can neither read that state nor replace any of
// it (with a link, say), in every mode — "workspaces" is not "workspace".
func TestStateBesideDefaultWorkspaceStaysHidden(t *testing.T) {
	s := New(Options{})
	st := s.Status()
	if st.LandlockABI == 0 {
		t.Skip("this kernel has no Landlock")
	}
	var modes []bool
	if st.Namespaces {
		modes = append(modes, true)
	}
	for _, ns := range append(modes, false) {
		t.Run(map[bool]string{true: "ns=true", false: "ns=false"}[ns], func(t *testing.T) {
			root, _ := filepath.EvalSymlinks(t.TempDir())
			data := filepath.Join(root, "data")
			ws := filepath.Join(data, "workspace")
			git := filepath.Join(data, "workspaces", "0123456789ab", "memory.git")
			tmp := filepath.Join(root, "tmp")
			for _, d := range []string{ws, git, tmp} {
				if err := os.MkdirAll(d, 0o700); err != nil {
					t.Fatal(err)
				}
			}
			head := filepath.Join(git, "HEAD")
			if err := os.WriteFile(head, []byte("STATE-SECRET\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			req := request{Policy: Policy{Writable: []string{ws, tmp}, Hidden: []string{data}, Confine: true}, NS: ns, NoUser: ns && !st.UserNamespace}
			if out, code := runIn(t, s.opts.Exe, req, ws, "echo in > inside.txt && cat inside.txt"); code != 0 || out != "in\n" {
				t.Fatalf("the workspace is not writable: %d %q", code, out)
			}
			out, _ := runIn(t, s.opts.Exe, req, ws, "cat ../workspaces/*/memory.git/HEAD "+head)
			if strings.Contains(out, "STATE-SECRET") {
				t.Errorf("the state folder was read: %q", out)
			}
			for _, c := range []string{
				"rm -rf " + git + " && ln -s " + tmp + " " + git,
				"mv " + git + " " + git + ".x",
				"echo x > " + filepath.Dir(git) + "/dream.json",
				"ln -s " + tmp + " " + filepath.Dir(git) + "/inbox",
			} {
				if out, code := runIn(t, s.opts.Exe, req, ws, c); code == 0 {
					t.Errorf("%q succeeded: %q", c, out)
				}
			}
			if b, err := os.ReadFile(head); err != nil || string(b) != "STATE-SECRET\n" {
				t.Errorf("the history changed: %q %v", b, err)
			}
			for _, name := range []string{"dream.json", "inbox"} {
				if _, err := os.Lstat(filepath.Join(filepath.Dir(git), name)); !os.IsNotExist(err) {
					t.Errorf("%s planted in the state folder: %v", name, err)
				}
			}
		})
	}
}
