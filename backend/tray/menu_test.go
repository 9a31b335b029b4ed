package tray

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"hearth/backend/activity"
	"hearth/backend/i18n"
)

var now = time.Date(2026, 11, 27, 15, 0, 0, 0, time.Local)

// lines is the menu as a person reads it: visible labels in order, greyed ones in [].
func lines(m Menu) string {
	e, _ := layout(m)
	var out []string
	for _, x := range e {
		switch {
		case x.Label == "":
		case x.Enabled:
			out = append(out, x.Label)
		default:
			out = append(out, "["+x.Label+"]")
		}
	}
	return strings.Join(out, " | ")
}

func TestMenuForEachState(t *testing.T) {
	started := time.Date(2026, 11, 27, 14, 55, 0, 0, time.Local)
	for _, c := range []struct {
		name string
		l    i18n.Locale
		st   State
		want string
		tip  string
	}{
		{"fresh install", i18n.English, State{},
			"Open Hearth | New chat | Quick ask… | [Recent chats] | [Next: no reminders] | [Nothing running] | [Model: none chosen] | Pause reminders | Quit",
			"Hearth — Next: no reminders"},
		{"idle with a reminder due today", i18n.English, State{Next: Next{Title: "tea", At: now.Add(100 * time.Minute), OK: true},
			Model: "qwen3:4b", Recent: []Chat{{ID: "s1", Title: "Plan the week"}, {ID: "s2"}}},
			"Open Hearth | New chat | Quick ask… | Recent chats | Plan the week | New chat | [Next: tea at 16:40] | [Nothing running] | [Model: qwen3:4b] | Pause reminders | Quit",
			"Hearth — Next: tea at 16:40"},
		{"paused", i18n.English, State{Paused: true, Next: Next{Title: "tea", At: now.Add(time.Hour), OK: true}},
			"Open Hearth | New chat | Quick ask… | [Recent chats] | [Next: reminders paused] | [Nothing running] | [Model: none chosen] | Resume reminders | Quit",
			"Hearth — Next: reminders paused"},
		{"a chat, a reminder, the heartbeat and Dream running", i18n.English, State{Model: "qwen3:4b", Running: []activity.Work{
			{Kind: activity.Chat, ID: "s1", Title: "Plan the week", Started: started},
			{Kind: activity.Reminder, ID: "cron:ab12", Title: "Tea"},
			{Kind: activity.Heartbeat, ID: "heartbeat"},
			{Kind: activity.Dream, ID: activity.DreamID}}},
			"Open Hearth | New chat | Quick ask… | [Recent chats] | [Next: no reminders] | Stop: chat “Plan the week” | Stop: reminder “Tea” | Stop: heartbeat check | Stop: Dream (tidying memory) | [Model: qwen3:4b] | Pause reminders | Quit",
			"Hearth — 4 running · Next: no reminders"},
		{"a chat with messages waiting for it", i18n.English, State{Model: "qwen3:4b", Running: []activity.Work{
			{Kind: activity.Chat, ID: "s1", Title: "Plan the week", Started: started, Waiting: 2}}},
			"Open Hearth | New chat | Quick ask… | [Recent chats] | [Next: no reminders] | Stop: chat “Plan the week” (2 waiting) | [Model: qwen3:4b] | Pause reminders | Quit",
			"Hearth — 1 running · Next: no reminders"},
		{"zh-CN, an untitled chat with a message waiting", i18n.Chinese, State{Running: []activity.Work{{Kind: activity.Chat, ID: "s1", Waiting: 1}}},
			"打开 Hearth | 新对话 | 快速提问… | [最近的对话] | [下一个：没有提醒] | 停止：对话“新对话”（1 条等待中） | [模型：未选择] | 暂停提醒 | 退出",
			"Hearth — 1 个正在运行 · 下一个：没有提醒"},
		{"zh-CN with a reminder running", i18n.Chinese, State{Model: "qwen3:4b", Next: Next{Title: "tea", At: now.Add(18 * time.Hour), OK: true},
			Running: []activity.Work{{Kind: activity.Reminder, ID: "cron:ab12", Title: "喝茶"}}, Recent: []Chat{{ID: "s1", Title: "周计划"}}},
			"打开 Hearth | 新对话 | 快速提问… | 最近的对话 | 周计划 | [下一个：tea，周六 09:00] | 停止：提醒“喝茶” | [模型：qwen3:4b] | 暂停提醒 | 退出",
			"Hearth — 1 个正在运行 · 下一个：tea，周六 09:00"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := Build(c.l, c.st, now)
			if got := lines(m); got != c.want {
				t.Errorf("menu\n got %s\nwant %s", got, c.want)
			}
			if m.Tooltip != c.tip {
				t.Errorf("tooltip %q, want %q", m.Tooltip, c.tip)
			}
		})
	}
}

