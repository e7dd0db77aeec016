package parquet

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// NewRecordFileReader reads the records of the size bytes of a Parquet
// file that r reads, every column of the row groups cfg selects, in
// records of cfg.BatchRows rows: OpenReaderAt without the Go type, for
// data whose schema is known only at run time, with its checks of a
// malformed footer, stored schema or column chunk, and of rows read
// against the footer's count. Columns the Writer stored as their storage
// type come back as written. Release the reader when done; r is the
// caller's to close, after.
func NewRecordFileReader(r io.ReaderAt, size int64, cfg ReadConfig) (array.RecordReader, error) {
	src, err := openSource(r, size, nil, "the Parquet data", cfg)
	if err != nil {
		return nil, err
	}
	cols := make([]int, src.pf.MetaData().Schema.Root().NumFields())
	for i := range cols {
		cols[i] = i
	}
	rr, err := src.records(cols)
	if err != nil {
		return nil, err
	}
	return rr, nil
}
