//go:build linux && (desktop || dev)

package main

// The preamble of a file with an //export may only declare: this one is apart from
// webview_linux.go's C code for that reason.

/*
#include <stdint.h>
*/
import "C"

import "runtime/cgo"

// hearthWindowIdle is called by GTK's main loop when the window comes to rest after
// input (webview_linux.go): it runs the function lightenWebView was given, off the main
// loop.
//
//export hearthWindowIdle
func hearthWindowIdle(h C.uintptr_t) {
	if f, ok := cgo.Handle(h).Value().(func()); ok {
		go f()
	}
}
