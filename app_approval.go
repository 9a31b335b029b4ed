//go:build !headless

package main

import (
	"hearth/backend/approval"
	"hearth/backend/audit"
	"hearth/backend/config"
)

// The window's approval card, Activity view and approval settings. Each one forwards
// to the guard service (the key storage to settings.Keys).

// Approve answers a tool call waiting for approval: "once", "chat", "always" or "deny".
func (a *SafetyAPI) Approve(runID, callID, decision string) error {
	return a.h.Guard.Gate.Approve(runID, callID, approval.Decision(decision))
}

// PendingApprovals lists the tool calls waiting for the user, oldest first.
func (a *SafetyAPI) PendingApprovals() []approval.Pending { return a.h.Guard.Gate.Pendings() }

// Activity reads the audit log: the entries that match filter, oldest first.
func (a *SafetyAPI) Activity(filter audit.Filter) ([]audit.Entry, error) {
	return a.h.Guard.Audit.Query(filter)
}

// ApprovalMode is tools.approval.mode: "all", "risky" or "ask".
func (a *SafetyAPI) ApprovalMode() string { return a.h.Guard.Mode() }

// SetApprovalMode changes tools.approval.mode and saves the config.
func (a *SafetyAPI) SetApprovalMode(mode string) error { return a.h.Guard.SetMode(mode) }

// ApprovalRules returns tools.approval (mode and per-tool overrides).
func (a *SafetyAPI) ApprovalRules() config.Approval { return a.h.Guard.Rules() }

// SetToolApproval sets a tool's override: "always", "ask", "never" or "" (the mode decides).
func (a *SafetyAPI) SetToolApproval(tool, rule string) error {
	return a.h.Guard.SetToolApproval(tool, rule)
}

// SecretStorage says where API keys are kept: "keyring" or "config".
func (a *SettingsAPI) SecretStorage() string { return a.h.Settings.Keys().Storage() }
