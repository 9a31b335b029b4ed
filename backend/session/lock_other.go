//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package session

import "os"

// Advisory locks are a no-op where flock does not exist; Hearth ships for
// Linux first and appends are single writes there anyway.
func flock(f *os.File, exclusive bool) error { return nil }

func funlock(f *os.File) error { return nil }
