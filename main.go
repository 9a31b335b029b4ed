//go:build !headless

// main.go is wiring only: the CLI decides what to run; with no subcommand it calls
// runDesktop, which starts the Wails window around the backend service.
package main

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"os"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"

	"hearth/backend/app"
	"hearth/backend/applock"
	"hearth/backend/cleanpages"
	"hearth/backend/cli"
	"hearth/backend/sandbox"
	"hearth/backend/winstate"
)

//go:embed all:frontend/dist
var assets embed.FS

//go:embed build/appicon.png
var icon []byte

// uniqueID names the D-Bus single-instance endpoint Wails registers.
const uniqueID = "io.hearth.desktop"

func main() {
	sandbox.HardenSelf()    // first: keys read later stay out of other processes' reach
	cleanpages.DropBinary() // what only the package initialisers ran: see the package
	os.Exit(cli.Main(os.Args[1:], buildInfo(), runDesktop, os.Stdout, os.Stderr))
}

func runDesktop(open func() (*app.App, error)) error {
	h, err := open()
	if err != nil {
		return err
	}
	lock, err := applock.Acquire(h.Settings.Paths().LockFile)
	var held *applock.HeldError
	if errors.As(err, &held) && applock.SecondDesktop(held.Holder) == applock.StepRefuse {
		return refuseBesideService(h, held.Holder) // `hearth serve` runs: no window to focus
	}
	if errors.Is(err, applock.ErrHeld) {
		// Another Hearth window is open: bring it forward instead of opening a second one.
		if ferr := applock.Focus(uniqueID, os.Args[1:]); ferr != nil {
			return fmt.Errorf("%w; could not bring its window forward: %v", err, ferr)
		}
		fmt.Fprintln(os.Stderr, "Hearth is already running; its window was brought forward.")
		return nil
	}
	if err != nil {
		return err
	}
	defer lock.Release()

	winPath := h.Settings.Paths().WindowFile
	win, werr := winstate.Load(winPath)
	facade := NewApp(h, winPath, win, werr)
	bg := newDesktopBackground(facade, h, lock)
	state := options.Normal
	if win.Maximised {
		state = options.Maximised
	}
	lightenWebView(h.Rest)
	return wails.Run(&options.App{
		Title:            "Hearth",
		Width:            win.Width,
		Height:           win.Height,
		MinWidth:         winstate.MinWidth,
		MinHeight:        winstate.MinHeight,
		WindowStartState: state,
		AssetServer:      &assetserver.Options{Assets: assets},
		BackgroundColour: &options.RGBA{R: 24, G: 22, B: 20, A: 255},
		StartHidden:      startHidden(),
		OnStartup:        bg.startup,
		OnDomReady:       func(context.Context) { logWebViewTuned() },
		OnBeforeClose:    bg.beforeClose,
		OnShutdown:       bg.shutdown,
		Bind:             facade.bound(),
		ErrorFormatter:   userError,
		// The native drop hands over the dropped files' paths (wails:file-drop), so a
		// file of any size attaches as a picked one does; the page's own drop stays
		// on for pictures' bytes (docs/files.md).
		DragAndDrop: &options.DragAndDrop{EnableFileDrop: true},
		SingleInstanceLock: &options.SingleInstanceLock{
			UniqueId:               uniqueID,
			OnSecondInstanceLaunch: facade.secondInstance,
		},
		Linux: &linux.Options{
			Icon:             icon,
			ProgramName:      "hearth",
			WebviewGpuPolicy: linux.WebviewGpuPolicyNever,
		},
	})
}
