// Package integration holds the tests and benchmarks that need real
// engines: arrow-go's SQLite-backed Flight SQL example server, in-process
// on 127.0.0.1, and ADBC's Flight SQL driver talking to it. It is a module
// of its own so that their dependencies (SQLite, the ADBC drivers) stay out
// of what a user of arrowmap downloads; `.ci/run` tests it, as does
// `go test ./...` run in this folder.
package integration
