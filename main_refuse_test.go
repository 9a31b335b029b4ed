//go:build !headless

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adrg/xdg"

	"hearth/backend/app"
	"hearth/backend/applock"
	"hearth/backend/i18n"
	"hearth/backend/notify"
)

// A desktop start while `hearth serve` holds the data folder says who runs and what to
// do, and starts nothing (without a session bus the notification is skipped).
func TestDesktopRefusesBesideServe(t *testing.T) {
	root := t.TempDir()
	for k, v := range map[string]string{"HOME": root, "XDG_CONFIG_HOME": filepath.Join(root, "config"),
		"XDG_DATA_HOME": filepath.Join(root, "data"), "XDG_STATE_HOME": filepath.Join(root, "state"),
		"DBUS_SESSION_BUS_ADDRESS": "disabled:", "OLLAMA_HOST": "127.0.0.1:9"} {
		t.Setenv(k, v)
	}
	xdg.Reload()
	t.Cleanup(xdg.Reload)
	h, err := app.New(app.Options{Getenv: os.Getenv})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(t.Context())
	holder := applock.Holder{Kind: applock.KindServe, PID: 4242, Since: time.Now()}
	if applock.SecondDesktop(holder) != applock.StepRefuse {
		t.Fatal("a desktop must not focus a serve holder")
	}
	err = refuseBesideService(h, holder)
	if err == nil {
		t.Fatal("the desktop must refuse")
	}
	for _, want := range []string{"Hearth already runs here as serve (pid 4242", "does not start a second agent",
		"systemctl --user stop hearth"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal lacks %q: %s", want, err)
		}
	}
	// The notification's short wording fits a notification whole, in either language.
	for _, l := range i18n.Locales() {
		text := i18n.T(l, "service.desktopRefused.notice", "pid", "4242")
		if notify.Plain(text) != text || !strings.Contains(text, "systemctl --user stop hearth") {
			t.Errorf("%s notice is cut or lacks the command: %q", l, notify.Plain(text))
		}
	}
}
