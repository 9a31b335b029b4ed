package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"hearth/backend/app"
	"hearth/backend/event"
	"hearth/backend/guard"
)

// approvalAsk is a tool call waiting for the user, as the REPL asks about it.
type approvalAsk struct {
	runID  string
	callID string
}

// pendingInfo finds the waiting call's tool, arguments and reason.
func pendingInfo(svc *app.App, runID, callID string) (guard.Pending, bool) {
	for _, p := range svc.Guard.Gate.Pendings() {
		if p.RunID == runID && p.CallID == callID {
			return p, true
		}
	}
	return guard.Pending{}, false
}

// describeCall is "exec command=ls (It runs a shell command on this computer.)".
func describeCall(p guard.Pending) string {
	s := p.Tool + argHint(p.Args)
	if p.Reason != "" {
		s += " (" + p.Reason + ")"
	}
	return s
}

// onceApprover answers approval requests of `hearth agent -m`, where nobody
// is asked: allowed with --yes, else denied, saying so. It runs inside the
// printer's sink (p.mu held).
func onceApprover(svc *app.App, yes bool, p *printer) func(event.Event, event.ApprovalData) {
	return func(ev event.Event, a event.ApprovalData) {
		info, ok := pendingInfo(svc, ev.RunID, a.CallID)
		if !ok {
			return
		}
		d := guard.Deny
		if yes {
			d = guard.Once
		}
		p.endReasoning()
		p.breakLine()
		if err := svc.Guard.Gate.Approve(ev.RunID, a.CallID, d); err != nil {
			fmt.Fprintf(p.errw, "Error: %v\n", err)
			return
		}
		if yes {
			fmt.Fprintf(p.errw, "  ✓ allowed (--yes): %s\n", describeCall(info))
			return
		}
		p.denied[a.CallID] = true
		fmt.Fprintf(p.errw, "  ✗ denied: %s needs approval. Run with --yes to allow tool calls for this run, or add %s to tools.approval.always.\n",
			describeCall(info), info.Tool)
	}
}

// queueApprover hands approval requests to the REPL, which asks the user.
// It never blocks the run's sink (the REPL takes the printer's lock to ask):
// when the queue is full the request is handed over from a goroutine.
func queueApprover(asks chan<- approvalAsk) func(event.Event, event.ApprovalData) {
	return func(ev event.Event, a event.ApprovalData) {
		ask := approvalAsk{runID: ev.RunID, callID: a.CallID}
		select {
		case asks <- ask:
		default:
			go func() { asks <- ask }()
		}
	}
}

// askApproval asks about one waiting call at the REPL prompt: y allows it
// once, a always (saved to tools.approval.always), n denies it. It returns
// false when the input ended or Ctrl-C was pressed (the caller stops the run).
func askApproval(e *env, svc *app.App, p *printer, ask approvalAsk, lines <-chan string, sigs <-chan os.Signal) bool {
	for {
		info, ok := pendingInfo(svc, ask.runID, ask.callID)
		if !ok {
			return true // answered already (an "always" covered it) or the run ended
		}
		p.mu.Lock()
		p.endReasoning()
		p.breakLine()
		fmt.Fprintf(e.stderr, "Allow %s? [y]es once / [a]lways / [n]o: ", describeCall(info))
		p.mu.Unlock()
		var line string
		select {
		case l, open := <-lines:
			if !open {
				fmt.Fprintln(e.stderr)
				return false
			}
			line = l
		case <-sigs:
			fmt.Fprintln(e.stderr)
			return false
		}
		var d guard.Decision
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			d = guard.Once
		case "a", "always":
			d = guard.Always
		case "n", "no":
			d = guard.Deny
		default:
			fmt.Fprintln(e.stderr, "Please answer y, a or n.")
			continue
		}
		err := svc.Guard.Gate.Approve(ask.runID, ask.callID, d)
		switch {
		case err == nil:
			if d == guard.Always {
				fmt.Fprintf(e.stderr, "  %s will run without asking from now on (tools.approval.always).\n", info.Tool)
			}
			return true
		case errors.Is(err, guard.ErrNoPending):
			return true
		default:
			fmt.Fprintf(e.stderr, "Error: %v\n", err)
		}
	}
}
