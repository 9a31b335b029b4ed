package cli

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"hearth/backend/agent"
	"hearth/backend/event"
	"hearth/backend/guard"
	"hearth/backend/internal/clip"
)

// ExitInterrupted is the exit code of a turn stopped with Ctrl-C (128+SIGINT).
const ExitInterrupted = 130

type agentFlags struct {
	message       string
	session       string
	model         string
	showReasoning bool
	yes           bool // -m: allow what needs approval (else it is denied)
	cont          bool // --continue: finish the session's interrupted reply
	files         []string
}

func newAgentCmd(e *env) *cobra.Command {
	var f agentFlags
	cmd := &cobra.Command{
		Use:   "agent",
		Short: "Chat with the agent from the terminal (one message with -m, else a REPL)",
		Long: `Chat with Hearth's agent in the terminal: the same agent, tools, sessions and
config as the desktop app.

With -m, sends one message, streams the answer to stdout and exits. Without -s
every -m call starts a fresh session (its id is printed on stderr at the end, so
you can go on with -s ID). Without -m, starts an interactive chat (REPL) that
keeps its history in one session (-s to resume one): Ctrl-C stops the current
answer, Ctrl-C twice at the prompt or Ctrl-D exits. With -s ID --continue,
finishes the reply that Hearth (the window or this command) was giving in that
session when it quit or crashed, from where it stopped.

Tool calls are shown on stderr as one-line hints (↳ read_file path=notes.md);
the model's reasoning is hidden unless --show-reasoning.

Calls that need approval (tools.approval: by default exec, MCP tools and file
writes outside the memory files) are asked about in the REPL — y allows once,
a always (saved to tools.approval.always), n denies. With -m nobody is asked:
they are denied, saying so, unless --yes allows them for this run. Slash commands work in
both modes: /new /stop /model NAME /status /help.

Exit codes:
  0    answered
  1    the turn failed (the message ends with a hint: Ollama down, model missing, …)
  2    usage error
  130  stopped with Ctrl-C`,
		Example: `  hearth agent -m "What files are in my workspace?"
  hearth agent -m "Summarise notes.md" -s notes --model ollama/qwen3:8b
  echo "Summarise it" | hearth agent --file report.pdf
  hearth agent                 # interactive chat in a new session
  hearth agent -s notes        # resume the session named notes
  hearth agent -s notes --continue   # finish a reply cut off by a quit`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("message") && strings.TrimSpace(f.message) == "" {
				return usageError{fmt.Errorf("-m needs a message")}
			}
			if f.cont && (f.session == "" || f.message != "" || len(f.files) > 0) {
				return usageError{fmt.Errorf("--continue needs -s SESSION and no -m or --file")}
			}
			if len(f.files) > 0 && f.message == "" {
				msg, ok, err := fileMessage(e)
				if err != nil {
					return err
				}
				if ok {
					f.message = msg
				}
			}
			oneProcessor(e)
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			if f.message != "" || f.cont {
				return runOnce(ctx, e, f)
			}
			stop() // the REPL handles Ctrl-C itself
			err := runREPL(cmd.Context(), e, f)
			ctx, stop = signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			finishBackground(ctx, e, "")
			return err
		},
	}
	cmd.Flags().StringVarP(&f.message, "message", "m", "", "send this message, print the answer and exit")
	cmd.Flags().StringVarP(&f.session, "session", "s", "", "session id to use or create (default: a new session)")
	cmd.Flags().StringVar(&f.model, "model", "", "model for this call, as <provider>/<model> or a name of the default provider")
	cmd.Flags().BoolVar(&f.showReasoning, "show-reasoning", false, "print the model's reasoning on stderr")
	cmd.Flags().BoolVar(&f.yes, "yes", false, "allow every tool call that needs approval (without it, -m denies them and the REPL asks)")
	cmd.Flags().StringArrayVar(&f.files, "file", nil, "attach this file to the message (repeat for more): text, Markdown, code, PDF, Word, HTML, CSV; without -m the message is read from piped stdin, or the REPL's first message takes the files")
	cmd.Flags().BoolVar(&f.cont, "continue", false, "finish the reply of session -s that was cut off when Hearth quit or crashed, and exit")
	return cmd
}

// oneProcessor runs a terminal chat's Go code on one processor unless GOMAXPROCS says
// otherwise. A turn is one goroutine's work handed back and forth with net/http's
// connection goroutines (the model and the tools' commands run in processes of their own):
// a second processor runs nothing in parallel, it only makes every hand-off wake another
// thread, which cost a quarter of a tool round's CPU and took an 80-round turn past its
// 30 MB peak (docs/performance.md, where this is the kept hand-made part).
func oneProcessor(e *env) {
	if e.ownProcess && e.getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
}

