//go:build !unix

package config

// lockFile is a no-op where flock does not exist; the atomic rename still keeps every
// write whole. (A Windows LockFileEx version can come with a Windows build.)
func lockFile(string) (func(), error) { return func() {}, nil }
