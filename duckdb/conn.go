//go:build duckdb_arrow

package duckdb

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"

	"github.com/duckdb/duckdb-go/v2"
)

// DB is what every entry point runs on: a *sql.DB opened with duckdb-go's
// driver (sql.Open("duckdb", dsn), or sql.OpenDB of a duckdb.Connector),
// of whose pool each call takes a connection for as long as it reads or
// writes; or a *sql.Conn of one, which the call uses as it is, one call at
// a time, as every use of a *sql.Conn is.
type DB interface{ *sql.DB | *sql.Conn }

// session is the connection one call holds, with DuckDB's Arrow interface
// on it.
type session struct {
	conn  *sql.Conn
	owned bool // taken from a *sql.DB's pool: returned to it at close
	arrow *duckdb.Arrow
}

// open takes the connection of a call from db.
func open[D DB](ctx context.Context, entry string, db D) (*session, error) {
	s := &session{}
	switch d := any(db).(type) {
	case *sql.DB:
		if d == nil {
			return nil, fmt.Errorf("arrowmap/duckdb: %s: nil *sql.DB", entry)
		}
		conn, err := d.Conn(ctx)
		if err != nil {
			return nil, fmt.Errorf("arrowmap/duckdb: %s: a connection of the pool: %w", entry, err)
		}
		s.conn, s.owned = conn, true
	case *sql.Conn:
		if d == nil {
			return nil, fmt.Errorf("arrowmap/duckdb: %s: nil *sql.Conn", entry)
		}
		s.conn = d
	}
	err := s.conn.Raw(func(dc any) error {
		c, ok := dc.(driver.Conn)
		if !ok {
			return errNotDuckDB
		}
		a, err := duckdb.NewArrowFromConn(c)
		if err != nil {
			if strings.Contains(err.Error(), "not a duckdb driver connection") {
				return fmt.Errorf("%w (%T)", errNotDuckDB, dc)
			}
			return err
		}
		s.arrow = a
		return nil
	})
	if err != nil {
		s.close()
		return nil, fmt.Errorf("arrowmap/duckdb: %s: %w", entry, err)
	}
	return s, nil
}

var errNotDuckDB = errors.New("not a connection of duckdb-go's driver")

// close returns a connection taken from a pool to it; the caller's own
// *sql.Conn stays open.
func (s *session) close() error {
	if s.owned {
		return s.conn.Close()
	}
	return nil
}
