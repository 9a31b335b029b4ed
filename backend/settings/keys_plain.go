package settings

import (
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"strings"

	"hearth/backend/config"
	"hearth/backend/keymask"
	keystore "hearth/backend/secrets"
)

// API keys written in config.json as they are: typed in by hand,
// or saved while no OS keyring answered. Hearth finds them and says so
// (`hearth status`, the Settings view) but never moves one on its own: a
// config.json synced between machines must not lose its key behind the
// user's back. The user moves a key with MoveKeyToKeyring.

// PlainKey is one API key stored in plain text in config.json.
type PlainKey struct {
	// Provider is the name SetAPIKey takes: "openai", "custom.<name>" or "web.search".
	Provider string `json:"provider"`
	// Key is where it is in config.json, e.g. "providers.openai.apiKey".
	Key string `json:"key"`
}

// PlainKeyReport says which API keys sit in config.json in plain text and
// what can be done about them.
type PlainKeyReport struct {
	Plain []PlainKey `json:"plain"`
	// Keyring: the OS keyring answers, so the keys can move there. It is asked
	// only when Plain is not empty (false otherwise).
	Keyring bool `json:"keyring"`
	// ConfigFile is the path of config.json.
	ConfigFile string `json:"configFile"`
	// FileMode is config.json's permission bits ("0600"; "" when there is no file);
	// Private says that only its owner can read it.
	FileMode string `json:"fileMode"`
	Private  bool   `json:"private"`
	// Error says why config.json could not be read (nothing else is then known).
	Error string `json:"error,omitempty"`
}

// keyField is a place in config.json that holds an API key.
type keyField struct {
	provider string
	path     []string
}

func (f keyField) dotted() string { return strings.Join(f.path, ".") }

// keyFields lists the key fields SetAPIKey knows, for the providers the file has.
func keyFields(raw *config.Raw) []keyField {
	fs := []keyField{{config.ProviderOpenAI, []string{"providers", "openai", "apiKey"}}}
	for _, name := range raw.Members("providers", "custom") {
		fs = append(fs, keyField{"custom." + name, []string{"providers", "custom", name, "apiKey"}})
	}
	return append(fs, keyField{"web.search", []string{"tools", "web", "search", "apiKey"}})
}

// anyRef matches a "${…}" reference anywhere in a value: one that names an
// environment variable or the keyring keeps the key out of the file.
var anyRef = regexp.MustCompile(`\$\{(keyring:[^}]*|[A-Za-z_][A-Za-z0-9_]*)\}`)

// isPlainKey reports whether a config value, as written in the file, is a key
// itself: not empty and no reference.
func isPlainKey(v string) bool {
	v = strings.TrimSpace(v)
	return v != "" && !anyRef.MatchString(v)
}

// PlainKeys reports the API keys that config.json holds in plain text (the
// file as it is on disk now, not as loaded).
func (k *Keys) PlainKeys() PlainKeyReport {
	path := k.s.Paths().ConfigFile
	rep := PlainKeyReport{Plain: []PlainKey{}, ConfigFile: path}
	if fi, err := os.Stat(path); err == nil {
		rep.FileMode = fmt.Sprintf("%04o", fi.Mode().Perm())
		rep.Private = fi.Mode().Perm()&0o077 == 0
	}
	raw, err := config.ReadRaw(path)
	if err != nil {
		rep.Error = err.Error()
		return rep
	}
	for _, f := range keyFields(raw) {
		if v, ok := raw.String(f.path...); ok && isPlainKey(v) {
			rep.Plain = append(rep.Plain, PlainKey{Provider: f.provider, Key: f.dotted()})
		}
	}
	if len(rep.Plain) > 0 {
		rep.Keyring = k.store.Available()
	}
	return rep
}

