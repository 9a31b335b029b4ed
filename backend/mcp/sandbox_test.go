package mcp

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"hearth/backend/config"
	"hearth/backend/sandbox"
	"hearth/backend/tools"
)

// A stdio server with "sandbox": true runs under exec's rules: it connects and its
// tools work, but it cannot write outside its writable folders nor read Hearth's
// hidden folders, also one inside a writable folder; the same server without the
// flag can (the control).
//
// With the temporary folder writable too (exec's real rules), the test's folders
// all lie in it: Hearth's folder must still be hidden (it once was not).
func TestSandboxedStdioServer(t *testing.T) {
	sb := sandbox.New(sandbox.Options{})
	if st := sb.Status(); st.Mode == sandbox.ModeNone {
		t.Skipf("no sandbox on this machine: %s", st.Summary)
	}
	t.Run("allowed folder", func(t *testing.T) { sandboxedServer(t, sb, false) })
	t.Run("temporary folder writable", func(t *testing.T) { sandboxedServer(t, sb, true) })
}

func sandboxedServer(t *testing.T, sb *sandbox.Sandbox, tmpWritable bool) {
	root := t.TempDir()
	// Hearth's folder lies inside an allowed (writable) one, as under an allowed ~:
	// it must stay hidden all the same.
	work, outside, allowed := filepath.Join(root, "work"), filepath.Join(root, "outside"), filepath.Join(root, "allowed")
	hidden := filepath.Join(allowed, "hearth-data")
	for _, d := range []string{work, outside, hidden} { // hidden makes allowed too
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(hidden, "sessions.jsonl")
	if err := os.WriteFile(secret, []byte("private"), 0o600); err != nil {
		t.Fatal(err)
	}
	server := func(name string, confine bool) config.MCPServer {
		c := stdioServer(map[string]string{probeVar: filepath.Join(outside, name), probeReadVar: secret})
		c.Sandbox = confine
		return c
	}
	writable := []string{work, allowed}
	if tmpWritable {
		writable = append(writable, os.TempDir())
	}
	reg := tools.NewRegistry(tools.RegistryOptions{})
	m := New(Options{Servers: map[string]config.MCPServer{"boxed": server("boxed", true), "free": server("free", false)},
		Registries: []*tools.Registry{reg}, Backoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond,
		ConnectTimeout: 10 * time.Second, Dir: work, Sandbox: sb,
		Policy: sandbox.Policy{Writable: writable, Hidden: []string{hidden}}})
	t.Cleanup(m.Close)
	f := &fixture{reg: reg, m: m}
	m.Start()
	f.connected(t, "boxed")
	f.connected(t, "free")
	if r := f.call("mcp_boxed_echo", `{"text": "inside"}`); r.IsError || r.Content != "echo: inside" {
		t.Fatalf("sandboxed server's tool: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(outside, "free")); err != nil {
		t.Fatalf("control: the unconfined server could not write outside (%v): the probe proves nothing", err)
	}
	if _, err := os.Stat(filepath.Join(outside, "free.read")); err != nil {
		t.Fatalf("control: the unconfined server could not read the hidden file (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(outside, "boxed")); err == nil && !tmpWritable {
		t.Error("the sandboxed server wrote outside its writable folders")
	}
	if _, err := os.Stat(filepath.Join(outside, "boxed.read")); err == nil {
		t.Error("the sandboxed server read a hidden folder")
	}
}
