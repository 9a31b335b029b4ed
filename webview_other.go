//go:build !headless && !(linux && (desktop || dev))

package main

import (
	"context"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// Builds without a real web view (tests, where Wails compiles its stub; the bindings
// generator; other systems) have nothing to lighten, and must not need GTK's headers:
// `go test ./...` and `go vet ./...` run on machines with no WebKitGTK development files.

func lightenWebView(func()) {}

func logWebViewTuned() {}

func trimCHeap() {}

func resizeWindow(ctx context.Context, width, height int) { runtime.WindowSetSize(ctx, width, height) }
