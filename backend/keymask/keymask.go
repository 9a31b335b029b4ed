// Package keymask hides the API keys Hearth knows in everything it shows, logs or
// writes: tool results, the model's streamed reply, session lines, approval cards,
// audit entries and errors. It is its own thing, built once by the composition root
// and handed to each service that writes what a key could end up in; the settings
// only store the keys.
package keymask

import (
	"os"
	"sync"

	"hearth/backend/config"
	keystore "hearth/backend/secrets"
	"hearth/backend/tools"
)

// Options say where the keys are. Config is required.
type Options struct {
	// Config is the current config (the settings service's).
	Config func() *config.Config
	// Resolve reads a keyring reference ("${keyring:openai}"); nil leaves
	// references unresolved (nothing to mask for them).
	Resolve func(ref string) (string, error)
	// Version changes whenever a key in the keyring is written: the reference in
	// the config stays the same, the key behind it does not.
	Version func() int
	// Env holds the secret variables dropped from the process environment
	// (GITHUB_TOKEN and the like): they are masked too, and exec reads the
	// environment through it. Nil: os.LookupEnv, nothing more to mask.
	Env *keystore.Env
}

// Keys hides every configured key. It asks no keyring until the first Mask (starting
// Hearth reads no key) and makes its masker again only after the config or a
// keyring entry changed. Safe for concurrent use.
type Keys struct {
	opts Options

	mu      sync.Mutex
	masker  *tools.Masker
	own     *tools.Masker  // the configured keys alone, without the dropped variables
	from    *config.Config // the config masker was made from
	version int            // and the keyring's version
}

// New returns the masker of the keys opts point to.
func New(opts Options) *Keys { return &Keys{opts: opts} }

// Masker is the current masker (made again after a key changed: the chat service
// hands the new one to the tool registries as a run starts).
func (k *Keys) Masker() *tools.Masker {
	cfg, version := k.opts.Config(), 0
	if k.opts.Version != nil {
		version = k.opts.Version()
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.masker != nil && k.from == cfg && k.version == version {
		return k.masker
	}
	vals := Secrets(cfg)
	if cfg.Channels.Telegram.Enabled { // the bot token is never in the config: only in the keyring
		vals = append(vals, keystore.Ref(config.TelegramTokenKey))
	}
	for i, v := range vals {
		if _, isRef := keystore.ParseRef(v); isRef {
			vals[i] = ""
			if k.opts.Resolve != nil {
				vals[i], _ = k.opts.Resolve(v) // unreadable: nothing to mask
			}
		}
	}
	k.own = tools.NewMasker(vals...)
	if k.opts.Env != nil {
		vals = append(vals, k.opts.Env.Values()...)
	}
	k.masker, k.from, k.version = tools.NewMasker(vals...), cfg, version
	return k.masker
}

// Mask hides every known key in s.
func (k *Keys) Mask(s string) string { return k.Masker().Mask(s) }

// LookupEnv is exec's view of Hearth's environment: a variable holding one of the
// configured keys is never passed to a command, even when tools.exec.allowedEnvKeys
// names it. Other secret-looking variables (GITHUB_TOKEN) are passed when that list
// names them: the user asked for it, and their values are masked in the output.
func (k *Keys) LookupEnv(name string) (string, bool) {
	lookup := os.LookupEnv
	if k.opts.Env != nil {
		lookup = k.opts.Env.LookupEnv
	}
	v, ok := lookup(name)
	k.Masker()
	k.mu.Lock()
	own := k.own
	k.mu.Unlock()
	if ok && v != "" && own.Mask(v) != v {
		return "", false
	}
	return v, ok
}

// Secrets are the configured values that are keys, as written (a keyring reference
// stays one): the providers' and web search's API keys, every MCP header value and
// the MCP env values under secret-looking names.
func Secrets(cfg *config.Config) []string {
	out := []string{cfg.Providers.OpenAI.APIKey, cfg.Tools.Web.Search.APIKey}
	for _, c := range cfg.Providers.Custom {
		out = append(out, c.APIKey)
	}
	for _, c := range cfg.Tools.MCPServers {
		for _, v := range c.Headers {
			out = append(out, v)
		}
		for k, v := range c.Env {
			if keystore.SecretName(k) {
				out = append(out, v)
			}
		}
	}
	return out
}
