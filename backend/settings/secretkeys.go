package settings

import (
	"errors"
	"strings"

	keystore "hearth/backend/secrets"
)

// ErrNoKeyring is returned by SetSecret when no OS keyring answers: a secret that
// must never be written to the config file (a bot token) has nowhere to go.
var ErrNoKeyring = keystore.ErrUnavailable

// Secret reads a secret kept only in the keyring (a channel's bot token); "" and
// no error when none is stored.
func (k *Keys) Secret(name string) (string, error) {
	v, err := k.store.Get(name)
	if errors.Is(err, keystore.ErrNotFound) {
		return "", nil
	}
	return v, err
}

// SetSecret stores a secret in the keyring only, never in config.json ("" removes
// it). The key masker learns of it at once.
func (k *Keys) SetSecret(name, value string) error {
	value = strings.TrimSpace(value)
	defer k.bump()
	if value == "" {
		return k.store.Delete(name)
	}
	return k.store.Set(name, value)
}
