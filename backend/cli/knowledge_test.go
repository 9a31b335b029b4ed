package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestKnowledgeCommands(t *testing.T) {
	startChat(t)
	dir := filepath.Join(t.TempDir(), "manuals")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "boiler.md"), []byte("Bleed the radiators before the first frost.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "scan.png"), []byte("png"), 0o644)
	code, out, errOut := runIn(t, "", "knowledge", "add", "--mode", "ask", dir)
	if code != 0 || !strings.Contains(out, dir+"  [ask]  1 files indexed, 1 skipped (type 1)") {
		t.Fatalf("add: exit %d %q %q", code, out, errOut)
	}
	code, out, _ = runIn(t, "", "memory", "search", "radiators")
	if code != 0 || !strings.Contains(out, "manuals/boiler.md line 1") {
		t.Errorf("search: exit %d %q", code, out)
	}
	if code, _, _ = runIn(t, "", "knowledge", "add", dir); code != 1 {
		t.Errorf("added twice: exit %d", code)
	}
	if code, out, _ = runIn(t, "", "knowledge", "mode", dir, "always"); code != 0 {
		t.Errorf("mode: exit %d %q", code, out)
	}
	if code, out, _ = runIn(t, "", "knowledge", "writable", dir, "on"); code != 0 || !strings.Contains(out, "may change its files") {
		t.Errorf("writable on: exit %d %q", code, out)
	}
	if code, _, errOut = runIn(t, "", "knowledge", "writable", dir, "yes"); code != 2 || !strings.Contains(errOut, "neither on nor off") {
		t.Errorf("writable yes: exit %d %q", code, errOut)
	}
	if code, out, _ = runIn(t, "", "knowledge", "writable", dir, "off"); code != 0 || !strings.Contains(out, "read-only") {
		t.Errorf("writable off: exit %d %q", code, out)
	}
	code, out, _ = runIn(t, "", "knowledge", "list", "--json")
	var list []struct{ Path, Mode string }
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) != 1 || list[0].Mode != "always" {
		t.Errorf("list: exit %d %v %q", code, err, out)
	}
	if code, out, _ = runIn(t, "", "knowledge", "remove", dir); code != 0 || !strings.Contains(out, "untouched") {
		t.Errorf("remove: exit %d %q", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "boiler.md")); err != nil {
		t.Error("remove touched the files")
	}
	if code, out, _ = runIn(t, "", "knowledge", "list"); code != 0 || !strings.Contains(out, "No knowledge folders") {
		t.Errorf("list after remove: exit %d %q", code, out)
	}
	if code, _, _ = runIn(t, "", "knowledge", "add", "--mode", "sometimes", dir); code != 1 {
		t.Errorf("bad mode: exit %d", code)
	}
}
