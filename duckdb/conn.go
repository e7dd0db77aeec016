package duckdb

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// DB is what every entry point runs on: a *sql.DB opened with duckdb-go's
// driver (sql.Open("duckdb", dsn), or sql.OpenDB of a duckdb.Connector),
// of whose pool each call takes a connection for as long as it reads or
// writes; or a *sql.Conn of one, which the call uses as it is, one call at
// a time, as every use of a *sql.Conn is.
type DB interface{ *sql.DB | *sql.Conn }

// ErrNeedsBuildTag is the error of every entry point in a build without
// the tag duckdb_arrow, which compiles DuckDB's Arrow interface into
// duckdb-go: the package builds without it (so that go doc, go vet and a
// program that does not call it build), and works with it.
var ErrNeedsBuildTag = errors.New("DuckDB's Arrow interface is not in this build: build with -tags duckdb_arrow")

// needsArrow is ErrNeedsBuildTag, naming entry, in a build without DuckDB's
// Arrow interface; nil in one with it.
func needsArrow(entry string) error {
	if hasArrow {
		return nil
	}
	return fmt.Errorf("arrowmap/duckdb: %s: %w", entry, ErrNeedsBuildTag)
}

// session is the connection one call holds, with DuckDB's Arrow interface
// on it.
type session struct {
	conn  *sql.Conn
	owned bool // taken from a *sql.DB's pool: returned to it at close
	arrow arrowConn
}

// arrowConn is DuckDB's Arrow interface on one connection, duckdb-go's
// *duckdb.Arrow (arrow.go), which only a build with the tag duckdb_arrow
// has.
type arrowConn interface {
	QueryContext(ctx context.Context, query string, args ...any) (array.RecordReader, error)
	RegisterView(reader array.RecordReader, name string) (release func(), err error)
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
		a, err := newArrow(c)
		if err != nil {
			return err
		}
		s.arrow = a
		return nil
	})
	if err == nil {
		err = checkVersion(ctx, s.conn)
	}
	if err != nil {
		s.close()
		return nil, fmt.Errorf("arrowmap/duckdb: %s: %w", entry, err)
	}
	return s, nil
}

var errNotDuckDB = errors.New("not a connection of duckdb-go's driver")

// ErrUntestedDuckDB is the error of every entry point in a program that
// links another DuckDB release than the one this package is tested with
// (1.5, which the duckdb-go this module requires links): one whose build
// takes a newer duckdb-go. DuckDB 2.0 hides the rows of an ingest of a
// row group or more from its scans (count(*) shows them, SUM and SELECT
// do not) and fails COMMITs after an Arrow view.
var ErrUntestedDuckDB = errors.New("a DuckDB release arrowmap/duckdb is not tested with")

// testedDuckDB is the DuckDB release this package is tested with, which
// the duckdb-go this module requires (v2.10506.0) links.
const testedDuckDB = "v1.5"

// linked is the version of the DuckDB library in the process, once one
// connection has said it.
var linked struct {
	sync.Mutex
	version string
}

// checkVersion refuses a DuckDB library of another release than
// testedDuckDB, asking conn the first time.
func checkVersion(ctx context.Context, conn *sql.Conn) error {
	linked.Lock()
	defer linked.Unlock()
	if linked.version == "" {
		if err := conn.QueryRowContext(ctx, "SELECT library_version FROM pragma_version()").Scan(&linked.version); err != nil {
			return fmt.Errorf("DuckDB's version: %w", err)
		}
	}
	return supported(linked.version)
}

// supported is nil for a version of the testedDuckDB release.
func supported(version string) error {
	if version == testedDuckDB || strings.HasPrefix(version, testedDuckDB+".") {
		return nil
	}
	return fmt.Errorf("%w: this program links DuckDB %s, and arrowmap/duckdb is tested with DuckDB %s only: require github.com/duckdb/duckdb-go/v2 v2.10506.0",
		ErrUntestedDuckDB, version, testedDuckDB)
}

// parameters is the number of parameters query takes, as DuckDB's prepared
// statement says (its highest $n, or its count of ?), or -1 when the
// driver does not say.
func (s *session) parameters(ctx context.Context, query string) (int, error) {
	n := -1
	err := s.conn.Raw(func(dc any) error {
		c, ok := dc.(driver.ConnPrepareContext)
		if !ok {
			return nil
		}
		stmt, err := c.PrepareContext(ctx, query)
		if err != nil {
			return err
		}
		n = stmt.NumInput()
		return stmt.Close()
	})
	return n, err
}

// close returns a connection taken from a pool to it; the caller's own
// *sql.Conn stays open.
func (s *session) close() error {
	if s.owned {
		return s.conn.Close()
	}
	return nil
}
