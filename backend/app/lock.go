package app

import "hearth/backend/applock"

// Who holds hearth.lock, for the command line: it reaches the lock through the root, as
// it reaches every service (its own imports are spent on what it prints).
type (
	LockHolder = applock.Holder    // who holds it: kind, pid, since
	LockHeld   = applock.HeldError // a start refused because another process holds it
	LockKind   = applock.Kind
)

// The holders' kinds the command line takes the lock as.
const (
	LockServe   = applock.KindServe
	LockDesktop = applock.KindDesktop
)

// TakeLock takes hearth.lock for kind: the proof App.Start needs to run the reminders,
// the heartbeat, Dream and the channels. Another holder refuses it with a *LockHeld.
func (a *App) TakeLock(kind LockKind) (*applock.Lock, error) {
	return applock.AcquireAs(a.Settings.Paths().LockFile, kind)
}

// LockState says whether a process holds hearth.lock and who, without taking it.
func (a *App) LockState() (LockHolder, bool, error) {
	return applock.Probe(a.Settings.Paths().LockFile)
}
