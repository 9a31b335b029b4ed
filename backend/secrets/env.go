package secrets

import (
	"os"
	"slices"
	"strings"
	"sync"
)

// Env is Hearth's environment as the process started, kept in memory so that the
// variables holding secrets can be dropped from the process environment once read.
// Everything in Hearth that reads a variable (the config's ${VAR} references, the
// environment handed to MCP servers and to exec's allowed keys) reads it here, so
// dropping a variable changes nothing for Hearth; it only takes the value out of
// the environment its children inherit and out of /proc/<pid>/environ, which a
// command running as root (or a bug in the non-dumpable guard) could read.
type Env struct {
	mu      sync.Mutex
	vars    map[string]string
	dropped map[string]bool
}

// CaptureEnv records the current environment.
func CaptureEnv() *Env {
	e := &Env{vars: map[string]string{}, dropped: map[string]bool{}}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			e.vars[k] = v
		}
	}
	return e
}

// Getenv is os.Getenv over the recorded environment.
func (e *Env) Getenv(k string) string { v, _ := e.LookupEnv(k); return v }

// LookupEnv is os.LookupEnv over the recorded environment.
func (e *Env) LookupEnv(k string) (string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	v, ok := e.vars[k]
	return v, ok
}

// minMaskLen keeps short values of dropped variables ("1", "true", "yes") from
// being masked in every output: a real credential is longer.
const minMaskLen = 8

// Values are the values of the dropped variables: the secrets to mask in output.
func (e *Env) Values() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]string, 0, len(e.dropped))
	for k := range e.dropped {
		if v := e.vars[k]; len(v) >= minMaskLen {
			out = append(out, v)
		}
	}
	return out
}

// Drop takes the named variables (and every variable whose name says it holds a
// secret, see SecretName) out of the process environment: unset for Go and C code,
// and overwritten in the block the kernel shows as /proc/<pid>/environ. Their values
// stay readable through Getenv. Drop may be called again as the config changes.
func (e *Env) Drop(names ...string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var now []string
	for k, v := range e.vars {
		if e.dropped[k] || v == "" {
			continue
		}
		if SecretName(k) || slices.Contains(names, k) {
			e.dropped[k] = true
			now = append(now, k)
		}
	}
	for _, k := range now {
		_ = os.Unsetenv(k)
	}
	if len(now) > 0 {
		scrubProcEnviron(now)
	}
}

// secretWords mark a variable that holds a credential by the usual naming
// (OPENAI_API_KEY, GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, PGPASSWORD, …). Hearth
// itself never needs such a variable in its own environment: a config that uses
// one names it as ${VAR} and reads it from Env.
var secretWords = []string{"API_KEY", "APIKEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL",
	"ACCESS_KEY", "PRIVATE_KEY", "AUTH_KEY"}

// SecretName reports whether a variable's name says it holds a secret.
func SecretName(name string) bool {
	u := strings.ToUpper(name)
	return slices.ContainsFunc(secretWords, func(w string) bool { return strings.Contains(u, w) })
}
