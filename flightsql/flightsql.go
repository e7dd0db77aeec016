// Package flightsql runs Flight SQL queries into rows of Go struct types,
// and ingests rows of them into tables: SQL text or a prepared statement
// whose parameters are a []P encoded with mapper.Encode, each result read
// from every endpoint where it lives (package flight). It imports
// arrow-go's flightsql client, and nothing of Parquet or ADBC.
package flightsql

import (
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	amflight "github.com/arrowmap/arrowmap/flight"
	"github.com/arrowmap/arrowmap/mapper"
)

// Conn is a Flight SQL client and how the endpoints of its results are
// read: Source.Client defaults to Client.Client.
type Conn struct {
	Client *flightsql.Client
	Source amflight.Source
}

// Query runs query and reads its result, every endpoint of it, as rows of
// T: the schema is checked against T before any row is read.
func Query[T any](ctx context.Context, c Conn, query string, opts ...mapper.Option) (*mapper.Reader[T], error) {
	return nil, errors.New("arrowmap/flightsql: Query is not written yet")
}

// QueryWith prepares query, binds params (one row of parameters per
// element, encoded with mapper.Encode) and reads the result as rows of T.
func QueryWith[T, P any](ctx context.Context, c Conn, query string, params []P, opts ...mapper.Option) (*mapper.Reader[T], error) {
	return nil, errors.New("arrowmap/flightsql: QueryWith is not written yet")
}

// Ingest writes rows into table with ExecuteIngest and returns the number
// of rows the server says it wrote.
func Ingest[T any](ctx context.Context, c Conn, table Table, rows []T, opts ...mapper.Option) (int64, error) {
	return 0, errors.New("arrowmap/flightsql: Ingest is not written yet")
}

// Table names an ingest target and the table options of the protocol.
type Table struct {
	Name, Schema, Catalog string
	Temporary             bool
	// IfNotExist and IfExists are the protocol's table definition options.
	IfNotExist flightsql.TableDefinitionOptionsTableNotExistOption
	IfExists   flightsql.TableDefinitionOptionsTableExistsOption
	// Transaction, when set, ingests within it.
	Transaction []byte
	// Options are the protocol's free-form ingest options.
	Options map[string]string
}
