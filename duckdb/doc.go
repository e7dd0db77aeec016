// Package duckdb runs DuckDB queries into rows of Go struct types and
// writes rows of them into DuckDB tables, through DuckDB's Arrow interface
// (github.com/duckdb/duckdb-go/v2, built with -tags duckdb_arrow).
package duckdb
