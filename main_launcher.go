//go:build headless && launcher

// The launcher is the `hearth` users run (`make desktop`): the CLI of the headless build,
// so commands start without loading GTK and WebKit, carrying the desktop app
// (build/bin/hearth-desktop, gzip-compressed) for when the window is wanted. See
// backend/launch for why.
package main

import (
	_ "embed"
	"os"
	"path/filepath"

	"github.com/adrg/xdg"

	"hearth/backend/app"
	"hearth/backend/cleanpages"
	"hearth/backend/cli"
	"hearth/backend/launch"
	"hearth/backend/sandbox"
)

//go:embed build/bin/hearth-desktop.gz
var desktopImage []byte

func main() {
	sandbox.HardenSelf()    // first: keys read later stay out of other processes' reach
	cleanpages.DropBinary() // what only the package initialisers ran: see the package
	os.Exit(cli.Main(os.Args[1:], buildInfo(), openWindow, os.Stdout, os.Stderr))
}

// openWindow replaces this process with the desktop app, passing the command line on
// unchanged (--config, --workspace, --hidden, toolkit flags).
func openWindow(func() (*app.App, error)) error {
	self, err := os.Executable()
	if err != nil {
		self = os.Args[0]
	}
	return launch.Exec(desktopImage, filepath.Join(xdg.CacheHome, "hearth", "desktop"), self, os.Args)
}
