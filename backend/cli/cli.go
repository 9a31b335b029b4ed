// Package cli is the `hearth` command line (reference: docs/cli.md), built with cobra.
//
// Adding a command: write newXxxCmd(e *env) *cobra.Command in its own file, register it
// in newRootCmd, set Args to usageArgs(...) (so bad arguments exit 2), print to e.stdout /
// e.stderr, and reach the application through e.app: the root builds the services
// (backend/app) before any command but version and help, which load no config and
// touch no network; mainEnv closes them when the command is done.
// Return an error for exit 1, exitError{code} after printing a report of your own.
package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"hearth/backend/app"
)

// Exit codes of the hearth binary.
const (
	ExitOK      = 0 // success
	ExitRuntime = 1 // the command ran and failed (or, for status, found a problem)
	ExitUsage   = 2 // bad flags, arguments or command name
)

// BuildInfo identifies the binary; main sets it from -ldflags.
type BuildInfo struct {
	Version string
	Commit  string
}

// DesktopFunc starts the desktop app (Wails window + tray) and returns when the app quits.
// open opens the service with the command line's flags; the `hearth` launcher never calls
// it, since the desktop image it starts opens its own. The headless build passes nil.
type DesktopFunc func(open func() (*app.App, error)) error

// env is what every command shares: build info, output streams, flag values and the
// lazily opened service.
type env struct {
	info    BuildInfo
	desktop DesktopFunc
	stdin   io.Reader
	// interrupts delivers Ctrl-C to the agent REPL; nil means os.Interrupt
	// through os/signal (tests send their own).
	interrupts func() (<-chan os.Signal, func())
	stdout     io.Writer
	stderr     io.Writer
	getenv     func(string) string
	// vault, when set, is the environment the process started with: Getenv reads
	// it and the service drops the variables holding secrets (Main sets it; tests
	// keep their own environment).
	vault      *app.Env
	configFlag string
	wsFlag     string
	terminal   bool // a command runs, not the window: chats are told they are in a terminal
	// ownProcess: the command line runs as its own process (Main), not inside a test,
	// so a command may set process-wide runtime settings (see oneProcessor).
	ownProcess bool
	// typing says lines read while a turn runs are a person's (a terminal): they are
	// sent at once (steer.go). Piped input keeps them for the prompt, where answers
	// to approvals typed ahead belong. Nil asks whether stdin is a terminal.
	typing func() bool
	app    *app.App
	appErr error
	// afterStart, when set, sees the services once a command started them (a test
	// checks what runs).
	afterStart func(*app.App)
}

// hearth builds the services on first use, with the --config and --workspace flag
// values.
func (e *env) hearth() (*app.App, error) {
	if e.app == nil && e.appErr == nil {
		e.app, e.appErr = app.New(app.Options{
			ConfigPath:    e.configFlag,
			WorkspaceFlag: e.wsFlag,
			Getenv:        e.getenv,
			Env:           e.vault,
			Version:       e.info.versionString(),
			Terminal:      e.terminal,
		})
	}
	return e.app, e.appErr
}

// start starts the background parts for commands that chat or list MCP servers: the
// servers connect (a run waits for them, bounded). The memory files' watcher is not
// started: no command needs it, and closing it costs every command milliseconds.
func (e *env) start(ctx context.Context) {
	_ = e.app.Start(ctx, app.StartOptions{DropStartPages: true})
	if e.afterStart != nil {
		e.afterStart(e.app)
	}
}

// closeTimeout bounds the orderly end of a command: running turns interrupted and
// saved, MCP servers ended, consolidations finished or deferred.
const closeTimeout = 10 * time.Second

// close ends what the command started, if it built the services.
func (e *env) close() {
	if e.app == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	_ = e.app.Close(ctx)
}

func (b BuildInfo) versionString() string {
	if b.Version == "" {
		return "dev"
	}
	return b.Version
}