func TestMenuBoundsItsLists(t *testing.T) {
	var st State
	for i := range 9 {
		st.Running = append(st.Running, activity.Work{Kind: activity.Chat, ID: fmt.Sprint("s", i), Title: fmt.Sprint("chat ", i)})
		st.Recent = append(st.Recent, Chat{ID: fmt.Sprint("s", i), Title: strings.Repeat("long title ", 10)})
	}
	m := Build(i18n.English, st, now)
	if len(m.Running) != MaxRunning || len(m.Recent) != MaxRecent {
		t.Fatalf("%d running lines, %d recent chats", len(m.Running), len(m.Recent))
	}
	last := m.Running[MaxRunning-1]
	if last.Label != "6 more running — open Hearth" || last.Action.Kind != DoOpen {
		t.Errorf("last running line %+v", last)
	}
	if r := []rune(m.Recent[0].Label); len(r) != titleRunes || r[len(r)-1] != '…' {
		t.Errorf("a long title is not cut: %q", m.Recent[0].Label)
	}
	if m.Running[0].Tip != "Running now — click to stop it" {
		t.Errorf("tip without a start time: %q", m.Running[0].Tip)
	}
}

// TestMenuActions clicks every kind of entry through Do, the way a click on its slot does.
func TestMenuActions(t *testing.T) {
	var did []string
	tr := New(nil, i18n.English, Actions{
		Open:      func() { did = append(did, "open") },
		NewChat:   func() { did = append(did, "new") },
		QuickAsk:  func() { did = append(did, "quick ask") },
		OpenChat:  func(id string) { did = append(did, "open chat "+id) },
		Stop:      func(w activity.Work) { did = append(did, "stop "+w.Kind+" "+w.ID) },
		SetPaused: func(p bool) { did = append(did, fmt.Sprint("paused ", p)) },
		Quit:      func() { did = append(did, "quit") },
	})
	tr.now = func() time.Time { return now }
	tr.Set(i18n.English, State{Recent: []Chat{{ID: "s7", Title: "Soup"}}, Running: []activity.Work{
		{Kind: activity.Dream, ID: activity.DreamID}, {Kind: activity.Reminder, ID: "cron:ab12", Title: "Tea"}}})
	for _, slot := range []int{slotOpen, slotNew, slotQuick, slotRecent0, slotRunning0, slotRunning0 + 1, slotNext, slotModel, slotPause} {
		tr.click(slot)
	}
	want := "open|new|quick ask|open chat s7|stop dream dream|stop reminder cron:ab12|paused true"
	if got := strings.Join(did, "|"); got != want {
		t.Errorf("clicks did\n %s\nwant %s", got, want)
	}
	// Pause shows Resume at once; clicking it resumes.
	if m := tr.Menu(); m.Pause.Label != "Resume reminders" || m.Next.Label != "Next: reminders paused" {
		t.Errorf("after Pause: %q, %q", m.Pause.Label, m.Next.Label)
	}
	did = nil
	tr.click(slotPause)
	tr.click(slotQuit)
	if got := strings.Join(did, "|"); got != "paused false|quit" {
		t.Errorf("Resume, Quit did %q", got)
	}
	// A click on a slot that is hidden now (the run ended) does nothing.
	tr.Set(i18n.English, State{})
	did = nil
	tr.click(slotRunning0 + 1)
	tr.click(slotRunning0) // "Nothing running"
	if len(did) != 0 {
		t.Errorf("stale slots did %q", did)
	}
}

// Menu is the menu as shown now.
func (t *Tray) Menu() Menu {
	t.mu.Lock()
	defer t.mu.Unlock()
	return Build(t.loc, t.st, t.now())
}

// A chat's Stop says what becomes of the messages waiting for it.
func TestStopTipNamesWaitingMessages(t *testing.T) {
	m := Build(i18n.English, State{Running: []activity.Work{{Kind: activity.Chat, ID: "s1", Title: "Plan", Waiting: 2}}}, now)
	if got, want := m.Running[0].Tip, "2 sent meanwhile wait for it — Stop keeps them, unsent"; got != want {
		t.Errorf("tip %q, want %q", got, want)
	}
	if m.Running[0].Action.Work.ID != "s1" {
		t.Errorf("action %+v", m.Running[0].Action)
	}
}
