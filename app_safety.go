//go:build !headless

package main

import "hearth/backend/egress"

// EgressLog lists the newest outbound connections Hearth made or refused (Activity ›
// Network), newest first.
func (a *SafetyAPI) EgressLog() []egress.Entry { return a.h.Egress.Recent(200) }
