//go:build !duckdb_arrow

package duckdb

import "database/sql/driver"

// DuckDB's Arrow interface is compiled into duckdb-go only with the build
// tag duckdb_arrow. Without it the package builds, its API the same, and
// every entry point returns ErrNeedsBuildTag.

// hasArrow is whether this build has DuckDB's Arrow interface.
const hasArrow = false

func newArrow(driver.Conn) (arrowConn, error) { return nil, ErrNeedsBuildTag }
