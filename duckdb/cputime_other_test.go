//go:build duckdb_arrow && !unix

package duckdb_test

import "time"

// cpuTime is not measured here: the benchmarks report a cpu-ms/op of 0.
func cpuTime() time.Duration { return 0 }
