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

// What the window words in its language: a slash reply comes whole with one catalog
// message a line, an error with its text and hints as codes and the server's words as
// the detail; the English (what the CLI prints) is the same messages rendered.
func TestRepliesAndErrorsCarryTheirCodes(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{{Status: 500, Error: "model requires more system memory than is available"}}})
	_, evs := h.send("s1", "/model")
	d := ofType[event.DeltaData](evs)
	if len(d) != 1 || len(d[0].Lines) != 2 || d[0].Lines[0].Code != "slash.model" || d[0].Lines[1].Code != "slash.model.usage" ||
		d[0].Text != i18n.Lines([]i18n.Message{{Code: d[0].Lines[0].Code, Args: d[0].Lines[0].Args}, {Code: d[0].Lines[1].Code, Args: d[0].Lines[1].Args}}) {
		t.Fatalf("/model reply %+v", d)
	}
	if zh := (i18n.Message{Code: d[0].Lines[0].Code, Args: d[0].Lines[0].Args}).In(i18n.Chinese); !strings.HasPrefix(zh, "模型：") {
		t.Errorf("/model in zh-CN: %q", zh)
	}

	res, evs := h.send("s1", "hello")
	e := ofType[event.ErrorData](evs)
	if res.Status != event.StatusError || len(e) != 1 || e[0].Text == nil || e[0].Text.Code != "error.ollama.noMemory" ||
		len(e[0].HintText) != 1 || e[0].HintText[0].Code != "error.ollama.noMemory.hint" {
		t.Fatalf("error %+v", e)
	}
	if !strings.Contains(e[0].Detail, "more system memory") || !strings.Contains(e[0].Message, e[0].Detail) ||
		!strings.HasPrefix(e[0].Message, (i18n.Message{Code: e[0].Text.Code, Args: e[0].Text.Args}).String()) || e[0].Hint != (i18n.Message{Code: e[0].HintText[0].Code, Args: e[0].HintText[0].Args}).String() {
		t.Errorf("error English %q hint %q detail %q", e[0].Message, e[0].Hint, e[0].Detail)
	}
}

// Plain is a reply of text the catalog cannot word (a list of changes, a diff): the
// same in every language.
func Plain(text string) Reply { return Reply{i18n.M("slash.text", "text", text)} }
