package core

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"

	"hearth/backend/approval"
	"hearth/backend/audit"
	"hearth/backend/config"
	keystore "hearth/backend/secrets"
	"hearth/backend/tools"
)

// hitl is the human in the loop: the approval gate (F-APPROVAL), the audit
// log (F-AUDIT) and the key store with the Masker built from it (F-SECRETS).
// It is made in Open and touches no file or keyring until used.
type hitl struct {
	gate    *approval.Gate
	audit   *audit.Log
	secrets *keystore.Store

	mu       sync.RWMutex
	masker   *tools.Masker
	registry *tools.Registry // the agent's, once built: it gets a new Masker when a key changes
}

// openHITL builds the gate, the audit log and the key store; Open calls it
// once the paths are known.
func (s *Service) openHITL(kr keystore.Keyring) {
	h := &hitl{secrets: keystore.New(keystore.Options{Keyring: kr})}
	h.gate = approval.New(approval.Options{Rules: s.approvalRules, Grant: s.grantAlways, Workspace: s.paths.Workspace, Mask: h.mask,
		Sandbox: h.sandboxNote})
	h.audit = audit.New(audit.Options{Dir: s.paths.AuditDir, Mask: h.mask,
		OnError: func(err error) { slog.Warn("audit log not written", "err", err) }})
	s.hitl = h
}

// mask hides every known key in s.
func (h *hitl) mask(s string) string {
	h.mu.RLock()
	m := h.masker
	h.mu.RUnlock()
	return m.Mask(s)
}

// isSecret reports whether v holds a known key.
func (h *hitl) isSecret(v string) bool { return v != "" && h.mask(v) != v }

// lookupEnv is exec's view of Hearth's environment: a variable holding a key
// is never passed to a command, even when tools.exec.allowedEnvKeys names it.
func (h *hitl) lookupEnv(k string) (string, bool) {
	v, ok := os.LookupEnv(k)
	if ok && h.isSecret(v) {
		return "", false
	}
	return v, ok
}

// refreshMasker rebuilds the Masker from the configured keys (resolving
// keyring references) and hands it to the registry. The caller holds s.mu.
func (h *hitl) refreshMasker(cfg *config.Config) *tools.Masker {
	vals := secrets(cfg)
	for i, v := range vals {
		if _, isRef := keystore.ParseRef(v); isRef {
			vals[i], _ = h.secrets.Resolve(v) // unreadable: nothing to mask
		}
	}
	m := tools.NewMasker(vals...)
	h.mu.Lock()
	h.masker = m
	reg := h.registry
	h.mu.Unlock()
	if reg != nil {
		reg.SetMasker(m)
	}
	return m
}

// currentMasker is the masker of the configured keys (keyring keys resolved).
func (h *hitl) currentMasker() *tools.Masker {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.masker
}

// sandboxNote is what the named tool's calls may do once allowed (exec's sandbox).
func (h *hitl) sandboxNote(tool string) string {
	h.mu.RLock()
	reg := h.registry
	h.mu.RUnlock()
	if reg == nil {
		return ""
	}
	t, ok := reg.Get(tool)
	if n, is := t.(interface{ SandboxNote() string }); ok && is {
		return n.SandboxNote()
	}
	return ""
}

func (h *hitl) setRegistry(r *tools.Registry) {
	h.mu.Lock()
	h.registry = r
	h.mu.Unlock()
}

// approvalRules are the gate's rules, read from the config at every call.
func (s *Service) approvalRules() approval.Rules {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.cfg.Tools.Approval
	a.Always, a.Ask, a.Never = slices.Clone(a.Always), slices.Clone(a.Ask), slices.Clone(a.Never)
	return approval.RulesFrom(a)
}

// grantAlways adds tool to tools.approval.always and saves the config.
func (s *Service) grantAlways(tool string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := &s.cfg.Tools.Approval
	if slices.Contains(a.Always, tool) {
		return nil
	}
	old := a.Always
	a.Always = append(slices.Clone(old), tool)
	if err := s.cfg.Save(s.paths.ConfigFile); err != nil {
		a.Always = old
		return err
	}
	return nil
}

// Approve answers a tool call that waits for approval (the approval event
// with state "requested"): once, for this chat, always (saved to
// tools.approval.always) or deny.
func (s *Service) Approve(runID, callID string, decision approval.Decision) error {
	return s.hitl.gate.Approve(runID, callID, decision)
}

// PendingApprovals lists the tool calls waiting for the user, oldest first.
// They live in memory: after a restart a continued run asks again.
func (s *Service) PendingApprovals() []approval.Pending {
	return s.hitl.gate.Pendings()
}

// ApprovalMode is tools.approval.mode: "all", "risky" or "ask".
func (s *Service) ApprovalMode() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg.Tools.Approval.Mode
}

