// Package bench holds arrowmap's benchmarks, each measured side by side with
// the alternatives a user would otherwise reach for: a hand-written loop,
// arrow-go's own calls, arreflect, a JSON round trip.
//
// The package has no API; its benchmarks live in the _test files. To run them
// and get a markdown table of medians and ratios:
//
//	go run ./bench/report -bench Slice
//
// The DuckDB module's benchmarks (duckdb/bench_test.go) run the same way,
// from the repository's root:
//
//	go run ./bench/report -dir duckdb -tags duckdb_arrow -vs export,scan,appender
package bench
