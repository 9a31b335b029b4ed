//go:build headless && !launcher

// The headless build is the CLI alone: no Wails import, so it links no GTK or WebKit and
// runs on servers. With no subcommand it prints help. (main_launcher.go is the same CLI
// carrying the desktop app: that is the `hearth` users run.)
package main

import (
	"os"

	"hearth/backend/cleanpages"
	"hearth/backend/cli"
	"hearth/backend/sandbox"
)

func main() {
	sandbox.HardenSelf()    // first: keys read later stay out of other processes' reach
	cleanpages.DropBinary() // what only the package initialisers ran: see the package
	os.Exit(cli.Main(os.Args[1:], buildInfo(), nil, os.Stdout, os.Stderr))
}
