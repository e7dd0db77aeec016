package parquet

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/arrowmap/arrowmap/mapper"
)

// NewReader returns a Reader of the rows of the Parquet file fr as values of
// T. Only the columns T uses are read: the leaf columns under each
// top-level field that a field of T maps to, in every row group in order.
// The schema is checked against T, as mapper.New does, before any data is
// read. Release the Reader when done.
//
// Records have fr.Props.BatchSize rows; when it is not set, one record
// holds the whole file, so set it to bound memory. Open and OpenReaderAt
// open the file themselves, with a bounded record size and row-group
// selection.
func NewReader[T any](ctx context.Context, fr *pqarrow.FileReader, opts ...mapper.Option) (*mapper.Reader[T], error) {
	leaves, err := parquetLeaves[T](fr, opts)
	if err != nil {
		return nil, err
	}
	rr, err := fr.GetRecordReader(ctx, leaves, nil)
	if err != nil {
		return nil, fmt.Errorf("arrowmap/parquet: reading parquet columns: %w", err)
	}
	defer rr.Release() // the Reader retains its own reference
	return mapper.NewReader[T](rr, opts...)
}

// parquetLeaves is the indexes of the Parquet leaf columns under the
// top-level fields that T reads, in increasing order.
func parquetLeaves[T any](fr *pqarrow.FileReader, opts []mapper.Option) ([]int, error) {
	schema, err := fr.Schema()
	if err != nil {
		return nil, fmt.Errorf("arrowmap/parquet: parquet schema: %w", err)
	}
	m, err := mapper.New[T](schema, opts...)
	if err != nil {
		return nil, err
	}
	return leafColumns(fr.ParquetReader().MetaData().Schema, m.ColumnIndexes()), nil
}
