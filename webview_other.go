//go:build !headless && !(linux && (desktop || dev))

package main

// Builds without a real web view (tests, where Wails compiles its stub; the bindings
// generator; other systems) have nothing to lighten, and must not need GTK's headers:
// `go test ./...` and `go vet ./...` run on machines with no WebKitGTK development files.

func lightenWebView() {}

func logWebViewTuned() {}

func trimCHeap() {}
