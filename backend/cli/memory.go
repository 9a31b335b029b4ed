package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

func newMemoryCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "memory",
		Short: "Search the memory, list and undo its changes",
		Long: `Hearth's memory is plain Markdown in the workspace: memory/MEMORY.md (lasting
facts, always in the prompt), memory/HISTORY.md (dated entries) and daily notes
memory/YYYY-MM-DD.md. The recall index over HISTORY.md, daily notes, other
Markdown notes of the workspace and archived chats is a cache of those files.

Exit codes:
  0  done
  1  the search or rebuild failed
  2  usage error`,
		Example: `  hearth memory search "when did I renew the passport"
  hearth memory search -k 10 --json dentist
  hearth memory reindex
  hearth memory log MEMORY.md
  hearth memory restore 3f2a9c1^ MEMORY.md`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newMemorySearchCmd(e), newMemoryReindexCmd(e), newMemoryLogCmd(e), newMemoryDiffCmd(e), newMemoryRestoreCmd(e), newMemoryDreamCmd(e))
	return cmd
}

func newMemorySearchCmd(e *env) *cobra.Command {
	var k int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "search QUERY",
		Short: "Search history, daily notes, notes and archived chats",
		Long: `Search the recall index (brought up to date with the files first). With an
embedding model (agents.defaults.embeddingModel) the search is hybrid: meaning
and words; without one, or when it is not reachable, it is a keyword (BM25)
search and says so.`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			q := strings.TrimSpace(strings.Join(args, " "))
			if q == "" {
				return usageError{fmt.Errorf("the query is empty")}
			}
			res, err := e.app.Memory.Search(cmd.Context(), q, k)
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(e.stdout, res)
			}
			fmt.Fprintln(e.stdout, res)
			return nil
		},
	}
	cmd.Flags().IntVarP(&k, "k", "k", 0, "number of results (default 5)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the results as JSON")
	return cmd
}

func newMemoryReindexCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "reindex",
		Short: "Rebuild the recall index from the files",
		Long: `Drop the cached recall index and rebuild it from the Markdown files and the
archived chats (embedding every chunk again when an embedding model is set).`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			rep, err := e.app.Memory.Reindex(cmd.Context())
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "Indexed %d chunks from %d sources in %v (%s search", rep.Chunks, rep.Files, rep.Duration.Round(1e6), rep.Mode)
			if rep.Vectors > 0 {
				fmt.Fprintf(e.stdout, ", %d vectors", rep.Vectors)
			}
			fmt.Fprintln(e.stdout, ").")
			if rep.EmbedError != "" {
				fmt.Fprintf(e.stdout, "Embeddings failed, keyword search only: %s\n", rep.EmbedError)
			}
			// The rebuild dropped the knowledge folders' passages too: they are read again.
			return e.app.Knowledge.Refresh(cmd.Context(), "")
		},
	}
}

// finishBackground lets a consolidation the run started end before the
// process exits, and says so; Ctrl-C (ctx) cancels it before it writes
// anything, deferring it to the next run.
func finishBackground(ctx context.Context, e *env, sessionID string) {
	if e.app.Memory.Consolidations().Pending() == 0 {
		return
	}
	fmt.Fprintln(e.stderr, "(saving older messages of this chat to memory… Ctrl-C leaves it for the next run)")
	if err := e.app.Memory.Consolidations().Wait(ctx); err != nil {
		fmt.Fprintln(e.stderr, "(memory not updated: deferred to the next run)")
		return
	}
	if err := e.app.Memory.TakeFailure(sessionID); err != nil {
		fmt.Fprintf(e.stderr, "(memory not updated: %v; tried again next time)\n", err)
		return
	}
	fmt.Fprintln(e.stderr, "(memory updated)")
}
