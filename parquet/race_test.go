//go:build race

package parquet_test

// raceEnabled: the race detector slows and bloats allocation, so the memory
// bounds are not measured under it.
const raceEnabled = true
