//go:build !unix

package integration

import "time"

// cpuTime is not measured here: BenchmarkFlightSQLRounds reports 0.
func cpuTime() time.Duration { return 0 }
