//go:build !linux

package sandbox

// HardenSelf has nothing to do on this system.
func HardenSelf() {}
