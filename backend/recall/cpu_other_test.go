//go:build !unix

package recall

import "time"

// cpuTime is not measured here: the CPU figure reads 0.
func cpuTime() time.Duration { return 0 }
