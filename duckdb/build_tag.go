//go:build !duckdb_arrow

package duckdb

// DuckDB's Arrow interface is compiled into duckdb-go only with the build
// tag duckdb_arrow: without it, this package cannot be built, and says so
// in the compiler's error.
var _ = arrowmap_duckdb_needs_the_build_tag__go_build_tags_duckdb_arrow
