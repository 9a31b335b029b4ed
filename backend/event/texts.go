package event

import "strings"

// texts holds, by code, the English of every notification and tray label Hearth
// shows outside its window. They live in one table so the translation of backend
// messages can take them over in one step: the code and arguments travel beside the
// English (Background.Code/Args), and a front end that knows the code shows its own
// language. {name} is replaced by the argument of that name.
var texts = map[string]string{
	// Notifications.
	"reminder.title":        "Reminder",
	"reminder.failed":       "{message}\n(Hearth could not run this reminder: {error})",
	"reminder.missed.title": "Hearth reminders",
	"heartbeat.title":       "Hearth",
	"message.title":         "Hearth",
	"subagent.finished":     `Background task "{label}" finished`,
	"subagent.ended":        `Background task "{label}" {status}`,
	// Actions on a notification.
	"notify.open": "Open",
}

// Text is the English of code with args filled in; an unknown code is returned as it
// is (a missing entry shows, it does not vanish).
func Text(code string, args map[string]string) string {
	s, ok := texts[code]
	if !ok {
		return code
	}
	for k, v := range args {
		s = strings.ReplaceAll(s, "{"+k+"}", v)
	}
	return s
}
