package cli

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"hearth/backend/i18n"
)

func newKnowledgeCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "knowledge",
		Short: "Add, list and remove knowledge folders",
		Long: `Knowledge folders are folders of your files (notes, documents, code) that
recall indexes: text, Markdown and source code (and the formats the extractor
reads). A folder in mode "always" is searched for every message; in mode "ask"
only when the model calls memory_search. The files stay where they are, and
the agent's tools and commands may read them but not write there unless you
allow it (hearth knowledge writable FOLDER on).

Exit codes:
  0  done
  1  the folder could not be added, removed or indexed
  2  usage error`,
		Example: `  hearth knowledge add ~/Documents/notes
  hearth knowledge add --mode ask /srv/manuals
  hearth knowledge list
  hearth knowledge mode ~/Documents/notes ask
  hearth knowledge writable ~/Documents/notes on
  hearth knowledge remove ~/Documents/notes`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newKnowledgeAddCmd(e), newKnowledgeListCmd(e), newKnowledgeRemoveCmd(e), newKnowledgeModeCmd(e), newKnowledgeWritableCmd(e))
	return cmd
}

// absPath makes a folder given on the command line absolute.
func absPath(p string) (string, error) {
	a, err := filepath.Abs(p)
	if err != nil {
		return "", usageError{err}
	}
	return a, nil
}

func newKnowledgeAddCmd(e *env) *cobra.Command {
	var mode string
	cmd := &cobra.Command{
		Use:   "add FOLDER",
		Short: "Add a folder and index it",
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := absPath(args[0])
			if err != nil {
				return err
			}
			st, err := e.app.Knowledge.Add(cmd.Context(), p, mode)
			if err != nil {
				return err
			}
			fmt.Fprintln(e.stdout, statusLine(st.Path, st.Mode, st.Files, st.Skipped, st.Reasons, st.Problem))
			return nil
		},
	}
	cmd.Flags().StringVar(&mode, "mode", "always", `"always": searched for every message; "ask": only when the model searches`)
	return cmd
}

func newKnowledgeListCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the folders with what is indexed (brought up to date first)",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			err := e.app.Knowledge.Refresh(cmd.Context(), "") // reads only what changed; the status says what failed
			list := e.app.Knowledge.List()
			if asJSON {
				return printJSON(e.stdout, list)
			}
			if len(list) == 0 {
				fmt.Fprintln(e.stdout, "No knowledge folders (add one: hearth knowledge add FOLDER).")
			}
			for _, st := range list {
				fmt.Fprintln(e.stdout, statusLine(st.Path, st.Mode, st.Files, st.Skipped, st.Reasons, st.Problem))
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the folders as JSON")
	return cmd
}

func newKnowledgeRemoveCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "remove FOLDER",
		Short: "Remove a folder from the list and its files from the index (the files stay)",
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := absPath(args[0])
			if err != nil {
				return err
			}
			if err := e.app.Knowledge.Remove(cmd.Context(), p); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "Removed %s (its files are untouched).\n", p)
			return nil
		},
	}
}

func newKnowledgeModeCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "mode FOLDER always|ask",
		Short: "Search a folder for every message (always) or only when asked (ask)",
		Args:  usageArgs(cobra.ExactArgs(2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := absPath(args[0])
			if err != nil {
				return err
			}
			if err := e.app.Knowledge.SetMode(p, args[1]); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "%s: mode %s.\n", p, args[1])
			return nil
		},
	}
}

func newKnowledgeWritableCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "writable FOLDER on|off",
		Short: "Let the agent's tools and commands change a folder's files (on), or only read them (off, the default)",
		Args:  usageArgs(cobra.ExactArgs(2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := absPath(args[0])
			if err != nil {
				return err
			}
			on := args[1] == "on"
			if !on && args[1] != "off" {
				return usageError{fmt.Errorf("%q is neither on nor off (hint: hearth knowledge writable %s on)", args[1], args[0])}
			}
			if err := e.app.Knowledge.SetWritable(p, on); err != nil {
				return err
			}
			if on {
				fmt.Fprintf(e.stdout, "%s: the agent's tools and commands may change its files.\n", p)
			} else {
				fmt.Fprintf(e.stdout, "%s: read-only to the agent's tools and commands.\n", p)
			}
			return nil
		},
	}
}

// statusLine is one folder's status in a line: files, skipped by reason, problem.
func statusLine(path, mode string, files, skipped int, reasons map[string]int, problem *i18n.Message) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  [%s]  %d files indexed", path, mode, files)
	if skipped > 0 {
		var rs []string
		for r, n := range reasons {
			rs = append(rs, fmt.Sprintf("%s %d", r, n))
		}
		sort.Strings(rs)
		fmt.Fprintf(&b, ", %d skipped (%s)", skipped, strings.Join(rs, ", "))
	}
	if problem != nil {
		fmt.Fprintf(&b, "\n  problem: %s", problem.String())
	}
	return b.String()
}
