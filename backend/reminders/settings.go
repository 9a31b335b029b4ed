package reminders

// BackgroundSettings is what the window's Settings shows for work done in
// the background: the heartbeat, the missed-run policy, the tray and launch
// at login, and whether reminders are paused (the tray's Pause reminders).
// Each is changed by its own setter (SetHeartbeat, SetMissedRuns,
// SetCloseToTray, SetLaunchAtLogin, SetPaused), which saves at once.
type BackgroundSettings struct {
	HeartbeatEnabled bool   `json:"heartbeatEnabled"`
	HeartbeatMinutes int    `json:"heartbeatMinutes"`
	MissedRuns       string `json:"missedRuns"`
	CloseToTray      bool   `json:"closeToTray"`
	LaunchAtLogin    bool   `json:"launchAtLogin"`
	RemindersPaused  bool   `json:"remindersPaused"`
}

// BackgroundSettings returns the current background settings.
func (s *Service) BackgroundSettings() BackgroundSettings {
	c := s.opts.Settings.Config()
	return BackgroundSettings{
		HeartbeatEnabled: c.Heartbeat.Enabled,
		HeartbeatMinutes: c.Heartbeat.IntervalMinutes,
		MissedRuns:       c.Schedule.MissedRuns,
		CloseToTray:      c.UI.CloseToTray,
		LaunchAtLogin:    c.UI.LaunchAtLogin,
		RemindersPaused:  s.Paused(),
	}
}
