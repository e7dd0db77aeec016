// Package adbc runs ADBC queries into rows of Go struct types and ingests
// rows of them in bulk, through any ADBC driver (Flight SQL, Snowflake,
// BigQuery, DuckDB, PostgreSQL): a statement's ExecuteQuery reader decoded
// into T, parameters bound from a []P encoded with mapper.Encode, and bulk
// ingest through Bind and the ingest target option. It imports
// github.com/apache/arrow-adbc/go/adbc only.
package adbc

import (
	"context"
	"errors"

	"github.com/apache/arrow-adbc/go/adbc"
	"github.com/arrowmap/arrowmap/mapper"
)

// Query runs query on cnxn and reads its result as rows of T.
func Query[T any](ctx context.Context, cnxn adbc.Connection, query string, opts ...mapper.Option) (*mapper.Reader[T], error) {
	return nil, errors.New("arrowmap/adbc: Query is not written yet")
}

// QueryWith runs query with params bound (one row of parameters per
// element) and reads its result as rows of T.
func QueryWith[T, P any](ctx context.Context, cnxn adbc.Connection, query string, params []P, opts ...mapper.Option) (*mapper.Reader[T], error) {
	return nil, errors.New("arrowmap/adbc: QueryWith is not written yet")
}

// Ingest writes rows into table in bulk and returns the rows written.
func Ingest[T any](ctx context.Context, cnxn adbc.Connection, table string, mode IngestMode, rows []T, opts ...mapper.Option) (int64, error) {
	return 0, errors.New("arrowmap/adbc: Ingest is not written yet")
}

// IngestMode is ADBC's ingest mode option: create, append, replace or
// create_append.
type IngestMode string

// The ingest modes of ADBC.
const (
	Create       IngestMode = IngestMode(adbc.OptionValueIngestModeCreate)
	Append       IngestMode = IngestMode(adbc.OptionValueIngestModeAppend)
	Replace      IngestMode = IngestMode(adbc.OptionValueIngestModeReplace)
	CreateAppend IngestMode = IngestMode(adbc.OptionValueIngestModeCreateAppend)
)
