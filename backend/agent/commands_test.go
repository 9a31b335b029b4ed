package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/internal/fakeollama"
)

func TestExtraSlashCommands(t *testing.T) {
	var got []string
	h := newHarness(t, fakeollama.Script{}, func(o *Options) {
		o.Commands = map[string]Command{
			"remember": {Help: i18n.M("slash.help.remember"), Run: func(_ context.Context, id, arg string) (Reply, error) {
				got = append(got, id+":"+arg)
				return Plain("Remembered."), nil
			}},
			"fail": {Help: i18n.M("slash.text", "text", "  /fail           always fails"), Run: func(context.Context, string, string) (Reply, error) {
				return nil, errors.New("broken")
			}},
		}
	})
	res, evs := h.send("s1", "/remember the cat is called Miso")
	if res.Status != event.StatusOK || res.Final != "Remembered." || text(evs) != "Remembered." {
		t.Errorf("/remember: %+v", res)
	}
	if len(got) != 1 || got[0] != "s1:the cat is called Miso" {
		t.Errorf("command saw %q", got)
	}
	res, _ = h.send("s1", "/help")
	if !strings.Contains(res.Final, i18n.M("slash.help.remember").String()+"\n"+i18n.M("slash.help.help").String()) || !strings.Contains(res.Final, "/fail") {
		t.Errorf("/help:\n%s", res.Final)
	}
	res, _ = h.send("s1", "/fail")
	if res.Status != event.StatusError || res.Err == nil {
		t.Errorf("/fail: %+v", res)
	}
	if len(h.fake.ChatRequests()) != 0 {
		t.Error("a command reached the model")
	}
}
