// Command samples writes testdocs.Samples into a folder: the browser e2e attaches
// each kind of document Hearth reads from there.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"hearth/backend/internal/testdocs"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: samples DIR")
		os.Exit(2)
	}
	for name, data := range testdocs.Samples() {
		if err := os.WriteFile(filepath.Join(os.Args[1], name), data, 0o600); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
