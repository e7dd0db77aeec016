// Package version is arrowmap's version, in the one place the Parquet
// writer (a file's created_by) and the command line (-version) take it
// from.
package version

// Version is arrowmap's version: the version of the last release, tagged
// v<Version> (and duckdb/v<Version> for the DuckDB module); between
// releases, the next one's with "-dev".
const Version = "0.1.0"

// CreatedBy is what the Parquet files arrowmap writes say wrote them, in
// the form parquet.thrift asks of created_by and its readers parse
// ("<application> version <version> (build <hash>)", the build left out):
// arrow-go, parquet-mr (parquet-java) and the C++ reader distrust the
// statistics of some versions of parquet-mr and parquet-cpp only, by that
// name, and DuckDB reads no writer's version.
const CreatedBy = "arrowmap version " + Version
