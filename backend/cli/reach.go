package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func newMCPCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "List, test, import and remove MCP servers",
		Long: `Manage the MCP servers of tools.mcpServers in the config file. Their tools are
offered to the model as mcp_<server>_<name>.`,
		Example: `  hearth mcp list
  hearth mcp test filesystem
  hearth mcp import claude_desktop_config.json
  pbpaste | hearth mcp import -
  hearth mcp remove filesystem`,
		Args: usageArgs(cobra.NoArgs),
	}
	var asJSON bool
	var wait time.Duration
	list := &cobra.Command{
		Use:   "list",
		Short: "Show each server: transport, connected, tools, last error",
		Long: `Connect to every configured server (waiting up to --wait for each to answer) and
show its transport, whether it is connected, how many tools it offers and its last error.`,
		Example: "  hearth mcp list\n  hearth mcp list --json --wait 10s",
		Args:    usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			e.start(cmd.Context())
			deadline := time.Now().Add(wait)
			for {
				list := e.app.Reach.ListMCPServers()
				settled := true
				for _, s := range list {
					settled = settled && (s.Connected || s.LastError != "")
				}
				if settled || time.Now().After(deadline) {
					if asJSON {
						return printJSON(e.stdout, list)
					}
					if len(list) == 0 {
						fmt.Fprintln(e.stdout, "No MCP servers. Add one with `hearth mcp import FILE` or under tools.mcpServers in the config.")
					}
					for _, s := range list {
						state := "connected"
						switch {
						case !s.Connected && s.LastError != "":
							state = "not connected: " + s.LastError
						case !s.Connected:
							state = "connecting"
						}
						fmt.Fprintf(e.stdout, "%-16s %-15s %3d tools  %s\n", s.Name, s.Transport, s.Tools, state)
					}
					return nil
				}
				time.Sleep(50 * time.Millisecond)
			}
		},
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	list.Flags().DurationVar(&wait, "wait", 5*time.Second, "how long to wait for servers to connect")

	test := &cobra.Command{
		Use:     "test NAME",
		Short:   "Connect to one server and list the tools it offers",
		Example: "  hearth mcp test filesystem",
		Args:    usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			res, err := e.app.Reach.TestMCPServer(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			server := "an MCP server"
			if res.Server != nil {
				server = res.Server.Name + " " + res.Server.Version
			}
			fmt.Fprintf(e.stdout, "%s: connected over %s to %s in %d ms; %d tools:\n", args[0], res.Transport, server,
				res.Duration.Milliseconds(), len(res.Tools))
			for _, t := range res.Tools {
				fmt.Fprintln(e.stdout, "  "+t)
			}
			return nil
		},
	}
	imp := &cobra.Command{
		Use:   "import FILE|-",
		Short: "Add the servers of a Claude Desktop config (or its mcpServers block)",
		Long: `Read a Claude Desktop config file, or just its "mcpServers" block, from FILE or from
standard input (-) and add its servers to tools.mcpServers (replacing servers of the same name).`,
		Example: "  hearth mcp import ~/.config/Claude/claude_desktop_config.json\n  hearth mcp import - < servers.json",
		Args:    usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			var data []byte
			var err error
			if args[0] == "-" {
				data, err = io.ReadAll(e.stdin)
			} else {
				data, err = os.ReadFile(args[0])
			}
			if err != nil {
				return fmt.Errorf("import: %w", err)
			}
			names, err := e.app.Reach.ImportClaudeDesktop(string(data))
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "Imported %s.\n", strings.Join(names, ", "))
			return nil
		},
	}
	rm := &cobra.Command{
		Use:     "remove NAME",
		Short:   "Remove a server from the config",
		Example: "  hearth mcp remove filesystem",
		Args:    usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := e.app.Reach.RemoveMCPServer(args[0]); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "Removed %s.\n", args[0])
			return nil
		},
	}
	cmd.AddCommand(list, test, imp, rm)
	return cmd
}

func newSkillsCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "skills",
		Short: "List skills and turn them on or off",
		Long: `Skills are SKILL.md files: Hearth's built-ins and the workspace's skills/<name>/SKILL.md
(a workspace skill replaces a built-in of the same name).`,
		Example: "  hearth skills list\n  hearth skills disable summarize",
		Args:    usageArgs(cobra.NoArgs),
	}
	var asJSON bool
	list := &cobra.Command{
		Use:     "list",
		Short:   "Show every skill: source, availability, enabled",
		Example: "  hearth skills list\n  hearth skills list --json",
		Args:    usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			list := e.app.Reach.ListSkills()
			if asJSON {
				return printJSON(e.stdout, list)
			}
			for _, s := range list {
				state := "available"
				switch {
				case s.Problem != "":
					state = "broken: " + s.Problem
				case !s.Available:
					state = "missing " + s.Missing()
				}
				if !s.Enabled {
					state += " (disabled)"
				}
				fmt.Fprintf(e.stdout, "%-16s %-9s %s — %s\n", s.Name, s.Source, state, s.Description)
			}
			return nil
		},
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	toggle := func(use string, on bool) *cobra.Command {
		return &cobra.Command{
			Use:     use + " NAME",
			Short:   strings.ToUpper(use[:1]) + use[1:] + " a skill",
			Example: "  hearth skills " + use + " summarize",
			Args:    usageArgs(cobra.ExactArgs(1)),
			RunE: func(cmd *cobra.Command, args []string) error {
				if err := e.app.Reach.SetSkillEnabled(args[0], on); err != nil {
					return err
				}
				fmt.Fprintf(e.stdout, "%s %sd.\n", args[0], use)
				return nil
			},
		}
	}
	cmd.AddCommand(list, toggle("enable", true), toggle("disable", false))
	return cmd
}
