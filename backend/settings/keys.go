package settings

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"hearth/backend/config"
	keystore "hearth/backend/secrets"
)

// Keys are the API keys of the providers and of web search: where they are kept
// (the OS keyring, an environment variable or config.json). Hiding them in what
// Hearth shows is backend/keymask's. It touches no keyring until a key is read or
// written.
type Keys struct {
	s     *Service
	store *keystore.Store

	mu      sync.Mutex
	version int // counts keyring writes: a key replaced under the same reference
}

func newKeys(s *Service, kr keystore.Keyring) *Keys {
	return &Keys{s: s, store: keystore.New(keystore.Options{Keyring: kr})}
}

// Resolve is the key a configured value stands for (a keyring reference is read
// from the keyring).
func (k *Keys) Resolve(v string) (string, error) { return k.store.Resolve(v) }

// Storage says where SetAPIKey puts a key: "keyring" when the OS keyring answers,
// else "config" (the config file, written 0600).
func (k *Keys) Storage() string {
	if k.store.Available() {
		return "keyring"
	}
	return "config"
}

// SetAPIKey sets the API key of a provider ("openai", "custom.<name>") or of web
// search ("web.search"). A "${ENV}" reference is written as is; any other key goes to
// the OS keyring (the config holds "${keyring:<provider>}") or, without one, into the
// config file. An empty key removes it.
func (k *Keys) SetAPIKey(provider, key string) error {
	var undo, done func()
	err := k.s.Update(func(c *config.Config) error {
		_, set, err := apiKeyField(c, provider)
		if err != nil {
			return err
		}
		old := c.Clone()
		set(strings.TrimSpace(key))
		undo, done, err = k.toKeyring(old, c, provider)
		return err
	})
	if err != nil {
		if undo != nil {
			undo()
		}
		return err
	}
	done()
	return nil
}

// apiKeyField finds the config value holding provider's key.
func apiKeyField(cfg *config.Config, provider string) (get func() string, set func(string), err error) {
	switch {
	case provider == config.ProviderOpenAI:
		o := &cfg.Providers.OpenAI
		return func() string { return o.APIKey }, func(v string) { o.APIKey = v }, nil
	case provider == "web.search":
		w := &cfg.Tools.Web.Search
		return func() string { return w.APIKey }, func(v string) { w.APIKey = v }, nil
	case strings.HasPrefix(provider, "custom."):
		name := strings.TrimPrefix(provider, "custom.")
		if _, ok := cfg.Providers.Custom[name]; !ok {
			return nil, nil, fmt.Errorf("set API key: providers.custom.%s does not exist (hint: add it with its apiBase first)", name)
		}
		return func() string { return cfg.Providers.Custom[name].APIKey },
			func(v string) { c := cfg.Providers.Custom[name]; c.APIKey = v; cfg.Providers.Custom[name] = c }, nil
	}
	return nil, nil, errors.New(`set API key: unknown provider ` + fmt.Sprintf("%q", provider) +
		` (hint: use "openai", "custom.<name>" or "web.search")`)
}

// Version changes whenever a key in the keyring is written: a provider built with
// the old key must be built again although the config's reference stays the same.
func (k *Keys) Version() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.version
}

// keyringPut stores key under name and returns how to take that back: the entry it
// replaced comes back, or the new one goes.
func (k *Keys) keyringPut(name, key string) (undo func(), err error) {
	prev, gerr := k.store.Get(name)
	had := gerr == nil
	if err := k.store.Set(name, key); err != nil {
		return nil, err
	}
	k.bump()
	return func() {
		defer k.bump()
		var err error
		if had {
			err = k.store.Set(name, prev)
		} else {
			err = k.store.Delete(name)
		}
		if err != nil {
			slog.Warn("keyring entry not restored", "name", name, "err", err)
		}
	}, nil
}

func (k *Keys) bump() {
	k.mu.Lock()
	k.version++ // the masker is made again with the key now in the keyring
	k.mu.Unlock()
}
