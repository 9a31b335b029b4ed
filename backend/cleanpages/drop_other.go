//go:build !linux

package cleanpages

// DropBinary does nothing where there is no /proc/self/smaps to tell clean mappings apart.
func DropBinary() int64 { return 0 }

// DropAll does nothing where there is no /proc/self/smaps to tell clean mappings apart.
func DropAll() int64 { return 0 }
