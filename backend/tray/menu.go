package tray

import (
	"cmp"
	"strconv"
	"time"

	"hearth/backend/activity"
	"hearth/backend/i18n"
	"hearth/backend/internal/clip"
)

// State is what the tray shows: Hearth's status as the services last told it.
type State struct {
	Next    Next
	Paused  bool            // reminders and the heartbeat are paused
	Running []activity.Work // what runs now, oldest first
	Model   string          // the default chat model
	Recent  []Chat          // the newest chats, newest first
}

// Next is the next reminder due; OK is false when none is.
type Next struct {
	Title string
	At    time.Time
	OK    bool
}

// Chat is one recent chat.
type Chat struct {
	ID    string
	Title string
}

// Kind says what a menu entry does.
type Kind int

// What entries do.
const (
	DoNothing  Kind = iota // a status line
	DoOpen                 // show the window
	DoNewChat              // show the window on a new chat
	DoQuickAsk             // the Quick ask window
	DoOpenChat             // show the window on Action.ChatID
	DoStop                 // stop Action.Work
	DoPause                // pause reminders
	DoResume               // resume them
	DoQuit                 // quit Hearth
)

// Action is what a click on an entry does.
type Action struct {
	Kind   Kind
	ChatID string        // DoOpenChat
	Work   activity.Work // DoStop
}

// Entry is one line of the menu. A status line (DoNothing) is shown greyed.
type Entry struct {
	Label   string
	Tip     string
	Enabled bool
	Action  Action
}

// The menu has room for this many running items and recent chats; more running work
// ends in a line that opens the window.
const (
	MaxRunning = 4
	MaxRecent  = 5
	// titleRunes bounds a chat's or reminder's title in a label: tray menus do not wrap.
	titleRunes = 40
)

// Menu is the whole menu for one State, in order: Open, New chat, Quick ask, Recent
// chats (a submenu: Recent), then Next, Running (at least one line: "Nothing running"),
// Model and Pause/Resume, then Quit.
type Menu struct {
	Open, NewChat, QuickAsk Entry
	RecentTitle             Entry
	Recent                  []Entry
	Next                    Entry
	Running                 []Entry
	Model                   Entry
	Pause                   Entry
	Quit                    Entry
	Tooltip                 string
}

// Build words the menu for st in l; now decides "today" in the Next line.
func Build(l i18n.Locale, st State, now time.Time) Menu {
	m := Menu{
		Open:     Entry{Label: i18n.T(l, "tray.open"), Tip: i18n.T(l, "tray.open.tip"), Enabled: true, Action: Action{Kind: DoOpen}},
		NewChat:  Entry{Label: i18n.T(l, "tray.newChat"), Tip: i18n.T(l, "tray.newChat.tip"), Enabled: true, Action: Action{Kind: DoNewChat}},
		QuickAsk: Entry{Label: i18n.T(l, "tray.quickAsk"), Tip: i18n.T(l, "tray.quickAsk.tip"), Enabled: true, Action: Action{Kind: DoQuickAsk}},
		Next:     Entry{Label: NextLabel(l, st.Next.Title, st.Next.At, now, st.Next.OK, st.Paused), Tip: i18n.T(l, "tray.next.tip")},
		Quit:     Entry{Label: i18n.T(l, "tray.quit"), Tip: i18n.T(l, "tray.quit.tip"), Enabled: true, Action: Action{Kind: DoQuit}},
	}
	m.RecentTitle = Entry{Label: i18n.T(l, "tray.recent"), Tip: i18n.T(l, "tray.recent.tip"), Enabled: len(st.Recent) > 0}
	for _, c := range st.Recent[:min(len(st.Recent), MaxRecent)] {
		title := c.Title
		title = cmp.Or(title, i18n.T(l, "tray.chat.untitled"))
		m.Recent = append(m.Recent, Entry{Label: clip.Runes(title, titleRunes), Tip: i18n.T(l, "tray.recent.open"), Enabled: true,
			Action: Action{Kind: DoOpenChat, ChatID: c.ID}})
	}
	m.Running = runningEntries(l, st.Running)
	if st.Model != "" {
		m.Model = Entry{Label: i18n.T(l, "tray.model", "model", st.Model), Tip: i18n.T(l, "tray.model.tip")}
	} else {
		m.Model = Entry{Label: i18n.T(l, "tray.model.none"), Tip: i18n.T(l, "tray.model.tip")}
	}
	if st.Paused {
		m.Pause = Entry{Label: i18n.T(l, "tray.resume"), Tip: i18n.T(l, "tray.pause.tip"), Enabled: true, Action: Action{Kind: DoResume}}
	} else {
		m.Pause = Entry{Label: i18n.T(l, "tray.pause"), Tip: i18n.T(l, "tray.pause.tip"), Enabled: true, Action: Action{Kind: DoPause}}
	}
	m.Tooltip = i18n.T(l, "tray.tooltip", "next", m.Next.Label)
	if n := len(st.Running); n > 0 {
		m.Tooltip = i18n.T(l, "tray.tooltip.running", "count", strconv.Itoa(n), "next", m.Next.Label)
	}
	return m
}

// runningEntries is one Stop line per running thing (at most MaxRunning lines; the
// last says how many more there are and opens the window), or "Nothing running".
func runningEntries(l i18n.Locale, works []activity.Work) []Entry {
	if len(works) == 0 {
		return []Entry{{Label: i18n.T(l, "tray.running.none"), Tip: i18n.T(l, "tray.running.tip")}}
	}
	shown := works
	if len(works) > MaxRunning {
		shown = works[:MaxRunning-1]
	}
	var out []Entry
	for _, w := range shown {
		title := clip.Runes(w.Title, titleRunes)
		var label string
		switch w.Kind {
		case activity.Reminder:
			label = i18n.T(l, "tray.stop.reminder", "title", title)
		case activity.Heartbeat:
			label = i18n.T(l, "tray.stop.heartbeat")
		case activity.Dream:
			label = i18n.T(l, "tray.stop.dream")
		case activity.Chat:
			if w.Waiting > 0 {
				// Messages sent meanwhile wait for it: a Stop holds them (docs/chat.md#while-it-works).
				label = i18n.T(l, "tray.stop.chatWaiting", "title", cmp.Or(title, i18n.T(l, "tray.chat.untitled")), "count", strconv.Itoa(w.Waiting))
				break
			}
			fallthrough
		default:
			title = cmp.Or(title, i18n.T(l, "tray.chat.untitled"))
			label = i18n.T(l, "tray.stop.chat", "title", title)
		}
		tip := i18n.T(l, "tray.stop.tip")
		switch {
		case w.Waiting > 0:
			tip = i18n.T(l, "tray.stop.waitingTip", "count", strconv.Itoa(w.Waiting))
		case !w.Started.IsZero():
			tip = i18n.T(l, "tray.stop.since", "time", w.Started.Local().Format("15:04"))
		}
		out = append(out, Entry{Label: label, Tip: tip, Enabled: true, Action: Action{Kind: DoStop, Work: w}})
	}
	if more := len(works) - len(shown); more > 0 {
		out = append(out, Entry{Label: i18n.T(l, "tray.running.more", "count", strconv.Itoa(more)),
			Tip: i18n.T(l, "tray.open.tip"), Enabled: true, Action: Action{Kind: DoOpen}})
	}
	return out
}
