package tray

import (
	"bufio"
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"hearth/backend/activity"
	"hearth/backend/i18n"
)

func privateBus(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("dbus-daemon")
	if err != nil {
		t.Skip("dbus-daemon not installed")
	}
	cmd := exec.Command(bin, "--session", "--nofork", "--print-address=1")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(addr)
}

type item struct {
	id    int32
	label string
}

// menu reads the item's dbusmenu layout the way a tray host does.
func menu(t *testing.T, conn *dbus.Conn) []item {
	t.Helper()
	// The entries are read with GetGroupProperties, not GetLayout: fyne.io/systray
	// (v1.12.2) answers the first GetLayout and then, from a goroutine of its own,
	// bumps the menu revision that the answer read — unsynchronised, a data race inside
	// the library that -race reports whoever calls it (harmless in use: the host asks
	// again on the LayoutUpdated that follows). The labels, ids and clicks tested here
	// are the same either way; the native smoke reads the menu through a real host.
	obj := conn.Object(fmt.Sprintf("org.kde.StatusNotifierItem-%d-1", os.Getpid()), "/StatusNotifierItem/menu")
	ids := make([]int32, 64)
	for i := range ids {
		ids[i] = int32(i + 1)
	}
	var props []struct {
		ID    int32
		Props map[string]dbus.Variant
	}
	if err := obj.Call("com.canonical.dbusmenu.GetGroupProperties", 0, ids, []string{}).Store(&props); err != nil {
		t.Fatalf("GetGroupProperties: %v", err)
	}
	sort.Slice(props, func(i, j int) bool { return props[i].ID < props[j].ID })
	var items []item
	for _, p := range props {
		label, _ := p.Props["label"].Value().(string)
		if visible, ok := p.Props["visible"].Value().(bool); ok && !visible {
			continue
		}
		if label != "" {
			items = append(items, item{p.ID, label})
		}
	}
	return items
}

// trayStarted: systray is process-global and starts once per process.
var trayStarted atomic.Bool

