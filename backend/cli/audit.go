package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"hearth/backend/guard"
	"hearth/backend/internal/clip"

	"github.com/spf13/cobra"
)

func newAuditCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Read the audit log of tool calls",
		Long: `Hearth writes one line per tool call to $XDG_STATE_HOME/hearth/audit/YYYY-MM-DD.jsonl
(time, session, run, tool, arguments with secrets masked, approval decision,
ok, duration, result size); files older than 30 days are removed.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newAuditTailCmd(e))
	return cmd
}

func newAuditTailCmd(e *env) *cobra.Command {
	var n int
	var follow, asJSON bool
	cmd := &cobra.Command{
		Use:   "tail",
		Short: "Print the last tool calls (-f: and new ones as they happen)",
		Long: `Print the last N tool calls from the audit log, oldest first, one per line:
time, session, tool, approval, ok/FAIL, duration, result size and arguments.

Approval is auto (no approval needed), once, chat, always (tools.approval.always),
job (allowed for an unattended run), denied (by you), never (tools.approval.never), unattended
(needed approval in a run nobody watched) or cancelled (the run stopped while
it waited). With -f, keeps printing new calls — also those of the desktop app
— until Ctrl-C.`,
		Example: `  hearth audit tail
  hearth audit tail -n 100
  hearth audit tail -f --json`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if n < 0 {
				return usageError{fmt.Errorf("-n must be 0 (all) or more, got %d", n)}
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			var werr error
			emit := func(en guard.Entry) {
				if werr == nil {
					werr = writeEntry(e.stdout, en, asJSON)
				}
			}
			if err := e.app.Guard.Audit.Tail(ctx, n, follow, emit); err != nil {
				return fmt.Errorf("audit tail: %w", err)
			}
			return werr
		},
	}
	cmd.Flags().IntVarP(&n, "lines", "n", 20, "how many of the last calls to print (0: all)")
	cmd.Flags().BoolVarP(&follow, "follow", "f", false, "keep printing new calls until Ctrl-C")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the log's JSON lines as they are stored")
	return cmd
}

func writeEntry(w io.Writer, en guard.Entry, asJSON bool) error {
	if asJSON {
		b, err := json.Marshal(en)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	status := "ok"
	if !en.OK {
		status = "FAIL"
	}
	line := fmt.Sprintf("%s  %-24s %-12s %-10s %-4s %7s %8s %s",
		en.Time.Local().Format(time.DateTime), en.SessionID, en.Tool, en.Approval, status,
		fmt.Sprintf("%dms", en.DurationMs), humanSize(int64(en.ResultSize)), argHint(en.Args))
	if en.Error != "" {
		line += "  — " + clip.Line(en.Error, 100)
	}
	_, err := fmt.Fprintln(w, line)
	return err
}
