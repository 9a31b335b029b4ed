package cli

import (
	"cmp"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"hearth/backend/models"
)

func newModelsCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "models",
		Short: "List, pull, remove and check local Ollama models",
		Long: `Manage the models of the local Ollama server (providers.ollama.host, else
OLLAMA_HOST, else http://127.0.0.1:11434). Names may carry the "ollama/" prefix
used in config.json.

Exit codes:
  0  done
  1  Ollama failed or is not reachable (the message ends with a hint)
  2  usage error`,
		Example: `  hearth models list
  hearth models pull qwen3:4b
  hearth models rm ollama/llama3.2
  hearth models check qwen3:4b`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newModelsListCmd(e), newModelsPullCmd(e), newModelsRmCmd(e), newModelsCheckCmd(e))
	return cmd
}

// reportModelError prints a provider's error with its hint and exits 1; other
// errors go the usual way.
func reportModelError(e *env, err error) error {
	msg, hint, ok := models.Explain(err)
	if !ok {
		return err
	}
	fmt.Fprintf(e.stderr, "Error: %s\nHint: %s\n", msg, hint)
	return exitError{ExitRuntime}
}

func newModelsListCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List installed models with size, family, context length and capabilities",
		Long: `List the models installed in Ollama: name, size on disk, family, the model's
own maximum context length, and capability badges (tools, vision, thinking,
embedding) read from /api/show, and the verdict of the model's fitness check
([fit: good], [fit: text-fallback], [fit: chat-only]) once it was checked.`,
		Example: `  hearth models list
  hearth models list --json`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			list, err := e.app.Models.List(cmd.Context())
			if err != nil {
				return reportModelError(e, err)
			}
			if asJSON {
				return printJSON(e.stdout, list)
			}
			printModels(e.stdout, list)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the models as JSON (camelCase fields)")
	return cmd
}

func printModels(w io.Writer, list []models.ModelEntry) {
	if len(list) == 0 {
		fmt.Fprintln(w, "No models installed. Pull one with `hearth models pull qwen3:4b`.")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSIZE\tFAMILY\tCONTEXT\tCAPABILITIES")
	for _, m := range list {
		ctx := "?"
		if m.ContextLength > 0 {
			ctx = fmt.Sprint(m.ContextLength)
		}
		b := badges(m.Capabilities)
		if m.Fitness != nil { // the fitness check's verdict (hearth models check)
			b = strings.TrimPrefix(b+" [fit: "+string(m.Fitness.Verdict)+"]", "- ")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", m.Name, humanSize(m.Size), cmp.Or(m.Family, "-"), ctx, b)
	}
	_ = tw.Flush()
}

// badges shows what matters when picking a model; "completion" is implied.
func badges(caps []string) string {
	var b []string
	for _, c := range []string{"tools", "vision", "thinking", "embedding"} {
		for _, x := range caps {
			if x == c {
				b = append(b, "["+c+"]")
			}
		}
	}
	if len(b) == 0 {
		return "-"
	}
	return strings.Join(b, " ")
}

func humanSize(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for v := n / unit; v >= unit; v /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "kMGTPE"[exp])
}

func newModelsPullCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "pull NAME",
		Short: "Download a model into Ollama, showing progress",
		Long: `Download a model from the Ollama registry (e.g. qwen3:4b). Progress goes to
stderr; the last line on stdout says the model is ready.`,
		Example: `  hearth models pull qwen3:4b
  hearth models pull ollama/nomic-embed-text`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			pr := &progressPrinter{w: e.stderr}
			err := e.app.Models.Pull(cmd.Context(), args[0], pr.print)
			if err != nil {
				return reportModelError(e, err)
			}
			fmt.Fprintf(e.stdout, "Pulled %s\n", args[0])
			return nil
		},
	}
}

// progressPrinter prints a line per status change and per 10 % of a download,
// so the output stays readable in a log as well as in a terminal.
type progressPrinter struct {
	w      io.Writer
	status string
	decile int64
}

func (p *progressPrinter) print(pp models.Progress) {
	if pp.Total > 0 {
		d := pp.Completed * 10 / pp.Total
		if pp.Status == p.status && d == p.decile {
			return
		}
		p.status, p.decile = pp.Status, d
		fmt.Fprintf(p.w, "%s  %3d%%  %s / %s\n", pp.Status, d*10, humanSize(pp.Completed), humanSize(pp.Total))
		return
	}
	if pp.Status == p.status {
		return
	}
	p.status, p.decile = pp.Status, -1
	fmt.Fprintln(p.w, pp.Status)
}

func newModelsRmCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:     "rm NAME...",
		Aliases: []string{"remove", "delete"},
		Short:   "Remove installed models",
		Example: `  hearth models rm llama3.2
  hearth models rm qwen3:0.6b qwen3:1.7b`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, name := range args {
				if err := e.app.Models.Delete(cmd.Context(), name); err != nil {
					return reportModelError(e, err)
				}
				fmt.Fprintf(e.stdout, "Removed %s\n", name)
			}
			return nil
		},
	}
}
