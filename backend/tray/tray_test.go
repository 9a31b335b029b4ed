package tray

import (
	"bufio"
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

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
	obj := conn.Object(fmt.Sprintf("org.kde.StatusNotifierItem-%d-1", os.Getpid()), "/StatusNotifierItem/menu")
	var rev uint32
	var layout struct {
		ID       int32
		Props    map[string]dbus.Variant
		Children []dbus.Variant
	}
	if err := obj.Call("com.canonical.dbusmenu.GetLayout", 0, int32(0), int32(-1), []string{}).Store(&rev, &layout); err != nil {
		t.Fatalf("GetLayout: %v", err)
	}
	var items []item
	for _, c := range layout.Children {
		f := c.Value().([]any)
		props := f[1].(map[string]dbus.Variant)
		label, _ := props["label"].Value().(string)
		if label != "" {
			items = append(items, item{f[0].(int32), label})
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
		SetPaused: func(p bool) { clicks <- fmt.Sprint("paused ", p) },
		Quit:      func() { clicks <- "quit" },
	})
	if Available() {
		t.Fatal("a private bus has no tray host")
	}
	end := tr.Start()
	defer end()
	tr.SetNext("Next: tea at 16:40")
	conn, err := dbus.Connect(os.Getenv("DBUS_SESSION_BUS_ADDRESS"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var items []item
	deadline := time.Now().Add(5 * time.Second)
	for {
		items = menu(t, conn)
		if len(items) == 5 && items[2].label == "Next: tea at 16:40" || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	var labels []string
	for _, it := range items {
		labels = append(labels, it.label)
	}
	want := []string{"Open Hearth", "New chat", "Next: tea at 16:40", "Pause reminders", "Quit"}
	if strings.Join(labels, "|") != strings.Join(want, "|") {
		t.Fatalf("menu %q, want %q", labels, want)
	}
	obj := conn.Object(fmt.Sprintf("org.kde.StatusNotifierItem-%d-1", os.Getpid()), "/StatusNotifierItem/menu")
	click := func(i int) string {
		t.Helper()
		if err := obj.Call("com.canonical.dbusmenu.Event", 0, items[i].id, "clicked", dbus.MakeVariant(""), uint32(0)).Err; err != nil {
			t.Fatal(err)
		}
		select {
		case c := <-clicks:
			return c
		case <-time.After(5 * time.Second):
			t.Fatalf("click on %q did nothing", items[i].label)
		}
		return ""
	}
	if got := click(0); got != "open" {
		t.Errorf("Open: %q", got)
	}
	if got := click(1); got != "new" {
		t.Errorf("New chat: %q", got)
	}
	if got := click(3); got != "paused true" {
		t.Errorf("Pause: %q", got)
	}
	time.Sleep(50 * time.Millisecond)
	if l := menu(t, conn)[3].label; l != "Resume reminders" {
		t.Errorf("after pause the entry reads %q", l)
	}
	// A change of the UI language rewords the menu at once.
	tr.SetLocale(i18n.Chinese)
	tr.SetNext(NextLabel(i18n.Chinese, "tea", time.Now(), time.Now(), true, false))
	time.Sleep(50 * time.Millisecond)
	labels = nil
	for _, it := range menu(t, conn) {
		labels = append(labels, it.label)
	}
	if want := []string{"打开 Hearth", "新对话", "下一个：tea，今天 " + time.Now().Format("15:04"), "恢复提醒", "退出"}; strings.Join(labels, "|") != strings.Join(want, "|") {
		t.Errorf("zh-CN menu %q, want %q", labels, want)
	}
	if got := click(4); got != "quit" {
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
	if err := dbus.Store([]any{v.Value()}, &tip); err != nil || !strings.HasPrefix(tip.Title, "Hearth — 下一个：tea，今天 ") {
		t.Errorf("tooltip %+v (%v)", tip, err)
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
