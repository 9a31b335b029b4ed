// Package secrets keeps API keys out of plain files where it can (docs/design/safety-defaults.md#secrets):
// in the OS keyring (Secret Service, macOS Keychain, Windows Credential
// Manager through github.com/zalando/go-keyring) when one answers, with every
// call behind a timeout because a missing or locked Secret Service can hang.
// The config then holds a reference, "${keyring:<name>}", instead of the key.
// Without a keyring the key stays in the config file, which is written 0600.
package secrets

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/zalando/go-keyring"
)

// Service is the keyring service name Hearth's entries are stored under.
const Service = "hearth"

// DefaultTimeout bounds one keyring call.
const DefaultTimeout = 3 * time.Second

// probeUser is looked up once to learn whether the keyring answers.
const probeUser = "hearth-probe"

// Errors.
var (
	ErrNotFound    = errors.New("not in the OS keyring")
	ErrUnavailable = errors.New("the OS keyring is not available")
)

// Keyring is an OS keyring: go-keyring's package functions (OSKeyring) or a
// test double.
type Keyring interface {
	Get(service, user string) (string, error)
	Set(service, user, secret string) error
	Delete(service, user string) error
}

type osKeyring struct{}

// OSKeyring is the system keyring through go-keyring (its mock after
// keyring.MockInit in tests).
func OSKeyring() Keyring { return osKeyring{} }

func (osKeyring) Get(service, user string) (string, error) { return keyring.Get(service, user) }
func (osKeyring) Set(service, user, secret string) error   { return keyring.Set(service, user, secret) }
func (osKeyring) Delete(service, user string) error        { return keyring.Delete(service, user) }

// Options configure a Store; the zero value uses the OS keyring.
type Options struct {
	Keyring Keyring
	// Timeout bounds each keyring call (default 3 s).
	Timeout time.Duration
	// LookupEnv reads the environment to find the session bus (nil: os.LookupEnv);
	// used only when Keyring is nil.
	LookupEnv func(string) (string, bool)
}

// Store reads and writes Hearth's keys in the keyring. It is safe for
// concurrent use. After a call fails or times out it stops using the keyring
// (Available reports false) so one hung D-Bus call costs one timeout.
type Store struct {
	kr      Keyring
	timeout time.Duration

	callMu sync.Mutex // one keyring call at a time (held by the calling goroutine)

	mu     sync.Mutex
	probed bool
	ok     bool
	cache  map[string]string
}

// New returns a Store; it touches the keyring only when first used.
func New(opts Options) *Store {
	if opts.Keyring == nil {
		opts.Keyring = osKeyringHere(opts.LookupEnv)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	return &Store{kr: opts.Keyring, timeout: opts.Timeout, cache: map[string]string{}}
}

// call runs f on its own goroutine and gives up after the timeout (the
// goroutine is left to finish on its own: a blocked D-Bus call cannot be
// interrupted).
func (s *Store) call(what string, f func() error) error {
	done := make(chan error, 1)
	go func() {
		s.callMu.Lock()
		defer s.callMu.Unlock()
		done <- f()
	}()
	t := time.NewTimer(s.timeout)
	defer t.Stop()
	select {
	case err := <-done:
		if errors.Is(err, keyring.ErrNotFound) {
			return ErrNotFound
		}
		return err
	case <-t.C:
		s.markDown()
		return fmt.Errorf("%s: the OS keyring did not answer within %v: %w", what, s.timeout, ErrUnavailable)
	}
}

func (s *Store) markDown() {
	s.mu.Lock()
	s.probed, s.ok = true, false
	s.mu.Unlock()
}

// Available reports whether the keyring answers (probed once).
func (s *Store) Available() bool {
	s.mu.Lock()
	if s.probed {
		defer s.mu.Unlock()
		return s.ok
	}
	s.mu.Unlock()
	err := s.call("probe", func() error { _, err := s.kr.Get(Service, probeUser); return err })
	ok := err == nil || errors.Is(err, ErrNotFound)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.probed {
		s.probed, s.ok = true, ok
	}
	return s.ok
}

// Get returns the key stored under name.
func (s *Store) Get(name string) (string, error) {
	s.mu.Lock()
	v, ok := s.cache[name]
	s.mu.Unlock()
	if ok {
		return v, nil
	}
	if !s.Available() {
		return "", fmt.Errorf("read key %s: %w (hint: set the key again; without a keyring it is kept in the config file)", name, ErrUnavailable)
	}
	err := s.call("read key "+name, func() error {
		var err error
		v, err = s.kr.Get(Service, name)
		return err
	})
	if errors.Is(err, ErrNotFound) {
		return "", fmt.Errorf("read key %s: %w (hint: set the key again in Settings)", name, ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("read key %s from the OS keyring: %w (hint: unlock the keyring, or set the key again)", name, err)
	}
	s.mu.Lock()
	s.cache[name] = v
	s.mu.Unlock()
	return v, nil
}

// Set stores key under name.
func (s *Store) Set(name, key string) error {
	if !s.Available() {
		return fmt.Errorf("store key %s: %w", name, ErrUnavailable)
	}
	if err := s.call("store key "+name, func() error { return s.kr.Set(Service, name, key) }); err != nil {
		return fmt.Errorf("store key %s in the OS keyring: %w", name, err)
	}
	s.mu.Lock()
	s.cache[name] = key
	s.mu.Unlock()
	return nil
}

// Delete removes the key stored under name; a missing key is no error.
func (s *Store) Delete(name string) error {
	s.mu.Lock()
	delete(s.cache, name)
	s.mu.Unlock()
	if !s.Available() {
		return nil
	}
	err := s.call("delete key "+name, func() error { return s.kr.Delete(Service, name) })
	if err != nil && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("delete key %s from the OS keyring: %w", name, err)
	}
	return nil
}

var refPattern = regexp.MustCompile(`^\$\{keyring:([A-Za-z0-9_.-]+)\}$`)

// Ref is the config value that stands for the key stored under name.
func Ref(name string) string { return "${keyring:" + name + "}" }

// ParseRef returns the name a config value refers to, if it is a keyring
// reference.
func ParseRef(v string) (name string, ok bool) {
	m := refPattern.FindStringSubmatch(strings.TrimSpace(v))
	if m == nil {
		return "", false
	}
	return m[1], true
}

// Resolve returns the key a config value stands for: the value itself, or
// the keyring's entry for a reference.
func (s *Store) Resolve(v string) (string, error) {
	name, ok := ParseRef(v)
	if !ok {
		return v, nil
	}
	return s.Get(name)
}
