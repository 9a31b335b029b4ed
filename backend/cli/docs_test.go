package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The command-line reference (docs/cli.md) names every command and every flag the
// binary has, so a new command or flag cannot ship undocumented.
func TestDocsListEveryCommand(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	var walk func(c *cobra.Command)
	commands := 0
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			return
		}
		path := c.CommandPath()
		if c.HasParent() {
			commands++
			if !strings.Contains(doc, "`"+path) {
				t.Errorf("docs/cli.md does not document `%s`", path)
			}
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Hidden || f.Name == "help" {
				return
			}
			if !strings.Contains(doc, "--"+f.Name) {
				t.Errorf("docs/cli.md does not document the flag --%s of `%s`", f.Name, path)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(Command(BuildInfo{}))
	if commands < 10 {
		t.Errorf("walked only %d commands: is the tree right?", commands)
	}
}
