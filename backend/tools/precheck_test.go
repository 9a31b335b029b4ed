package tools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDestructive(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]bool{
		"echo x > new.txt":          false,
		"echo x > $OUT":             true,
		"ls -la":                    false,
		"echo hi > /dev/null":       false,
		"grep -r foo . 2>/dev/null": false,
		"cat a >> log.txt":          false,
		"echo 'rm -rf /'":           false,
		"find . -name '*.go' -exec grep -l x {} +": false,
		"git status && git log":                    false,
		"rm old.txt":                               true,
		"sudo rm -r build":                         true,
		"/bin/mv a b":                              true,
		"echo x > notes.txt":                       true,
		"ls; dd if=/dev/zero of=f":                 true,
		"git reset --hard HEAD~1":                  true,
		"git push --force origin main":             true,
		"find . -name '*.tmp' -delete":             true,
		"find . -exec rm {} ;":                     true,
		"sed -i s/a/b/ f.txt":                      true,
		"mkfs.ext4 /dev/sdz1":                      true,
		"rsync -a --delete src/ dst/":              true,
		"echo 'unterminated":                       true,
	} {
		if got := Destructive(cmd, dir); got != want {
			t.Errorf("Destructive(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// Prepare runs exec's own rules: a command the guard refuses is refused before any
// gate is asked, with the rule's reason; an allowed one carries its preview.
func TestPrepareRefusesWhatTheGuardRefuses(t *testing.T) {
	dir := t.TempDir()
	reg := NewRegistry(RegistryOptions{})
	_ = reg.Register(NewExec(&Policy{Workspace: dir}, ExecOptions{}))
	p := reg.Prepare("exec", json.RawMessage(`{"command":"rm -rf ~"}`))
	if !p.Refused || p.Err == nil || !strings.Contains(p.Err.Error(), "refused by safety rule") {
		t.Fatalf("rm -rf ~: refused=%v err=%v", p.Refused, p.Err)
	}
	p = reg.Prepare("exec", json.RawMessage(`{"command":"ls","working_dir":"/no/such/dir"}`))
	if !p.Refused || p.Err == nil {
		t.Errorf("missing dir: refused=%v err=%v", p.Refused, p.Err)
	}
	p = reg.Prepare("exec", json.RawMessage(`{"command":"rm notes.txt"}`))
	if p.Err != nil || p.Refused || !p.Preview.Destructive || p.Preview.Dir == "" {
		t.Errorf("rm notes.txt: %+v", p)
	}
	p = reg.Prepare("exec", json.RawMessage(`{"command":"echo hi"}`))
	if p.Err != nil || p.Preview.Destructive {
		t.Errorf("echo: %+v", p)
	}
}
