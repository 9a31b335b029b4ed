package cli

import (
	"fmt"
	"os"
	"strings"

	"golang.org/x/term"

	"hearth/backend/agent"
	"hearth/backend/event"
	"hearth/backend/internal/clip"
)

// A line typed while an answer streams is not kept for the prompt: it is sent at once
// (docs/cli.md#typing-while-it-works). It is queued — the next turn, as type-ahead always
// was — unless it starts with "!", which steers the running turn: the model reads it at
// its next step. A slash command waits for the prompt, and with it every line after it,
// so commands and messages keep their order.

// steerPrefix starts a line that steers the running turn.
const steerPrefix = "!"

// live reports whether lines typed during a turn are sent at once: a person at a
// terminal. Piped input is read at the prompt only, as before, so an approval's
// answer written ahead still answers it. A terminal is what answers a terminal's
// ioctl, not any character device: input redirected from /dev/null means none.
func (e *env) live() bool {
	if e.typing != nil {
		return e.typing()
	}
	f, ok := e.stdin.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// waitTurns waits for run and for every turn a waiting message starts after it,
// sending the lines typed meanwhile. It returns the last turn's result and a slash
// command typed during them, to be answered at the prompt.
func waitTurns(e *env, p *printer, run *agent.Run, lines <-chan string, sigs <-chan os.Signal, asks chan approvalAsk) (agent.Result, string) {
	// Piped input: nothing is read until the prompt; nor while files wait for the
	// first message (a command's turn runs), so that message goes from the prompt.
	held, quiet := "", !e.live() || p.holdLines
	var started []*agent.Run // turns a line started itself (the one going had just ended)
	for {
		in := lines
		if held != "" || quiet {
			in = nil // the lines after a held command wait behind it
		}
		select {
		case <-run.Done():
			res := run.Wait()
			switch {
			case res.Next != nil:
				run = res.Next
			case len(started) > 0:
				run, started = started[0], started[1:]
			default:
				return res, held
			}
		case l, ok := <-in:
			if !ok {
				quiet = true // end of input: the prompt ends the chat after this turn
				continue
			}
			if t := strings.TrimSpace(l); strings.HasPrefix(t, "/") {
				held = l
			} else if t != "" {
				if r := sendDuring(e, p, run.SessionID, t); r != nil {
					started = append(started, r)
				}
			}
		case <-sigs:
			e.app.Chat.Stop(run.SessionID)
		case ask := <-asks:
			if !askApproval(e, e.app, p, ask, lines, sigs) {
				e.app.Chat.Stop(run.SessionID)
			}
		}
	}
}

// sendDuring sends a line typed during a turn, as a steer or a queued turn; it returns
// the turn the line started when none was going any more.
func sendDuring(e *env, p *printer, sessionID, line string) *agent.Run {
	mode := agent.ModeQueue
	if text, ok := strings.CutPrefix(line, steerPrefix); ok {
		mode, line = agent.ModeSteer, strings.TrimSpace(text)
	}
	_, run, err := e.app.Chat.Deliver(agent.Message{SessionID: sessionID, Text: line, Mode: mode}, p.sink)
	if err != nil {
		p.mu.Lock()
		p.breakLine()
		fmt.Fprintf(e.stderr, "Error: %v\n", err)
		p.mu.Unlock()
	}
	return run
}

// pendingLine prints what became of a message sent during a turn (called with mu held).
func (p *printer) pendingLine(ev event.Event) {
	p.endReasoning()
	p.breakLine()
	switch d := ev.Data.(type) {
	case event.PendingData:
		if d.Held {
			fmt.Fprintf(p.errw, "Kept, not sent (the turn stopped): %s\n", clip.Line(d.Text, 100))
		} else {
			fmt.Fprintf(p.errw, "(%s waits: %s)\n", d.Mode, clip.Line(d.Text, 100))
		}
	case event.TakenData:
		if d.NextRunID != "" {
			fmt.Fprintf(p.errw, "> %s\n", clip.Line(d.Text, 100))
		} else {
			fmt.Fprintf(p.errw, "(steered: %s)\n", clip.Line(d.Text, 100))
		}
	case event.DroppedData:
		fmt.Fprintf(p.errw, "(removed %s)\n", d.ID)
	}
}
