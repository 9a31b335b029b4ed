//go:build !linux

package secrets

// scrubProcEnviron has nothing more to do where no /proc shows the environment.
func scrubProcEnviron([]string) {}
