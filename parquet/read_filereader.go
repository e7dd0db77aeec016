package parquet

import (
	"errors"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/arrowmap/arrowmap/internal/options"
	"github.com/arrowmap/arrowmap/mapper"
)

// NewReader returns a Reader of the rows of the Parquet file fr as values of
// T. Only the columns T uses are read: the leaf columns under each
// top-level field that a field of T maps to, in every row group in order.
// The schema is checked against T, as mapper.New does, before any data is
// read, and the footer is checked as Open checks it (the Arrow schema it
// stores pqarrow.NewFileReader has decoded already). Release the Reader
// when done.
//
// Records have fr.Props.BatchSize rows; when it is not set, one record
// holds the whole file, so set it to bound memory. Open and OpenReaderAt
// open the file themselves, with a bounded record size and row-group
// selection.
//
// Like Open, it takes no context: a file is read, not asked of a server;
// pqarrow is given context.Background().
//
// opts are mapper.NewReader's options. fr allocates what it reads, with
// the allocator given to pqarrow.NewFileReader: mapper.Allocator, which
// could not act on it, is refused, as a ReadConfig is.
func NewReader[T any](fr *pqarrow.FileReader, opts ...ReadOption) (*mapper.Reader[T], error) {
	c, err := parseRead("parquet.NewReader", opts, options.Not[mapper.AllocatorOption, mapper.ReadOption])
	if err != nil {
		return nil, err
	}
	if c.HasConfig {
		return nil, mapper.OptionError("parquet.NewReader", c.Config)
	}
	if fr == nil {
		return nil, errors.New("arrowmap/parquet: NewReader: nil pqarrow.FileReader")
	}
	pf := fr.ParquetReader()
	if err := checkFooter(pf, pf.MetaData().GetSourceFileSize(), int64(pf.MetaData().Size()), "the Parquet data", nil); err != nil {
		return nil, err
	}
	// Through a source, as Open reads: columns the Writer stored as their
	// storage type (durations as int64) read back as T's.
	src, err := newSource(pf, fr, nil, "the Parquet data", ReadConfig{}, memory.DefaultAllocator, nil)
	if err != nil {
		return nil, err
	}
	src.sized = false // records of fr.Props.BatchSize rows, as documented
	return rowsReader[T](src, c.Mapper)
}