// MoveKeyToKeyring moves the API key of provider ("openai", "custom.<name>",
// "web.search"), written in config.json in plain text, into the OS keyring;
// config.json then holds "${keyring:<provider>}". The file is rewritten
// through config.Save (atomic, 0600, unknown keys and ${VAR} references kept)
// and only after the keyring has the key: when the keyring fails, config.json
// is left as it was. A config.json with errors is refused before anything is
// written.
func (k *Keys) MoveKeyToKeyring(provider string) error {
	s := k.s
	s.mu.Lock()
	path, old := s.paths.ConfigFile, s.cfg
	defer func() {
		now := s.cfg
		s.mu.Unlock()
		if now != old {
			s.report()
		}
	}()
	fail := func(err error) error { return fmt.Errorf("move the %s key to the OS keyring: %w", provider, err) }
	if s.configErr != nil {
		return fail(fmt.Errorf("%w (hint: fix config.json by hand first; Hearth will not rewrite it)", s.configErr))
	}
	cfg, _, err := config.Load(path, s.getenv)
	if err != nil {
		return fail(fmt.Errorf("%w (hint: fix config.json by hand first; Hearth will not rewrite it)", err))
	}
	raw, err := config.ReadRaw(path)
	if err != nil {
		return fail(err)
	}
	var field *keyField
	for _, f := range keyFields(raw) {
		if f.provider == provider {
			field = &f
			break
		}
	}
	if field == nil {
		return fail(fmt.Errorf("config.json has no such key (hint: use one of %s)", providerNames(keyFields(raw))))
	}
	key, _ := raw.String(field.path...)
	if !isPlainKey(key) {
		return fail(fmt.Errorf("%s is not a key written in plain text (nothing to move)", field.dotted()))
	}
	_, set, err := apiKeyField(cfg, provider)
	if err != nil {
		return fail(err)
	}
	if !k.store.Available() {
		return fail(fmt.Errorf("%w (hint: the key stays in config.json, which only you can read; unlock or start your keyring, e.g. GNOME Keyring or KWallet, and try again)", keystore.ErrUnavailable))
	}
	undo, err := k.keyringPut(provider, strings.TrimSpace(key))
	if err != nil {
		return fail(fmt.Errorf("%w (hint: config.json was not changed; unlock the keyring and try again)", err))
	}
	set(keystore.Ref(provider))
	if err := cfg.Save(path); err != nil {
		undo()
		return fail(err)
	}
	s.reloadLocked()
	slog.Info("API key moved to the OS keyring", "provider", provider)
	return nil
}

func providerNames(fs []keyField) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = fmt.Sprintf("%q", f.provider)
	}
	return strings.Join(names, ", ")
}

// toKeyring is SaveSettings' part of keeping keys out of config.json: a key typed into
// the Settings view goes to the OS keyring when one answers (n then holds
// "${keyring:<provider>}"), as SetAPIKey does. Keys n keeps unchanged from old
// are left where they are; only (SetAPIKey) names the one key to look at, which
// moves even when typed in again. undo takes the keyring entries back if the save
// fails; done removes the entries old referred to that n no longer does.
func (k *Keys) toKeyring(old, n *config.Config, only string) (undo, done func(), err error) {
	var undos []func()
	undo = func() {
		for _, u := range undos {
			u()
		}
	}
	providers := []string{config.ProviderOpenAI, "web.search"}
	for name := range n.Providers.Custom {
		providers = append(providers, "custom."+name)
	}
	for _, p := range providers {
		get, set, err := apiKeyField(n, p)
		if err != nil {
			return nil, nil, err
		}
		before := ""
		if oldGet, _, err := apiKeyField(old, p); err == nil {
			before = oldGet() // a custom provider new in n has none
		}
		v := strings.TrimSpace(get())
		if (only != "" && p != only) || (v == before && only == "") || !isPlainKey(v) || !k.store.Available() {
			continue
		}
		u, err := k.keyringPut(p, v)
		if err != nil {
			undo()
			return nil, nil, fmt.Errorf("store the %s key in the OS keyring: %w (hint: nothing was saved; unlock the keyring and save again)", p, err)
		}
		undos = append(undos, u)
		set(keystore.Ref(p))
	}
	done = func() {
		now := map[string]bool{}
		for _, v := range keymask.Secrets(n) {
			if name, ok := keystore.ParseRef(v); ok {
				now[name] = true
			}
		}
		for _, v := range keymask.Secrets(old) {
			if name, ok := keystore.ParseRef(v); ok && !now[name] {
				if err := k.store.Delete(name); err != nil {
					slog.Warn("old key left in the OS keyring", "name", name, "err", err)
				}
			}
		}
	}
	return undo, done, nil
}
