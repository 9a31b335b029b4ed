package app

import (
	"testing"

	"hearth/backend/reminders"
)

// The Settings view's background section reads what the setters wrote, and
// saving the rest of Settings afterwards keeps it.
func TestBackgroundSettingsFollowTheSetters(t *testing.T) {
	svc, _, _, _ := bgService(t, "")
	got := svc.Reminders.BackgroundSettings()
	want := reminders.BackgroundSettings{HeartbeatEnabled: true, HeartbeatMinutes: 30, MissedRuns: "catchup", CloseToTray: true}
	if got != want {
		t.Fatalf("defaults %+v, want %+v", got, want)
	}
	if err := svc.Reminders.SetHeartbeat(false, 45); err != nil {
		t.Fatal(err)
	}
	if err := svc.Reminders.SetMissedRuns("skip"); err != nil {
		t.Fatal(err)
	}
	if err := svc.Settings.SetCloseToTray(false); err != nil {
		t.Fatal(err)
	}
	if err := svc.Settings.SetLaunchAtLogin(true); err != nil {
		t.Fatal(err)
	}
	svc.Reminders.SetPaused(true)
	want = reminders.BackgroundSettings{HeartbeatMinutes: 45, MissedRuns: "skip", LaunchAtLogin: true, RemindersPaused: true}
	if got := svc.Reminders.BackgroundSettings(); got != want {
		t.Fatalf("after setters %+v, want %+v", got, want)
	}
	s := svc.Settings.Settings()
	s.Temperature = 0.3
	res, err := svc.SaveSettings(s)
	if err != nil || !res.Saved {
		t.Fatalf("save settings: %v %+v", err, res)
	}
	// A fresh Service reads the file: the background settings were written, and
	// the Settings view's save did not undo them.
	svc2 := open(t, Options{Getenv: env(map[string]string{})})
	defer svc2.Close(t.Context())
	if got := svc2.Reminders.BackgroundSettings(); got != want { // paused survives the restart (schedule.paused)
		t.Errorf("reloaded %+v, want %+v", got, want)
	}
	svc2.Reminders.SetPaused(false)
	svc3 := open(t, Options{Getenv: env(map[string]string{})})
	defer svc3.Close(t.Context())
	if svc3.Reminders.Paused() {
		t.Error("resumed reminders are paused again after a restart")
	}
}
