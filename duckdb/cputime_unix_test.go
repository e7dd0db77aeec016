//go:build duckdb_arrow && unix

package duckdb_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used, user and system (DuckDB's
// threads and the collector's included): what a contender costs on a
// machine whose other work makes wall time drift.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
