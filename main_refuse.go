//go:build !headless

package main

import (
	"errors"
	"os"
	"strconv"

	"hearth/backend/app"
	"hearth/backend/applock"
	"hearth/backend/i18n"
	"hearth/backend/notify"
)

// refuseBesideService ends a desktop start while `hearth serve` (or a command) holds
// the data folder: there is no window to bring forward, and a second agent must not
// start. A click on the icon has no terminal, so a desktop notification says why (in
// the UI language); the error says it on stderr for a start from a terminal.
func refuseBesideService(h *app.App, holder applock.Holder) error {
	p := i18n.M("service.desktopRefused", "holder", holder.String()).WithHint(i18n.M("service.desktopRefused.hint"))
	l := i18n.Resolve(h.Settings.Config().UI.Language, os.Getenv)
	if n, err := notify.NewDBus(notify.Options{Icon: "hearth"}); err == nil {
		// A notification shows two short lines: the short wording, whole.
		_ = n.Notify(notify.Notification{Title: i18n.T(l, "service.desktopRefused.title"),
			Body: notify.Plain(i18n.T(l, "service.desktopRefused.notice", "pid", strconv.Itoa(holder.PID)))})
		_ = n.Close()
	}
	return errors.New(p.String())
}
