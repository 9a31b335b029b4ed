package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"hearth/backend/internal/clip"
	"hearth/backend/schedule"
)

func newCronCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cron",
		Short: "List, add, remove and run reminders",
		Long: `Manage reminders (cron/jobs.json in the data directory). Each reminder runs its
message as an agent turn in its own chat (cron:<id>) and notifies you. The desktop
app runs them while it is open (also from the tray); these commands work beside it.

Exit codes:
  0  done
  1  the reminder failed, or jobs.json could not be used (the message ends with a hint)
  2  usage error`,
		Example: `  hearth cron list
  hearth cron add --name tea --message "Tell me the tea is ready" --at "in 4 minutes"
  hearth cron add --name water --message "Remind me to drink water" --every 3600
  hearth cron add --name standup --message "Standup in 5 minutes" --cron "55 8 * * 1-5" --tz Europe/Berlin
  hearth cron remove 1a2b3c4d
  hearth cron run 1a2b3c4d`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newCronListCmd(e), newCronAddCmd(e), newCronRemoveCmd(e), newCronRunCmd(e))
	return cmd
}

func newCronListCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List reminders with their schedule, next run and last result",
		Args:    usageArgs(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			jobs, err := e.app.Reminders.ListJobs()
			if err != nil {
				return err
			}
			problems, _ := e.app.Reminders.JobProblems()
			if asJSON {
				if jobs == nil {
					jobs = []schedule.Job{}
				}
				return printJSON(e.stdout, jobs)
			}
			for _, p := range problems {
				fmt.Fprintf(e.stderr, "Warning: entry %d of jobs.json (id %q) is kept but not run: %s\n", p.Index, p.ID, p.Error)
			}
			if len(jobs) == 0 {
				fmt.Fprintln(e.stdout, "No reminders. Add one with `hearth cron add` or ask in chat.")
				return nil
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tNAME\tSCHEDULE\tNEXT RUN\tLAST")
			for _, j := range jobs {
				next := "-"
				switch {
				case j.Paused:
					next = "paused"
				case !j.NextRun.IsZero():
					next = j.NextRun.Local().Format("2006-01-02 15:04")
				}
				last := "-"
				if !j.LastRun.IsZero() {
					last = j.LastStatus + " " + j.LastRun.Local().Format("2006-01-02 15:04")
					if j.LastError != "" {
						last += ": " + clip.Line(j.LastError, 60)
					}
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", j.ID, j.Title(), j.Description, next, last)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func newCronAddCmd(e *env) *cobra.Command {
	var spec schedule.JobSpec
	var at, expr, tz string
	var every int64
	cmd := &cobra.Command{
		Use:   "add --name N --message M (--at TIME | --every SECONDS | --cron EXPR [--tz ZONE])",
		Short: "Add a reminder",
		Long: `Add a reminder. Give exactly one schedule:
  --at TIME        once: ISO 8601 in your time zone (2026-11-24T09:00), HH:MM, or a
                   delay ("in 10 minutes", "+2h")
  --every SECONDS  repeatedly (at least 10)
  --cron EXPR      a five-field cron expression, read in --tz (default: local zone)`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			n := 0
			for _, set := range []bool{at != "", every != 0, expr != ""} {
				if set {
					n++
				}
			}
			if n != 1 {
				return usageError{errors.New("give exactly one of --at, --every, --cron")}
			}
			if tz != "" && expr == "" {
				return usageError{errors.New("--tz goes with --cron")}
			}
			switch {
			case at != "":
				t, err := schedule.ParseAt(at, time.Now(), time.Local)
				if err != nil {
					return usageError{fmt.Errorf("--at: %w", err)}
				}
				spec.Schedule = schedule.Schedule{Kind: schedule.KindAt, At: t}
			case every != 0:
				spec.Schedule = schedule.Schedule{Kind: schedule.KindEvery, EverySeconds: every}
			default:
				spec.Schedule = schedule.Schedule{Kind: schedule.KindCron, Expr: expr, TZ: tz}
			}
			j, err := e.app.Reminders.AddJob(spec)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "Added reminder %s (%s): %s; next run %s (%s).\n", j.ID, j.Title(), j.Description,
				j.NextRun.Local().Format("Mon 2 Jan 2006 15:04 MST"), schedule.Until(j.NextRun, time.Now()))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&spec.Name, "name", "", "a short name")
	f.StringVar(&spec.Message, "message", "", "what the agent should do or say when it is due (required)")
	f.StringVar(&at, "at", "", "once at this time")
	f.Int64Var(&every, "every", 0, "every this many seconds")
	f.StringVar(&expr, "cron", "", "cron expression")
	f.StringVar(&tz, "tz", "", "IANA time zone for --cron")
	f.StringVar(&spec.SessionID, "session", "", "run in this chat instead of its own")
	f.StringSliceVar(&spec.AllowTools, "allow-tool", nil, "a tool that needs approval (exec, mcp_…) this reminder may use unattended")
	_ = cmd.MarkFlagRequired("message")
	return cmd
}

func newCronRemoveCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:     "remove ID",
		Aliases: []string{"rm"},
		Short:   "Remove a reminder",
		Args:    usageArgs(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			if err := e.app.Reminders.RemoveJob(args[0]); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "Removed reminder %s.\n", args[0])
			return nil
		},
	}
}

func newCronRunCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "run ID",
		Short: "Run a reminder now, here, and print its answer",
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			e.start(ctx)
			var session string
			if jobs, err := e.app.Reminders.ListJobs(); err == nil {
				for _, j := range jobs {
					if j.ID == args[0] {
						session = j.Session()
					}
				}
			}
			err := e.app.Reminders.RunJobNow(ctx, args[0])
			if sess, lerr := e.app.Sessions.Load(session); session != "" && lerr == nil && len(sess.Runs) > 0 {
				if final := sess.Runs[len(sess.Runs)-1].Final; final != "" {
					fmt.Fprintln(e.stdout, final)
				}
			}
			if err != nil {
				return reportModelError(e, err)
			}
			return nil
		},
	}
}