func TestTrayMenuOverDBus(t *testing.T) {
	if trayStarted.Swap(true) {
		t.Skip("systray starts once per process (-count > 1)")
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", privateBus(t))
	clicks := make(chan string, 10)
	tr := New(testIcon(t, 256), i18n.English, Actions{
		Open:      func() { clicks <- "open" },
		NewChat:   func() { clicks <- "new" },
		QuickAsk:  func() { clicks <- "quick" },
		OpenChat:  func(id string) { clicks <- "chat " + id },
		Stop:      func(w activity.Work) { clicks <- "stop " + w.Kind + " " + w.ID },
		SetPaused: func(p bool) { clicks <- fmt.Sprint("paused ", p) },
		Quit:      func() { clicks <- "quit" },
	})
	if Available() {
		t.Fatal("a private bus has no tray host")
	}
	end := tr.Start()
	defer end()
	at := time.Now().Add(time.Minute)
	st := State{Next: Next{Title: "tea", At: at, OK: true}, Model: "qwen3:4b",
		Running: []activity.Work{{Kind: activity.Reminder, ID: "cron:ab12", Title: "Tea"}},
		Recent:  []Chat{{ID: "s1", Title: "Plan the week"}, {ID: "s2", Title: "Soup"}}}
	tr.Set(i18n.English, st)
	conn, err := dbus.Connect(os.Getenv("DBUS_SESSION_BUS_ADDRESS"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	next := "Next: tea at " + at.Format("15:04")
	if at.Day() != time.Now().Day() {
		next = NextLabel(i18n.English, "tea", at, time.Now(), true, false)
	}
	want := []string{"Open Hearth", "New chat", "Quick ask…", "Recent chats", "Plan the week", "Soup", next,
		"Stop: reminder “Tea”", "Model: qwen3:4b", "Pause reminders", "Quit"}
	items := waitMenu(t, conn, want)
	// Updates are cheap: the same state again sends the host nothing; a new running
	// line sends that line's change, not the menu.
	if err := conn.AddMatchSignal(dbus.WithMatchInterface("com.canonical.dbusmenu")); err != nil {
		t.Fatal(err)
	}
	signals := make(chan *dbus.Signal, 100)
	conn.Signal(signals)
	for range 3 {
		tr.Set(i18n.English, st)
	}
	more := st
	more.Running = append(append([]activity.Work(nil), st.Running...), activity.Work{Kind: activity.Heartbeat, ID: "heartbeat"})
	tr.Set(i18n.English, more)
	waitMenu(t, conn, append(append(append([]string(nil), want[:7]...), "Stop: reminder “Tea”", "Stop: heartbeat check"), want[8:]...))
	// Read the signals until the new line's update came, and a moment more for any other.
	var changed []int32
	var drain <-chan time.Time
	for done := false; !done; {
		select {
		case sig := <-signals:
			if sig.Name == "com.canonical.dbusmenu.ItemsPropertiesUpdated" {
				for _, u := range sig.Body[0].([][]any) {
					changed = append(changed, u[0].(int32))
				}
				if drain == nil {
					drain = time.After(200 * time.Millisecond)
				}
			}
		case <-drain:
			done = true
		case <-time.After(10 * time.Second):
			t.Fatal("no item update for a new running line")
		}
	}
	conn.RemoveSignal(signals)
	// The new line is shown (visible, label, tooltip, enabled: a few updates of one item).
	slices.Sort(changed)
	if changed = slices.Compact(changed); len(changed) != 1 {
		t.Errorf("items updated for one new running line: %v", changed)
	}
	tr.Set(i18n.English, st)
	items = waitMenu(t, conn, want)
	obj := conn.Object(fmt.Sprintf("org.kde.StatusNotifierItem-%d-1", os.Getpid()), "/StatusNotifierItem/menu")
	click := func(label string) string {
		t.Helper()
		id, ok := items[label]
		if !ok {
			t.Fatalf("no entry %q in %v", label, items)
		}
		if err := obj.Call("com.canonical.dbusmenu.Event", 0, id, "clicked", dbus.MakeVariant(""), uint32(0)).Err; err != nil {
			t.Fatal(err)
		}
		select {
		case c := <-clicks:
			return c
		case <-time.After(5 * time.Second):
			t.Fatalf("click on %q did nothing", label)
		}
		return ""
	}
	for label, want := range map[string]string{"Open Hearth": "open", "New chat": "new", "Quick ask…": "quick",
		"Soup": "chat s2", "Stop: reminder “Tea”": "stop reminder cron:ab12", "Pause reminders": "paused true"} {
		if got := click(label); got != want {
			t.Errorf("%s: %q, want %q", label, got, want)
		}
	}
	// Pause shows Resume at once; the run ending and a new chat replace the lines.
	st.Paused, st.Running, st.Recent = true, nil, []Chat{{ID: "s3", Title: "Quick question"}}
	tr.Set(i18n.English, st)
	items = waitMenu(t, conn, []string{"Open Hearth", "New chat", "Quick ask…", "Recent chats", "Quick question",
		"Next: reminders paused", "Nothing running", "Model: qwen3:4b", "Resume reminders", "Quit"})
	// A change of the UI language rewords the menu at once.
	st.Paused = false
	tr.Set(i18n.Chinese, st)
	items = waitMenu(t, conn, []string{"打开 Hearth", "新对话", "快速提问…", "最近的对话", "Quick question",
		NextLabel(i18n.Chinese, "tea", at, time.Now(), true, false), "没有正在运行的任务", "模型：qwen3:4b", "暂停提醒", "退出"})
	if got := click("退出"); got != "quit" {
		t.Errorf("Quit: %q", got)
	}
	// The tooltip names the next reminder, in the language of the menu.
	var tip struct {
		Name  string
		Icons []struct {
			W, H int32
			Data []byte
		}
		Title, Desc string
	}
	v, err := conn.Object(fmt.Sprintf("org.kde.StatusNotifierItem-%d-1", os.Getpid()), "/StatusNotifierItem").
		GetProperty("org.kde.StatusNotifierItem.ToolTip")
	if err != nil {
		t.Fatal(err)
	}
	if err := dbus.Store([]any{v.Value()}, &tip); err != nil || !strings.HasPrefix(tip.Title, "Hearth — 下一个：tea，") {
		t.Errorf("tooltip %+v (%v)", tip, err)
	}
}

// waitMenu waits until the menu's visible labels are want, in order, and returns their ids.
func waitMenu(t *testing.T, conn *dbus.Conn, want []string) map[string]int32 {
	t.Helper()
	var labels []string
	deadline := time.Now().Add(5 * time.Second)
	for {
		items := menu(t, conn)
		labels = labels[:0]
		ids := map[string]int32{}
		for _, it := range items {
			labels = append(labels, it.label)
			ids[it.label] = it.id
		}
		if strings.Join(labels, "|") == strings.Join(want, "|") {
			return ids
		}
		if time.Now().After(deadline) {
			t.Fatalf("menu %q, want %q", labels, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func testIcon(t *testing.T, size int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}

func TestScaleIconAndLabels(t *testing.T) {
	small, err := png.Decode(bytes.NewReader(scaleIcon(testIcon(t, 1024), 64)))
	if err != nil || small.Bounds().Dx() != 64 {
		t.Errorf("scaled icon: %v %v", small, err)
	}
	now := time.Date(2026, 11, 23, 15, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		l         i18n.Locale
		at        time.Time
		ok, pause bool
		want      string
	}{
		{i18n.English, now.Add(100 * time.Minute), true, false, "Next: tea at 16:40"},
		{i18n.English, now.Add(18 * time.Hour), true, false, "Next: tea Tue 09:00"},
		{i18n.English, time.Time{}, false, false, "Next: no reminders"},
		{i18n.English, now, true, true, "Next: reminders paused"},
		{i18n.Chinese, now.Add(100 * time.Minute), true, false, "下一个：tea，今天 16:40"},
		{i18n.Chinese, now.Add(18 * time.Hour), true, false, "下一个：tea，周二 09:00"},
		{i18n.Chinese, time.Time{}, false, false, "下一个：没有提醒"},
	} {
		if got := NextLabel(c.l, "tea", c.at, now, c.ok, c.pause); got != c.want {
			t.Errorf("%s %v: %q, want %q", c.l, c.at, got, c.want)
		}
	}
}
