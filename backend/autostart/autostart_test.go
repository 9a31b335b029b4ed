package autostart

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrg/xdg"
)

func TestSetAndRemove(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	xdg.Reload()
	t.Cleanup(xdg.Reload)
	if err := Set(true, "/opt/My Apps/hearth"); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(Path())
	if !strings.Contains(string(data), `Exec="/opt/My Apps/hearth" --hidden`) || !Enabled() {
		t.Errorf("entry:\n%s", data)
	}
	if filepath.Dir(Path()) != filepath.Join(xdg.ConfigHome, "autostart") {
		t.Errorf("path %s", Path())
	}
	if err := Set(false, ""); err != nil || Enabled() {
		t.Fatalf("remove: %v, enabled %v", err, Enabled())
	}
	// A user's own entry is left alone.
	os.WriteFile(Path(), []byte("[Desktop Entry]\nExec=hearth\n"), 0o644)
	if err := Set(false, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(Path()); err != nil {
		t.Error("removed the user's own autostart entry")
	}
}
