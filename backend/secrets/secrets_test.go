package secrets

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

// The keyring path through go-keyring's own mock (what OSKeyring calls).
func TestKeyringMock(t *testing.T) {
	keyring.MockInit()
	s := New(Options{Keyring: OSKeyring()})
	if !s.Available() {
		t.Fatal("mock keyring not available")
	}
	if _, err := s.Get("openai"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing key: %v", err)
	}
	if err := s.Set("openai", "sk-mock-1"); err != nil {
		t.Fatal(err)
	}
	if got, _ := keyring.Get(Service, "openai"); got != "sk-mock-1" {
		t.Errorf("keyring holds %q", got)
	}
	// A fresh Store (a restart) reads it back from the keyring.
	if got, err := New(Options{Keyring: OSKeyring()}).Resolve(Ref("openai")); err != nil || got != "sk-mock-1" {
		t.Errorf("resolve: %q %v", got, err)
	}
	if got, _ := s.Resolve("plain"); got != "plain" {
		t.Errorf("plain value: %q", got)
	}
	if err := s.Delete("openai"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete("openai"); err != nil {
		t.Errorf("deleting twice: %v", err)
	}
	if _, err := New(Options{Keyring: OSKeyring()}).Get("openai"); !errors.Is(err, ErrNotFound) {
		t.Errorf("after delete: %v", err)
	}
}

func TestKeyringBroken(t *testing.T) {
	keyring.MockInitWithError(errors.New("org.freedesktop.secrets was not provided by any .service files"))
	s := New(Options{Keyring: OSKeyring()})
	if s.Available() {
		t.Fatal("a failing keyring is available")
	}
	if err := s.Set("openai", "k"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("set: %v", err)
	}
	if _, err := s.Resolve(Ref("openai")); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "hint") {
		t.Errorf("resolve: %v", err)
	}
}

// hung is a keyring whose calls never return (a Secret Service that hangs).
type hung struct{ block chan struct{} }

func (h hung) Get(string, string) (string, error) { <-h.block; return "", nil }
func (h hung) Set(string, string, string) error   { <-h.block; return nil }
func (h hung) Delete(string, string) error        { <-h.block; return nil }

func TestTimeout(t *testing.T) {
	h := hung{block: make(chan struct{})}
	defer close(h.block)
	s := New(Options{Keyring: h, Timeout: 100 * time.Millisecond})
	start := time.Now()
	if s.Available() {
		t.Fatal("a hung keyring is available")
	}
	// Later calls do not wait again.
	if _, err := s.Get("x"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("get: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v", d)
	}
}

func TestRefs(t *testing.T) {
	if n, ok := ParseRef(Ref("custom.groq")); !ok || n != "custom.groq" {
		t.Errorf("%q %v", n, ok)
	}
	for _, v := range []string{"", "sk-1", "${OPENAI_API_KEY}", "${keyring:}", "x${keyring:a}"} {
		if _, ok := ParseRef(v); ok {
			t.Errorf("%q parsed as a keyring reference", v)
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	keyring.MockInit()
	s := New(Options{Keyring: OSKeyring()})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := string(rune('a' + i))
			if err := s.Set(name, "v"+name); err != nil {
				t.Error(err)
			}
			if v, err := s.Get(name); err != nil || v != "v"+name {
				t.Errorf("%s: %q %v", name, v, err)
			}
		}()
	}
	wg.Wait()
}
