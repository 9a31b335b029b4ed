package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"hearth/backend/i18n"
	"hearth/backend/models"
	"hearth/backend/settings"
)

func newStatusCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Check the config, the paths, the default model and Ollama",
		Long: `Show where Hearth keeps its files, whether the config file is valid (with the
line and column of any error), which model is the default and whether its provider
is configured, whether Ollama answers at its host (GET /api/version, 1.5 s), and
whether memory recall searches by meaning or by keywords only (the embedding model
not set or not installed; /api/show).
It also names any API key written in config.json in plain text, and how to move
it into the OS keyring (Hearth never moves one on its own), and the service: which
Hearth holds the data folder (the desktop app or ` + "`hearth serve`" + `, its pid and since
when), and whether the systemd user unit hearth.service is installed and enabled
(systemctl --user, bounded at 3 s; without systemd it says so). The service never
changes the exit code.

Exit codes:
  0  the config is valid and Ollama is reachable
  1  the config has errors or Ollama is not reachable (the report says why)
  2  usage error (unknown flag or argument)`,
		Example: `  hearth status
  hearth status --json
  OLLAMA_HOST=192.168.1.20:11434 hearth status
  hearth status && echo ready`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			st := e.app.Status(cmd.Context())
			svc := readService(cmd.Context(), e.app)
			if asJSON {
				if err := printJSON(e.stdout, statusReport{st, svc}); err != nil {
					return err
				}
			} else {
				printStatus(e.stdout, st)
				printService(e.stdout, svc)
			}
			if st.ConfigError != "" || !st.OllamaReachable {
				return exitError{ExitRuntime}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the status as JSON (camelCase fields)")
	return cmd
}

const pad = "            "

func printStatus(w io.Writer, st settings.Status) {
	fmt.Fprintf(w, "Hearth %s\n\n", st.Version)
	fmt.Fprintf(w, "Config      %s\n", st.ConfigFile)
	switch {
	case len(st.ConfigProblems) > 0:
		fmt.Fprintf(w, "%sINVALID — Hearth runs with the defaults until you fix it by hand\n", pad)
		for _, p := range st.ConfigProblems {
			fmt.Fprintf(w, "%s%s\n", pad, indent(p.String(), pad))
		}
	case st.ConfigError != "":
		fmt.Fprintf(w, "%sINVALID — %s\n", pad, st.ConfigError)
	default:
		if _, err := os.Stat(st.ConfigFile); errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(w, "%snot present — the defaults apply\n", pad)
		} else {
			fmt.Fprintf(w, "%svalid\n", pad)
		}
	}
	for _, warn := range st.ConfigWarnings {
		fmt.Fprintf(w, "%swarning: %s\n", pad, indent(warn.String(), pad))
	}
	fmt.Fprintf(w, "Workspace   %s\n", st.Workspace)
	if st.WorkspaceError != "" {
		fmt.Fprintf(w, "%sERROR: %s\n", pad, st.WorkspaceError)
	}
	fmt.Fprintf(w, "Data        %s\n", st.DataDir)
	fmt.Fprintf(w, "State       %s\n", st.StateDir)
	fmt.Fprintf(w, "Memory      %s\n", i18n.M("memory.state.where", "dir", st.MemoryStateDir))
	if m := st.StateMoved; m != nil {
		if len(m.Items) > 0 {
			fmt.Fprintf(w, "%s%s\n", pad, i18n.M("memory.state.moved", "from", m.From, "items", strings.Join(m.Items, ", "), "dir", st.MemoryStateDir))
		}
		if len(m.Refused) > 0 {
			fmt.Fprintf(w, "%sNOTE: %s\n", pad, i18n.M("memory.state.refused", "from", m.From, "items", strings.Join(m.Refused, ", "), "dir", st.MemoryStateDir))
		}
	}
	fmt.Fprintf(w, "Model       %s\n", st.Model)
	if st.ModelConfigured {
		fmt.Fprintf(w, "%sconfigured (provider %s)\n", pad, st.ModelProvider)
	} else {
		fmt.Fprintf(w, "%sNOT configured: %s\n", pad, st.ModelProblem)
	}
	fmt.Fprintf(w, "Ollama      %s\n", st.OllamaHost)
	if st.OllamaReachable {
		fmt.Fprintf(w, "%sreachable (version %s)\n", pad, st.OllamaVersion)
	} else {
		fmt.Fprintf(w, "%sNOT reachable: %s\n", pad, st.OllamaError)
	}
	fmt.Fprintf(w, "Recall      ")
	if st.Recall == models.RecallHybrid {
		fmt.Fprintf(w, "by meaning and keywords (embedding model %s)\n", st.EmbeddingModel)
	} else {
		fmt.Fprintf(w, "keyword-only: %s\n", st.RecallNote)
	}
	fmt.Fprintf(w, "Sandbox     %s\n", st.Sandbox.Summary)
	if st.Sandbox.Warning != "" {
		fmt.Fprintf(w, "%sWARNING: %s\n", pad, st.Sandbox.Warning)
	}
	if st.Sandbox.Hint != "" {
		fmt.Fprintf(w, "%shint: %s\n", pad, st.Sandbox.Hint)
	}
	if st.LocalOnly {
		fmt.Fprintf(w, "Network     local-only: connections that leave this machine are refused (Ollama at %s allowed)\n", st.OllamaHost)
		if st.Sandbox.Warning != "" { // commands run unconfined
			fmt.Fprintf(w, "%sWARNING: without the sandbox, commands exec runs can still reach the network\n", pad)
		}
	} else {
		fmt.Fprintf(w, "Network     open (set \"localOnly\": true to keep everything on this machine)\n")
	}
	if st.APIKeys != nil {
		printPlainKeys(w, *st.APIKeys)
	}
}