// SetApprovalMode changes tools.approval.mode and saves the config; it applies
// to the next tool call.
func (s *Service) SetApprovalMode(mode string) error {
	m, err := approval.ParseMode(mode)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.cfg.Tools.Approval.Mode
	s.cfg.Tools.Approval.Mode = string(m)
	if err := s.cfg.Save(s.paths.ConfigFile); err != nil {
		s.cfg.Tools.Approval.Mode = old
		return fmt.Errorf("set approval mode: %w", err)
	}
	return nil
}

// ApprovalRules returns a copy of tools.approval (mode and per-tool overrides).
func (s *Service) ApprovalRules() config.Approval {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.cfg.Tools.Approval
	a.Always, a.Ask, a.Never = slices.Clone(a.Always), slices.Clone(a.Ask), slices.Clone(a.Never)
	return a
}

// SetToolApproval sets the per-tool override of tool: "always" (never asks),
// "ask" (always asks), "never" (always denied) or "" (the mode decides), and
// saves the config.
func (s *Service) SetToolApproval(tool, rule string) error {
	tool = strings.TrimSpace(tool)
	if tool == "" {
		return errors.New("set tool approval: empty tool name (hint: name a tool such as exec or mcp_<server>_<tool>)")
	}
	if rule != "" && rule != "always" && rule != "ask" && rule != "never" {
		return fmt.Errorf("set tool approval of %s: unknown rule %q (hint: use \"always\", \"ask\", \"never\" or \"\")", tool, rule)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a := &s.cfg.Tools.Approval
	old := *a
	without := func(l []string) []string {
		return slices.DeleteFunc(slices.Clone(l), func(t string) bool { return t == tool })
	}
	a.Always, a.Ask, a.Never = without(a.Always), without(a.Ask), without(a.Never)
	switch rule {
	case "always":
		a.Always = append(a.Always, tool)
	case "ask":
		a.Ask = append(a.Ask, tool)
	case "never":
		a.Never = append(a.Never, tool)
	}
	if err := s.cfg.Save(s.paths.ConfigFile); err != nil {
		*a = old
		return fmt.Errorf("set tool approval of %s: %w", tool, err)
	}
	return nil
}

// Activity reads the audit log: the entries that match filter, oldest first.
func (s *Service) Activity(filter audit.Filter) ([]audit.Entry, error) {
	return s.hitl.audit.Query(filter)
}

// TailAudit calls fn with the last n audit entries and, with follow, with
// every later one until ctx ends (`hearth audit tail`).
func (s *Service) TailAudit(ctx context.Context, n int, follow bool, fn func(audit.Entry)) error {
	return s.hitl.audit.Tail(ctx, n, follow, fn)
}

// AuditDir is where the audit files are.
func (s *Service) AuditDir() string { return s.hitl.audit.Dir() }

// SecretStorage says where SetAPIKey puts a key: "keyring" when the OS keyring
// answers, else "config" (the config file, written 0600).
func (s *Service) SecretStorage() string {
	if s.hitl.secrets.Available() {
		return "keyring"
	}
	return "config"
}

// SetAPIKey sets the API key of a provider ("openai", "custom.<name>") or of
// web search ("web.search"). A "${ENV}" reference is written as is; any other
// key goes to the OS keyring (the config holds "${keyring:<provider>}") or,
// without one, into the config file. An empty key removes it.
func (s *Service) SetAPIKey(provider, key string) error {
	key = strings.TrimSpace(key)
	s.mu.Lock()
	defer s.mu.Unlock()
	get, set, err := apiKeyField(s.cfg, provider)
	if err != nil {
		return err
	}
	old := get()
	value := key
	var undo func() // takes the keyring entry back if the config cannot be saved
	switch {
	case key == "" || keystore.IsEnvRef(key):
	case s.hitl.secrets.Available():
		if undo, err = s.hitl.keyringPut(provider, key); err != nil {
			return fmt.Errorf("set API key of %s: %w", provider, err)
		}
		value = keystore.Ref(provider)
	}
	inKeyring := undo != nil
	set(value)
	if err := s.cfg.Save(s.paths.ConfigFile); err != nil {
		set(old)
		if inKeyring {
			undo()
		}
		return fmt.Errorf("set API key of %s: %w", provider, err)
	}
	if name, wasRef := keystore.ParseRef(old); wasRef && !inKeyring {
		if err := s.hitl.secrets.Delete(name); err != nil {
			slog.Warn("old key left in the OS keyring", "provider", provider, "err", err)
		}
	}
	// Reload so a "${ENV}" reference is expanded in memory the way Load does
	// (and stays a reference on the next save).
	if cfg, warnings, err := config.Load(s.paths.ConfigFile, s.getenv); err == nil {
		s.cfg, s.warnings = cfg, warnings
	}
	if s.parts != nil {
		delete(s.parts.providers, provider) // the next call uses the new key
	}
	s.hitl.refreshMasker(s.cfg)
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

// apiKey is the key a configured value stands for (a keyring reference is
// read from the keyring).
func (s *Service) apiKey(v string) (string, error) {
	return s.hitl.secrets.Resolve(v)
}
