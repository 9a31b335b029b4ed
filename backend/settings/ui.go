package settings

import (
	"fmt"

	"hearth/backend/autostart"
	"hearth/backend/config"
	"hearth/backend/launch"
)

// ApplyLaunchAtLogin makes the XDG autostart entry match ui.launchAtLogin;
// the desktop calls it at start, so moving the binary updates the entry. The entry
// names the `hearth` launcher, not the unpacked desktop image it runs.
func (s *Service) ApplyLaunchAtLogin() error {
	exe, err := launch.Executable(s.getenv)
	if err != nil {
		return fmt.Errorf("launch at login: %w", err)
	}
	return autostart.Set(s.Config().UI.LaunchAtLogin, exe)
}

// SetLaunchAtLogin changes ui.launchAtLogin, saves the config and writes
// or removes the autostart entry.
func (s *Service) SetLaunchAtLogin(on bool) error {
	if err := s.Update(func(c *config.Config) error { c.UI.LaunchAtLogin = on; return nil }); err != nil {
		return err
	}
	return s.ApplyLaunchAtLogin()
}

// SetCloseToTray changes ui.closeToTray (closing the window hides it to
// the tray) and saves the config.
func (s *Service) SetCloseToTray(on bool) error {
	return s.Update(func(c *config.Config) error { c.UI.CloseToTray = on; return nil })
}
