package tools

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"hearth/backend/internal/confined"
)

// FuzzResolvePath gives the path resolver — the step that turns a tool's path argument
// into a root and a name beneath it (Policy.resolve, then access.at) — arbitrary paths,
// read and write, against a workspace holding symlinks that stay inside, lead out of it
// and lead to a device, plus an allowed folder and a protected file. Whatever it
// accepts must lie in the workspace or the allowed folder, the name must stay beneath
// its root, and whatever then opens through that root must really be inside it (the
// kernel says where). Seeds: testdata/fuzz/FuzzResolvePath.
func FuzzResolvePath(f *testing.F) {
	for _, s := range []string{
		"notes.txt", "./sub/../notes.txt", "sub/inner.txt", "~/ws/notes.txt", "~", "/",
		"../outside/secret.txt", "../../../../etc/passwd", "out/secret.txt", "inlink/inner.txt",
		"devlink", "/proc/self/environ", "/dev/zero", "config.json", "sub/", "a\x00b", "",
		"  sub/inner.txt  ", "allowed/../allowed/a.txt", strings.Repeat("a/", 300) + "x",
		strings.Repeat("../", 200) + "etc/passwd", "sub/./././inner.txt", "~root/.ssh",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	home, _ := filepath.EvalSymlinks(f.TempDir())
	ws, allowed, outside := filepath.Join(home, "ws"), filepath.Join(home, "allowed"), filepath.Join(home, "outside")
	for _, d := range []string{filepath.Join(ws, "sub"), allowed, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			f.Fatal(err)
		}
	}
	for p, body := range map[string]string{
		filepath.Join(ws, "notes.txt"): "notes", filepath.Join(ws, "sub", "inner.txt"): "inner",
		filepath.Join(ws, "config.json"): "{}", filepath.Join(allowed, "a.txt"): "a",
		filepath.Join(outside, "secret.txt"): "secret",
	} {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	for link, target := range map[string]string{"out": outside, "inlink": "sub", "devlink": "/dev/zero", "up": ".."} {
		if err := os.Symlink(target, filepath.Join(ws, link)); err != nil {
			f.Fatal(err)
		}
	}
	p := &Policy{Workspace: ws, AllowedPaths: []string{allowed}, ProtectedPaths: []string{"config.json"}, Home: home}
	f.Fuzz(func(t *testing.T, path string, write bool) {
		a := p.access()
		defer a.close()
		r, rel, abs, err := a.at(path, write)
		if err != nil {
			return
		}
		if !filepath.IsAbs(abs) || filepath.Clean(abs) != abs {
			t.Fatalf("%q: resolved to %q, not a clean absolute path", path, abs)
		}
		if !confined.Within(abs, ws) && !confined.Within(abs, allowed) {
			t.Fatalf("%q: accepted %q outside the workspace and the allowed folder", path, abs)
		}
		if write && confined.Within(abs, filepath.Join(ws, "config.json")) {
			t.Fatalf("%q: a write to the protected config.json was accepted", path)
		}
		if rel != "." && !filepath.IsLocal(filepath.FromSlash(rel)) {
			t.Fatalf("%q: name %q under %s is not beneath it", path, rel, r.Dir())
		}
		if filepath.Join(r.Dir(), filepath.FromSlash(rel)) != abs {
			t.Fatalf("%q: root %s and name %q do not make %s", path, r.Dir(), rel, abs)
		}
		file, _, err := r.Open(rel)
		if err != nil {
			return
		}
		defer file.Close()
		real, lerr := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(file.Fd())))
		if lerr == nil && !confined.Within(real, r.Dir()) {
			t.Fatalf("%q: opened %s, outside its root %s", path, real, r.Dir())
		}
	})
}
