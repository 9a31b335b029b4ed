package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"hearth/backend/i18n"
)

// The history of versions of the memory files: log, diff, restore.

func newMemoryLogCmd(e *env) *cobra.Command {
	var asJSON bool
	var limit int
	cmd := &cobra.Command{
		Use:   "log [FILE]",
		Short: "List the changes of the memory files, newest first",
		Long: `Every change of MEMORY.md, HISTORY.md, the daily notes and the persona files
(SOUL.md, USER.md, …) is committed to the workspace's history repository
(memory.git in its state folder, $XDG_DATA_HOME/hearth/workspaces/<id>, out of
the workspace; hearth status prints it) with who made it — the agent, Dream,
consolidation, you, or a program outside Hearth — and why. Edits made outside Hearth are committed
first. FILE limits the list to one file (MEMORY.md, USER.md, 2026-11-23, …).

--json prints an array of {"rev", "time", "author", "message", "files"}.`,
		Example: `  hearth memory log
  hearth memory log MEMORY.md --json`,
		Args: usageArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			revs, err := e.app.Memory.History(argAt(args, 0), limit)
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(e.stdout, revs)
			}
			if dir, m := e.app.Settings.MemoryState(); m != nil && len(m.Refused) > 0 {
				// The old history was left where it was: say so above the new one.
				fmt.Fprintf(e.stderr, "NOTE: %s\n", i18n.M("memory.state.refused", "from", m.From,
					"items", strings.Join(m.Refused, ", "), "dir", dir))
			}
			fmt.Fprintln(e.stdout, revs)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the changes as JSON")
	cmd.Flags().IntVarP(&limit, "limit", "n", 0, "show at most this many changes (default all)")
	return cmd
}

func newMemoryDiffCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "diff REV [FILE]",
		Short: "Show what one change of the memory files changed",
		Long: `Print the unified diff of the change REV (4 or more hex digits from
"hearth memory log"; HEAD is the newest, REV^ the one before REV), of one file
when FILE is given.`,
		Example: `  hearth memory diff 3f2a9c1
  hearth memory diff HEAD MEMORY.md`,
		Args: usageArgs(cobra.RangeArgs(1, 2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := e.app.Memory.Diff(args[0], argAt(args, 1))
			if err != nil {
				return err
			}
			if d == "" {
				fmt.Fprintln(e.stdout, "No change to show.")
				return nil
			}
			fmt.Fprint(e.stdout, d)
			return nil
		},
	}
}

func newMemoryRestoreCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "restore REV [FILE]",
		Short: "Put the memory files back as they were after a change",
		Long: `Write back the text the files had right after the change REV — one file when
FILE is given, else every versioned file that existed then. To undo a change,
restore the one before it (REV^). The restore is a change of its own in the
history, so it can be undone the same way; edits not yet committed are
committed first, so nothing is lost.`,
		Example: `  hearth memory restore 3f2a9c1^ MEMORY.md
  hearth memory restore HEAD~3`,
		Args: usageArgs(cobra.RangeArgs(1, 2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			msg, err := e.app.Memory.Restore(args[0], argAt(args, 1))
			if err != nil {
				return err
			}
			fmt.Fprintln(e.stdout, msg)
			return nil
		},
	}
}

func argAt(args []string, i int) string {
	if i < len(args) {
		return args[i]
	}
	return ""
}

func newMemoryDreamCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "dream",
		Short: "Run a Dream pass now: fold new history into MEMORY.md, USER.md, SOUL.md",
		Long: `Dream reads what is new in HISTORY.md, the daily notes and recent chats and
edits MEMORY.md, USER.md and SOUL.md surgically with the default model, under
hard budgets (tokens, time, tool calls). The desktop app runs it every few hours
when there is new history; this runs one pass now. Its edits are commits by
"Dream" in the memory history: "hearth memory log" lists them and
"hearth memory restore REV^" undoes one.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			rep, err := e.app.Dream.RunNow(cmd.Context())
			if asJSON {
				if perr := printJSON(e.stdout, rep); perr != nil {
					return perr
				}
				return err
			}
			fmt.Fprintf(e.stdout, "Dream with %s: %d edits, %d tool calls (%d changed nothing), %d tokens, %v.\n",
				rep.Model, rep.Edits, rep.ToolCalls, rep.NoOps, rep.Tokens, rep.Duration.Round(1e7))
			if rep.Stopped != "" {
				fmt.Fprintf(e.stdout, "Stopped at the %s budget.\n", rep.Stopped)
			}
			if len(rep.Files) > 0 {
				verb := "Changed"
				if rep.Proposed {
					verb = "Proposed changes to (review them in the memory sidebar)"
				}
				fmt.Fprintf(e.stdout, "%s: %s\n", verb, strings.Join(rep.Files, ", "))
			}
			if rep.Summary != "" {
				fmt.Fprintln(e.stdout, rep.Summary)
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the pass's report as JSON")
	return cmd
}
