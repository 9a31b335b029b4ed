package chat

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/adrg/xdg"

	"hearth/backend/i18n"
	"hearth/backend/llm"
	"hearth/backend/session"
	"hearth/backend/settings"
	"hearth/backend/tools"
)

// noMemory is a memory service with nothing in it.
type noMemory struct{}

func (noMemory) Tools() []tools.Tool                                { return nil }
func (noMemory) Recall(context.Context, string, string, int) string { return "" }
func (noMemory) AfterRun(string, int, int)                          {}
func (noMemory) ConsolidateAll(context.Context, string) error       { return nil }
func (noMemory) TakeFailure(string) error                           { return nil }
func (noMemory) Remember(string) (i18n.Message, error)              { return i18n.Message{}, nil }
func (noMemory) MemoryCommand(context.Context, string) (i18n.Message, error) {
	return i18n.Message{}, nil
}

// noKeys hides nothing.
type noKeys struct{}

func (noKeys) Masker() *tools.Masker { return nil }
func (noKeys) Mask(s string) string  { return s }

func newChat(t *testing.T) *Service {
	t.Helper()
	root := t.TempDir()
	t.Cleanup(xdg.Reload)
	for k, v := range map[string]string{"HOME": "home", "XDG_CONFIG_HOME": "config", "XDG_DATA_HOME": "data", "XDG_STATE_HOME": "state"} {
		t.Setenv(k, filepath.Join(root, v))
	}
	xdg.Reload()
	st := settings.Open(settings.Options{Getenv: func(string) string { return "" }})
	s, err := New(Options{Settings: st, Keys: noKeys{}, Memory: noMemory{},
		Store:   session.NewStore(filepath.Join(root, "sessions"), session.Options{}),
		Resolve: func(string) (llm.Provider, string, error) { return nil, "", errors.New("no models here") }})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A service built after the chat offers its tools with AddSource: they are in the
// main registry at once (a helper's registry leaves out cron and message), and
// collected again after a settings change.
func TestAddSourceOffersTheToolsOfALaterService(t *testing.T) {
	s := newChat(t)
	if _, ok := s.registry.Get("cron"); ok {
		t.Fatal("cron before its source")
	}
	cron := tools.New(tools.Def[struct{}]{Name: "cron", Short: "Reminders.", Description: "Reminders.",
		Run: func(context.Context, struct{}) (tools.Result, error) { return tools.Result{}, nil }})
	if err := s.AddSource(func() ([]tools.Tool, error) { return []tools.Tool{cron}, nil }); err != nil {
		t.Fatal(err)
	}
	s.Apply()
	if _, ok := s.registry.Get("cron"); !ok {
		t.Error("cron is not offered")
	}
	if _, ok := s.subTools.Get("cron"); ok {
		t.Error("helpers get cron")
	}
	if err := s.AddSource(func() ([]tools.Tool, error) { return nil, errors.New("broken source") }); err == nil {
		t.Error("a failing source is not reported")
	}
}
