//go:build duckdb_arrow

package duckdb

import (
	"database/sql/driver"
	"fmt"
	"strings"

	"github.com/duckdb/duckdb-go/v2"
)

// hasArrow is whether this build has DuckDB's Arrow interface.
const hasArrow = true

// newArrow is DuckDB's Arrow interface on c.
func newArrow(c driver.Conn) (arrowConn, error) {
	a, err := duckdb.NewArrowFromConn(c)
	if err != nil {
		if strings.Contains(err.Error(), "not a duckdb driver connection") {
			return nil, fmt.Errorf("%w (%T)", errNotDuckDB, c)
		}
		return nil, err
	}
	return a, nil
}
