// Command manpage writes the man pages of the hearth command line (hearth.1 and one page
// per command, hearth-status.1, …) from the cobra command tree, for `make install` and
// the Debian package. Its own program so cobra/doc and its Markdown renderer stay out of
// the hearth binary.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra/doc"

	"hearth/backend/cli"
)

func main() {
	out := flag.String("out", "", "folder for the pages (created)")
	version := flag.String("version", "", "the version the pages name")
	date := flag.Int64("date", 0, "the pages' date as a Unix time (the commit's, for the same pages from the same sources)")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "manpage: -out is required")
		os.Exit(2)
	}
	if err := write(*out, *version, *date); err != nil {
		fmt.Fprintln(os.Stderr, "manpage:", err)
		os.Exit(1)
	}
}

func write(dir, version string, unix int64) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	t := time.Now().UTC()
	if unix > 0 {
		t = time.Unix(unix, 0).UTC()
	}
	root := cli.Command(cli.BuildInfo{Version: version})
	root.DisableAutoGenTag = true // no "generated on <today>" line: same sources, same pages
	return doc.GenManTree(root, &doc.GenManHeader{
		Title:   "HEARTH",
		Section: "1",
		Date:    &t,
		Source:  "Hearth " + version,
		Manual:  "Hearth Manual",
	}, dir)
}
