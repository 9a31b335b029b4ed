package mcp

import (
	"context"
	"maps"
	"slices"
	"sort"
	"time"
)

// ReadyWait bounds how long a run waits, before its first model request, for
// the servers still making their first connection. A local stdio server
// answers in well under a second, one started through npx or uvx (package
// cached) in a few; past five seconds the person is looking at a silent
// window for a server that may never come. The reply then goes on without
// that server, whose tools join from the next model request after it
// connects.
const ReadyWait = 5 * time.Second

// readyQuiet is how long WaitReady waits before it names the servers it
// waits for: one that connects within it is not worth a line in the chat.
const readyQuiet = 300 * time.Millisecond

// ReadyReport is what WaitReady found.
type ReadyReport struct {
	// Waited are the servers still connecting after the quiet spell, the
	// ones the waiting callback was told about, sorted.
	Waited []string
	// Late are the servers still connecting when the bound ran out, sorted.
	// Later waits skip them.
	Late []string
	// Failed is the error of each server in Waited whose attempt failed.
	Failed map[string]string
	// Bound is how long the wait was allowed to last.
	Bound time.Duration
}

// WaitReady waits, at most Options.ReadyWait, until no server is on its
// first connection attempt, so that a run's first request offers their
// tools; it returns at once when none is. A server that failed is not
// waited for (its retries run in the background), nor one that an earlier
// wait already gave up on. When servers are still connecting after a short
// quiet spell, waiting is called once with their names. Cancelling ctx ends
// the wait early.
func (m *Manager) WaitReady(ctx context.Context, waiting func(names []string)) ReadyReport {
	rep := ReadyReport{Bound: m.opts.ReadyWait}
	bound := time.NewTimer(m.opts.ReadyWait)
	defer bound.Stop()
	quiet := time.NewTimer(min(readyQuiet, m.opts.ReadyWait))
	defer quiet.Stop()
	var waited []*server
	for {
		ch := m.stateChanged() // taken before looking, so no change is missed
		pending := m.connecting()
		if len(pending) == 0 {
			break
		}
		announce := func() {
			if waited == nil {
				waited, rep.Waited = pending, serverNames(pending)
				if waiting != nil {
					waiting(rep.Waited)
				}
			}
		}
		select {
		case <-ch:
			continue
		case <-quiet.C:
			announce()
			continue
		case <-bound.C:
			// Said even when the quiet spell and the bound end together (a
			// busy machine): a server given up on was always named first.
			announce()
			for _, s := range pending {
				s.giveUp()
			}
			rep.Late = serverNames(pending)
		case <-ctx.Done():
			return rep
		}
		break
	}
	for _, s := range waited {
		if ok, lastErr := s.outcome(); !ok && lastErr != "" {
			if rep.Failed == nil {
				rep.Failed = map[string]string{}
			}
			rep.Failed[s.name] = lastErr
		}
	}
	return rep
}

func (m *Manager) stateChanged() <-chan struct{} {
	m.stateMu.Lock()
	defer m.stateMu.Unlock()
	return m.stateCh
}

// connecting lists the servers WaitReady waits for, by name.
func (m *Manager) connecting() []*server {
	m.mu.Lock()
	list := slices.Collect(maps.Values(m.servers))
	m.mu.Unlock()
	out := list[:0]
	for _, s := range list {
		if s.connecting() {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

func serverNames(list []*server) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = s.name
	}
	return out
}
