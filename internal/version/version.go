// Package version is arrowmap's version, in the one place the Parquet
// writer (a file's created_by) and the command line (-version) take it
// from.
package version

// Version is arrowmap's version: the version of the next release, with
// "-dev", until it is released.
const Version = "0.1.0-dev"

// CreatedBy is what the Parquet files arrowmap writes say wrote them, in
// the form parquet.thrift asks of created_by and its readers parse
// ("<application> version <version> (build <hash>)", the build left out):
// arrow-go, parquet-mr (parquet-java) and the C++ reader distrust the
// statistics of some versions of parquet-mr and parquet-cpp only, by that
// name, and DuckDB reads no writer's version.
const CreatedBy = "arrowmap version " + Version
