package cli

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

func newOnboardCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "onboard",
		Short: "Create the workspace and its starter files (never overwrites)",
		Long: `Create the workspace folder with Hearth's starter files for any that are missing:
AGENTS.md, SOUL.md, USER.md, TOOLS.md, HEARTBEAT.md, memory/MEMORY.md,
memory/HISTORY.md, and the memory/ and skills/ folders; the history of the
memory files starts with their first commit, kept out of the workspace in
Hearth's data folder ($XDG_DATA_HOME/hearth/workspaces/<id>/memory.git; hearth
status prints the folder).

Existing files are never touched, so it is safe to run again: it prints which files
it created and which were already present. The workspace is --workspace if given,
else agents.defaults.workspace from the config, else $XDG_DATA_HOME/hearth/workspace.
No config file is written: a missing config means the defaults (see docs/configuration.md).

Exits 1 if the workspace cannot be written or the config file has errors.`,
		Example: `  hearth onboard
  hearth onboard --workspace ~/notes/hearth`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			files, err := e.app.Settings.Onboard()
			paths := e.app.Settings.Paths()
			out := e.stdout
			fmt.Fprintf(out, "Workspace %s\n", paths.Workspace)
			for _, f := range files {
				switch {
				case f.Created:
					fmt.Fprintf(out, "  created  %s\n", f.Path)
				case !f.Dir:
					fmt.Fprintf(out, "  present  %s\n", f.Path)
				}
			}
			if err != nil {
				return fmt.Errorf("onboard: %w", err)
			}
			// The history of the memory files starts with onboarding's files.
			if err := e.app.Memory.SyncHistory(); err != nil {
				fmt.Fprintf(e.stderr, "warning: the memory history was not started: %v\n", err)
			}
			_, statErr := os.Stat(paths.ConfigFile)
			switch cerr := e.app.Settings.ConfigError(); {
			case cerr != nil:
				fmt.Fprintf(out, "Config    %s\n", paths.ConfigFile)
				return fmt.Errorf("the config file has errors, so the defaults were used: %w", cerr)
			case errors.Is(statErr, os.ErrNotExist):
				fmt.Fprintf(out, "Config    %s (not present: the defaults apply; see docs/configuration.md)\n", paths.ConfigFile)
			default:
				fmt.Fprintf(out, "Config    %s (present, valid)\n", paths.ConfigFile)
			}
			return nil
		},
	}
}