// printer renders a run's events: answer text on stdout, everything else as
// short lines on stderr.
type printer struct {
	out, errw     io.Writer
	showReasoning bool

	mu        sync.Mutex
	lineOpen  bool // stdout has text without its final newline
	reasoning bool // stderr is inside a reasoning block
	errData   *event.ErrorData
	finished  event.FinishedData
	// onApproval answers approval requests (called with mu held); denied
	// holds the calls it denied and already reported.
	onApproval func(event.Event, event.ApprovalData)
	denied     map[string]bool
	holdLines  bool // lines typed during the turn wait for the prompt (steer.go)
}

func (p *printer) sink(ev event.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch d := ev.Data.(type) {
	case event.DeltaData:
		if ev.Type == event.ReasoningDelta {
			if p.showReasoning {
				if !p.reasoning {
					p.breakLine()
					fmt.Fprint(p.errw, "thinking: ")
					p.reasoning = true
				}
				fmt.Fprint(p.errw, d.Text)
			}
			return
		}
		p.endReasoning()
		if d.Text != "" {
			fmt.Fprint(p.out, d.Text)
			p.lineOpen = !strings.HasSuffix(d.Text, "\n")
		}
	case event.ToolCallData:
		p.endReasoning()
		p.breakLine()
		fmt.Fprintf(p.errw, "↳ %s%s\n", d.Name, argHint(d.Args))
	case event.ToolResultData:
		if !d.OK && !p.denied[d.CallID] {
			fmt.Fprintf(p.errw, "  ✗ %s\n", clip.Line(d.Content, 120))
		}
	case event.ApprovalData:
		if d.State == guard.StateRequested && p.onApproval != nil {
			p.onApproval(ev, d)
		}
	case event.NoticeData:
		p.breakLine()
		fmt.Fprintf(p.errw, "Note: %s\n", d.Message)
	case event.ErrorData:
		p.errData = &d
	case event.StartedData:
		p.errData = nil // a turn a waiting message started reports its own
	case event.PendingData, event.TakenData, event.DroppedData:
		p.pendingLine(ev)
	case event.FinishedData:
		p.endReasoning()
		p.breakLine()
		p.finished = d
	}
}

func (p *printer) breakLine() {
	if p.lineOpen {
		fmt.Fprintln(p.out)
		p.lineOpen = false
	}
}

func (p *printer) endReasoning() {
	if p.reasoning {
		fmt.Fprintln(p.errw)
		p.reasoning = false
	}
}

// report prints the run's error with its hint; it returns the exit code.
func (p *printer) report(res agent.Result) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch res.Status {
	case event.StatusCancelled, event.StatusInterrupted:
		fmt.Fprintln(p.errw, "Stopped.")
		return ExitInterrupted
	case event.StatusError:
		msg, hint := "", ""
		if p.errData != nil {
			msg, hint = p.errData.Message, p.errData.Hint
		} else if res.Err != nil {
			msg = res.Err.Error()
		}
		fmt.Fprintf(p.errw, "Error: %s\n", msg)
		if hint != "" {
			fmt.Fprintf(p.errw, "Hint: %s\n", hint)
		}
		return ExitRuntime
	}
	return ExitOK
}

// argHint shows a call's arguments as key=value pairs, short enough for
// one line.
func argHint(raw json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil || len(m) == 0 {
		return ""
	}
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := fmt.Sprint(m[k])
		if s, ok := m[k].(string); ok {
			v = clip.Line(s, 60)
			if strings.Contains(strings.TrimSpace(s), "\n") && !strings.HasSuffix(v, clip.Mark) {
				v += clip.Mark // more lines follow
			}
			if strings.ContainsAny(v, " \t\"") || v == "" {
				v = fmt.Sprintf("%q", v)
			}
		} else if js, err := json.Marshal(m[k]); err == nil {
			v = clip.Line(string(js), 60)
		}
		fmt.Fprintf(&b, " %s=%s", k, v)
	}
	return b.String()
}

// runOnce sends one message (or continues an interrupted reply) and exits with the
// turn's outcome.
func runOnce(ctx context.Context, e *env, f agentFlags) error {
	p := &printer{out: e.stdout, errw: e.stderr, showReasoning: f.showReasoning, denied: map[string]bool{}}
	e.start(ctx)
	p.onApproval = onceApprover(e.app, f.yes, p)
	e.app.Memory.Consolidations().Hold() // consolidations run after the answer, see finishBackground
	var run *agent.Run
	var err error
	if f.cont {
		run, err = e.app.Chat.Continue(ctx, f.session, p.sink)
	} else {
		req := agent.Request{SessionID: f.session, Text: f.message, Model: f.model}
		if len(f.files) > 0 {
			if req.SessionID, req.Attachments, err = e.app.Chat.AttachFiles(f.session, f.files); err != nil {
				return usageError{err}
			}
			printAttachments(e.stderr, req.Attachments)
		}
		run, err = e.app.Chat.Start(ctx, req, p.sink)
	}
	if err != nil {
		return reportModelError(e, err)
	}
	res := run.Wait()
	code := p.report(res)
	finishBackground(ctx, e, res.SessionID)
	if res.Limit != "" {
		fmt.Fprintf(e.stderr, "%s; continue with: hearth agent -s %s -m continue\n", limitLine(res.Limit), res.SessionID)
	} else if f.session == "" {
		fmt.Fprintf(e.stderr, "(session %s — go on with -s %s)\n", res.SessionID, res.SessionID)
	}
	if code != ExitOK {
		return exitError{code}
	}
	return nil
}

