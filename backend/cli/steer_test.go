package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adrg/xdg"

	"hearth/backend/internal/fakeollama"
	"hearth/backend/session"
)

// At a terminal a line typed while an answer streams is sent at once: "!" steers, a
// plain line queues, a command waits for the prompt. A stopped turn keeps what waited.
func TestREPLTypingWhileItWorks(t *testing.T) {
	startChat(t, fakeollama.Reply{Content: "I am slow", Hang: true})
	in, feed := io.Pipe()
	sigs := make(chan os.Signal, 1)
	var out, errb syncBuffer
	e := &env{info: testInfo, stdin: in, stdout: &out, stderr: &errb, getenv: os.Getenv,
		interrupts: func() (<-chan os.Signal, func()) { return sigs, func() {} }, typing: func() bool { return true }}
	done := make(chan int)
	go func() { done <- mainEnv(e, []string{"agent", "-s", "typed"}) }()
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s; stdout %q stderr %q", what, out.String(), errb.String())
			}
		}
	}
	_, _ = io.WriteString(feed, "talk to me\n")
	waitFor("the streamed text", func() bool { return strings.Contains(out.String(), "I am slow") })
	_, _ = io.WriteString(feed, "! look in docs/\n")
	waitFor("the steer", func() bool { return strings.Contains(errb.String(), "(steer waits: look in docs/)") })
	_, _ = io.WriteString(feed, "and then sum up\n/status\n")
	waitFor("the queued line", func() bool { return strings.Contains(errb.String(), "(queue waits: and then sum up)") })
	if strings.Contains(out.String(), "Model:") {
		t.Fatal("a command typed during the turn was answered before the prompt")
	}
	st := session.NewStore(filepath.Join(xdg.DataHome, "hearth", "sessions"), session.Options{})
	if list, err := st.LoadPending("typed"); err != nil || len(list) != 2 || list[0].Mode != session.ModeSteer || list[1].Text != "and then sum up" {
		t.Fatalf("saved while waiting: %+v %v", list, err)
	}
	sigs <- os.Interrupt // Ctrl-C stops the turn: what waited is kept, not sent
	waitFor("the kept lines", func() bool { return strings.Count(errb.String(), "Kept, not sent") == 2 })
	waitFor("the held command", func() bool { return strings.Contains(out.String(), "Model:") })
	_ = feed.Close()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d", code)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the REPL did not end at the end of input")
	}
	if list, _ := st.LoadPending("typed"); len(list) != 2 || !list[0].Held {
		t.Fatalf("kept after the stop: %+v", list)
	}
}
