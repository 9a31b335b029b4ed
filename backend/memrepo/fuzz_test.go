package memrepo

import (
	"bytes"
	"compress/zlib"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func zlibOf(b []byte) []byte {
	var buf bytes.Buffer
	z := zlib.NewWriter(&buf)
	z.Write(b)
	z.Close()
	return buf.Bytes()
}

// Any bytes where a loose object of the history is (its file damaged, or
// replaced by a command in older versions' workspace) give an answer or an
// error, never a panic, a hang or more memory than the object bound.
func FuzzLooseObject(f *testing.F) {
	f.Add(zlibOf([]byte("blob 6\x00small\n")))
	f.Add(zlibOf([]byte("blob 99999999999\x00x")))
	f.Add(zlibOf([]byte("blob -1\x00")))
	f.Add(zlibOf([]byte("commit 3\x00abc")))
	f.Add([]byte("not zlib at all"))
	f.Add(zlibOf(append([]byte("blob 10\x00"), make([]byte, 1<<17)...)))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := filepath.Join(t.TempDir(), "memory.git")
		r := New(dir, nil)
		if _, err := r.Commit(Change{Files: map[string][]byte{"m.md": []byte("small\n")}, Author: "a", Message: "m"}); err != nil {
			t.Fatal(err)
		}
		h := plumbing.ComputeHash(plumbing.BlobObject, []byte("small\n")).String()
		p := filepath.Join(dir, "objects", h[:2], h[2:])
		_ = os.Chmod(p, 0o600)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		r2 := New(dir, nil)
		r2.fs.maxObject = 1 << 16
		content, _, err := r2.Show("HEAD", "m.md")
		if err == nil && int64(len(content)) > r2.fs.maxObject {
			t.Fatalf("read %d bytes past the bound", len(content))
		}
		_, _ = r2.Log("", 0)
	})
}
