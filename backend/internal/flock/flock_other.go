//go:build !unix

package flock

import "os"

// Lock is a no-op where flock does not exist: every file is still replaced whole by
// rename, and an append is one write.
func Lock(*os.File, bool) error { return nil }

// Unlock is Lock's no-op counterpart.
func Unlock(*os.File) error { return nil }