// versionLine is what `hearth version` and `hearth --version` print.
func (b BuildInfo) versionLine() string {
	commit := b.Commit
	commit = cmp.Or(commit, "unknown commit")
	return fmt.Sprintf("hearth %s (%s, %s, %s/%s)", b.versionString(), commit, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// usageError marks a mistake in how the command was called: exit code 2.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

// exitError ends a command with a code after it printed its own report (status).
type exitError struct{ code int }

func (x exitError) Error() string { return fmt.Sprintf("exit status %d", x.code) }

// usageArgs wraps a cobra argument validator so its errors count as usage errors.
func usageArgs(v cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := v(cmd, args); err != nil {
			return usageError{err}
		}
		return nil
	}
}

// Main runs the hearth command line with args (without the program name) and returns the
// process exit code: 0 ok, 1 runtime error, 2 usage error.
func Main(args []string, info BuildInfo, desktop DesktopFunc, stdout, stderr io.Writer) int {
	vault := app.CaptureEnv()
	return mainEnv(&env{info: info, desktop: desktop, stdin: os.Stdin, stdout: stdout, stderr: stderr,
		getenv: vault.Getenv, vault: vault, ownProcess: true}, args)
}

// Command is the command tree, not run, for documents made from it (the man pages of
// scripts/manpage).
func Command(info BuildInfo) *cobra.Command {
	return newRootCmd(&env{info: info, stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv})
}

// mainEnv runs the command line in a prepared env (tests inject Ctrl-C).
func mainEnv(e *env, args []string) int {
	stdout, stderr := e.stdout, e.stderr
	root := newRootCmd(e)
	if args == nil {
		args = []string{} // cobra would read os.Args for a nil slice
	}
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	defer e.close()
	cmd, err := root.ExecuteContextC(context.Background())
	if err == nil {
		return ExitOK
	}
	var x exitError
	if errors.As(err, &x) {
		return x.code
	}
	var u usageError
	if errors.As(err, &u) {
		if cmd == nil {
			cmd = root
		}
		fmt.Fprintf(stderr, "Error: %v\nRun '%s --help' for usage.\n", err, cmd.CommandPath())
		return ExitUsage
	}
	fmt.Fprintf(stderr, "Error: %v\n", err)
	return ExitRuntime
}

func newRootCmd(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:   "hearth",
		Short: "Hearth — a personal AI agent on your desktop, local-first with Ollama",
		Long: `Hearth is a personal AI agent that lives on your desktop. It chats offline with a
local Ollama model by default, acts through tools, and remembers in plain Markdown
files in its workspace that you can read and edit.

Run without a command to open the desktop window (in the desktop build; the
headless build prints this help). The commands below work from a terminal, also
while the desktop app is running.

Files: the config is $XDG_CONFIG_HOME/hearth/config.json (override with --config),
data lives in $XDG_DATA_HOME/hearth/ and state in $XDG_STATE_HOME/hearth/.`,
		Example: `  hearth                      # open the desktop app
  hearth status               # is the config valid and Ollama reachable?
  hearth onboard --workspace ~/hearth-notes
  hearth --config ./test.json status`,
		Version: e.info.versionString(),
		// The bare root may meet flags meant for the GUI toolkit: tolerate them there.
		// Subcommands keep strict parsing.
		FParseErrWhitelist: cobra.FParseErrWhitelist{UnknownFlags: true},
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
				if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
					msg += fmt.Sprintf(" (did you mean %q?)", s[0])
				}
				return usageError{errors.New(msg)}
			}
			return nil
		},
		SilenceErrors: true,
		SilenceUsage:  true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if cmd == cmd.Root() || cmd.Name() == "version" || cmd.Name() == "help" {
				return nil // the desktop opens the services itself; these need none
			}
			// serve runs the window's background life: its chats are not a terminal's
			e.terminal = cmd.Name() != "serve"
			_, err := e.hearth()
			return err
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if e.desktop == nil {
				return cmd.Help()
			}
			if err := e.desktop(e.hearth); err != nil {
				return fmt.Errorf("desktop app: %w", err)
			}
			return nil
		},
	}
	root.SuggestionsMinimumDistance = 2
	root.SetVersionTemplate(e.info.versionLine() + "\n")
	root.PersistentFlags().StringVar(&e.configFlag, "config", "", "config file (default $XDG_CONFIG_HOME/hearth/config.json)")
	root.PersistentFlags().StringVar(&e.wsFlag, "workspace", "", "workspace folder (default: agents.defaults.workspace, else $XDG_DATA_HOME/hearth/workspace)")
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return usageError{err}
	})
	root.CompletionOptions.DisableDefaultCmd = true
	root.AddCommand(
		newOnboardCmd(e),
		newStatusCmd(e),
		newVersionCmd(e),
		newModelsCmd(e),
		newAgentCmd(e),
		newAuditCmd(e),
		newMCPCmd(e),
		newSkillsCmd(e),
		newCronCmd(e),
		newMemoryCmd(e),
		newServeCmd(e),
		newKnowledgeCmd(e),
	)
	return root
}

// indent prefixes every line after the first with pad, for multi-line values in reports.
func indent(s, pad string) string {
	return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+pad)
}
