//go:build !duckdb_arrow

package main

// DuckDB's Arrow interface is compiled only with the build tag
// duckdb_arrow: go run -tags duckdb_arrow .
var _ = examples_duckdb_needs_the_build_tag__go_run_tags_duckdb_arrow
