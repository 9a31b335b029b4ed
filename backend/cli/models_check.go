package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"hearth/backend/fitness"
)

func newModelsCheckCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "check NAME",
		Short: "Check how well a model works with Hearth's tools (a few short requests)",
		Long: `Send a model a few short requests with one made-up tool (get_weather; it
never runs) and, if it does not call that, Hearth's own read_file on a scratch
file, and report whether it calls tools the way the server expects, only
through Hearth's text fallback, or not at all (an empty or failed reply is
asked again, and twice means "check failed": tools stay on); whether it leaves the tool alone
when no tool is needed; whether it answers after a tool result instead of calling
again; its speed in tokens per second; and its context maximum. The result is kept
(under $XDG_STATE_HOME/hearth/model-checks.json) and used: a model that cannot call
tools chats without them, unless a chat saw it make a structured call or you chose
"Offer tools anyway" in the Models view. The desktop app checks each model once by itself after
its first reply. NAME is an Ollama model (with or without "ollama/"), or
"openai/…" / "custom.<name>/…" for other providers.

Exit codes:
  0  checked (whatever the verdict)
  1  the check could not run: Ollama down, model missing, a probe timed out
  2  usage error`,
		Example: `  hearth models check qwen3:4b
  hearth models check ollama/llama3.2 --json`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !asJSON {
				fmt.Fprintf(e.stderr, "Checking %s (a few short requests; up to a minute on a slow machine)…\n", args[0])
			}
			r, err := e.app.Models.Check(cmd.Context(), args[0])
			if err != nil {
				return reportModelError(e, err)
			}
			if asJSON {
				return printJSON(e.stdout, r)
			}
			printCheck(e.stdout, r)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON (camelCase fields)")
	return cmd
}

// printCheck is the human report: the findings, a verdict line, the caveats and
// what each probe saw.
func printCheck(w io.Writer, r fitness.Result) {
	yesNo := func(ok bool, yes, no string) string {
		if ok {
			return yes
		}
		return no
	}
	calls := map[fitness.CallStyle]string{
		fitness.CallsStructured: "yes, structured (the server reads them)",
		fitness.CallsText:       "yes, as text (Hearth's fallback reads them)",
		fitness.CallsNone:       "no",
		fitness.CallsUnknown:    "unknown (the replies were empty or failed; tools stay on)",
	}[r.ToolCalls]
	speed, window := "unknown", "unknown"
	if r.TokensPerSecond > 0 {
		speed = fmt.Sprintf("%.1f tokens/s", r.TokensPerSecond)
	}
	if r.ContextMax > 0 {
		window = fmt.Sprintf("%d tokens", r.ContextMax)
	}
	fmt.Fprintf(w, "Model:         %s\n", r.Model)
	fmt.Fprintf(w, "Tool calls:    %s\n", calls)
	if r.ToolCalls == fitness.CallsStructured || r.ToolCalls == fitness.CallsText {
		fmt.Fprintf(w, "Restraint:     %s\n", yesNo(r.Restraint, "yes (no tool for \"2 + 2\")", "no (it called the tool for \"2 + 2\")"))
		fmt.Fprintf(w, "After result:  %s\n", yesNo(r.StopsAfterResult, "answers", "calls the tool again"))
	}
	fmt.Fprintf(w, "Speed:         %s\n", speed)
	fmt.Fprintf(w, "Context max:   %s\n", window)
	fmt.Fprintf(w, "Verdict:       %s\n", r.Headline())
	for _, c := range r.CaveatTexts() {
		fmt.Fprintf(w, "  but %s\n", c)
	}
	if len(r.Notes) > 0 {
		fmt.Fprintf(w, "What it did:\n  - %s\n", strings.Join(r.Notes, "\n  - "))
	}
}