// printAttachments tells, one line each, what became of the attached files.
func printAttachments(w io.Writer, atts []agent.Attachment) {
	for _, a := range atts {
		if a.Mode == "refused" {
			fmt.Fprintf(w, "not attached: %s (%s)\n", a.Detail, a.Error)
			continue
		}
		pages := ""
		if a.Pages > 0 {
			pages = fmt.Sprintf(", %d pages", a.Pages)
		}
		fmt.Fprintf(w, "attached: %s (%s%s, %s)\n", a.Name, sizeText(a.Bytes), pages, a.Mode)
	}
}

// sizeText is a file's size as a person reads it.
func sizeText(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// signals returns the channel Ctrl-C arrives on and a function to stop it.
func (e *env) signals() (<-chan os.Signal, func()) {
	if e.interrupts != nil {
		return e.interrupts()
	}
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt)
	return c, func() { signal.Stop(c) }
}

// runREPL is the interactive chat. Lines are read in a goroutine so Ctrl-C
// can be noticed while waiting at the prompt.
func runREPL(ctx context.Context, e *env, f agentFlags) error {
	sigs, stopSignals := e.signals()
	defer stopSignals()
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(e.stdin)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	e.start(ctx) // MCP servers connect while the first line is typed
	sessionID := f.session
	pending := &replFiles{paths: f.files}
	fmt.Fprintf(e.stderr, "Hearth agent — model %s. /help for commands; Ctrl-C stops an answer, Ctrl-D exits.\n",
		cmp.Or(f.model, e.app.Settings.Config().Agents.Defaults.Model))
	pending.announce(e.stderr)
	armed := false   // one Ctrl-C at the prompt arms the exit
	held := ""       // a command typed during a turn, answered now
	canGoOn := false // the last turn ended at a budget: an empty line continues it
	for {
		line := held
		held = ""
		if line == "" {
			fmt.Fprint(e.stderr, "> ")
			select {
			case l, ok := <-lines:
				if !ok {
					fmt.Fprintln(e.stderr)
					return pending.left()
				}
				line = l
			case <-sigs:
				if armed {
					fmt.Fprintln(e.stderr)
					return nil
				}
				armed = true
				fmt.Fprintln(e.stderr, "\n(press Ctrl-C again or Ctrl-D to exit)")
				continue
			case <-ctx.Done():
				return nil
			}
			armed = false
		}
		if strings.TrimSpace(line) == "" && canGoOn {
			line = agent.ContinueText
		}
		canGoOn = false
		if strings.TrimSpace(line) == "" {
			continue
		}
		p := &printer{out: e.stdout, errw: e.stderr, showReasoning: f.showReasoning, denied: map[string]bool{}}
		asks := make(chan approvalAsk, 16)
		p.onApproval = queueApprover(asks)
		if f.yes {
			p.onApproval = onceApprover(e.app, true, p)
		}
		sid, atts, err := pending.take(e, e.stderr, sessionID, line)
		if err != nil {
			fmt.Fprintf(e.stderr, "Error: %v\n", err)
			continue
		}
		p.holdLines = len(pending.paths) > 0
		run, err := e.app.Chat.Start(ctx, agent.Request{SessionID: sid, Text: line, Model: f.model, Attachments: atts}, p.sink)
		if err != nil {
			if len(atts) > 0 {
				pending.paths = f.files // the next message takes them
			}
			fmt.Fprintf(e.stderr, "Error: %v\n", err)
			continue
		}
		res, command := waitTurns(e, p, run, lines, sigs, asks)
		held = command
		if res.Status != event.StatusOK {
			p.report(res)
		}
		if canGoOn = res.Limit != ""; canGoOn {
			fmt.Fprintf(e.stderr, "%s; press Enter to continue (a new turn with budgets of its own).\n", limitLine(res.Limit))
		}
		if res.SessionID != "" && sessionID == "" {
			sessionID = res.SessionID
		}
		if res.NewSessionID != "" {
			sessionID = res.NewSessionID
		}
	}
}

// limitLine says which budget ended a turn with a summary (docs/design/agent-loop.md#budgets).
func limitLine(limit string) string {
	if limit == agent.LimitTime {
		return "The turn reached its time limit (agents.defaults.maxTurnMinutes) and summed up"
	}
	return "The turn reached its limit of tool rounds (agents.defaults.maxToolIterations) and summed up"
}
