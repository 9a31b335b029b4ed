package cli

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newVersionCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print Hearth's version, commit, Go version and platform",
		Long: `Print one line: hearth <version> (<commit>, <go version>, <os>/<arch>).

It loads no config and touches no network, so it is safe in scripts and bug reports.`,
		Example: `  hearth version
  hearth --version`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(e.stdout, e.info.versionLine())
			return err
		},
	}
}
