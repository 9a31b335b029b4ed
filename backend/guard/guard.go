// Package guard is the approvals service: the gate every tool call passes (mode,
// per-tool overrides, grants for a chat or for always, waiting for the user), the
// audit log of what ran, and the settings behind them. It asks nothing of the user by
// itself: the window and the CLI answer the approval events of a run.
package guard

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"hearth/backend/approval"
	"hearth/backend/audit"
	"hearth/backend/config"
	"hearth/backend/settings"
)

// The approvals' vocabulary, for the front ends that answer them.
type (
	Decision = approval.Decision // once, chat, always or deny
	Pending  = approval.Pending  // a tool call waiting for the user
	Entry    = audit.Entry       // one audited tool call
)

// Answers to an approval, and the approval event's state that asks for one.
const (
	Once           = approval.Once
	Always         = approval.Always
	Deny           = approval.Deny
	StateRequested = approval.StateRequested
)

// ErrNoPending is an answer to a call that no longer waits (it was answered or its
// run ended).
var ErrNoPending = approval.ErrNoPending

// Service is the approvals service. It is made at start and touches no file until a
// tool call is audited or a grant is saved.
type Service struct {
	settings *settings.Service
	// Gate is consulted before every tool call: the window and the CLI answer it
	// (Approve), list what waits (Pendings), and a deleted chat's grants go
	// (ForgetChat).
	Gate *approval.Gate
	// Audit is the log of every tool call (Observe is the runs' observer; Query
	// and Tail read it).
	Audit *audit.Log
}

// New builds the gate and the audit log over the settings; both hide the API keys
// in what they show and write with mask (backend/keymask).
func New(s *settings.Service, mask func(string) string) *Service {
	g := &Service{settings: s}
	g.Gate = approval.New(approval.Options{Rules: g.rules, Grant: func(tool string) error { return g.SetToolApproval(tool, "always") }, Mask: mask,
		Workspace: func() string { return s.Paths().Workspace }})
	g.Audit = audit.New(audit.Options{Dir: s.Paths().AuditDir, Mask: mask,
		OnError: func(err error) { slog.Warn("audit log not written", "err", err) }})
	return g
}

// rules are the gate's rules, read from the config at every call.
func (g *Service) rules() approval.Rules { return approval.RulesFrom(g.Rules()) }

// Mode is tools.approval.mode: "all", "risky" or "ask".
func (g *Service) Mode() string { return g.settings.Config().Tools.Approval.Mode }

// SetMode changes tools.approval.mode and saves the config; it applies to the next
// tool call.
func (g *Service) SetMode(mode string) error {
	m, err := approval.ParseMode(mode)
	if err != nil {
		return err
	}
	if err := g.settings.Update(func(c *config.Config) error { c.Tools.Approval.Mode = string(m); return nil }); err != nil {
		return fmt.Errorf("set approval mode: %w", err)
	}
	return nil
}

// Rules returns a copy of tools.approval (mode and per-tool overrides).
func (g *Service) Rules() config.Approval {
	a := g.settings.Config().Tools.Approval
	a.Always, a.Ask, a.Never = slices.Clone(a.Always), slices.Clone(a.Ask), slices.Clone(a.Never)
	return a
}

// SetToolApproval sets the per-tool override of tool: "always" (never asks), "ask"
// (always asks), "never" (always denied) or "" (the mode decides), and saves the
// config.
func (g *Service) SetToolApproval(tool, rule string) error {
	tool = strings.TrimSpace(tool)
	if tool == "" {
		return errors.New("set tool approval: empty tool name (hint: name a tool such as exec or mcp_<server>_<tool>)")
	}
	if rule != "" && rule != "always" && rule != "ask" && rule != "never" {
		return fmt.Errorf("set tool approval of %s: unknown rule %q (hint: use \"always\", \"ask\", \"never\" or \"\")", tool, rule)
	}
	err := g.settings.Update(func(c *config.Config) error {
		a := &c.Tools.Approval
		without := func(l []string) []string {
			return slices.DeleteFunc(l, func(t string) bool { return t == tool })
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
		return nil
	})
	if err != nil {
		return fmt.Errorf("set tool approval of %s: %w", tool, err)
	}
	return nil
}
