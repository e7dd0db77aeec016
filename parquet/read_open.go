package parquet

import (
	"errors"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
)

// DefaultBatchRows is the number of rows of each record read when
// ReadConfig.BatchRows is 0: large enough that the per-record cost
// vanishes, small enough that a record of a wide row stays a few MiB.
const DefaultBatchRows = 64 << 10

// ErrNotParquet is wrapped by the error of opening a file that does not
// start with Parquet's magic bytes. A file that starts with them but lost
// its end (its footer) is a truncated file instead: its error is
// io.ErrUnexpectedEOF.
var ErrNotParquet = errors.New("not a Parquet file")

// ReadConfig is how a Parquet file is read, given among a reader's
// options: the size of the records decoded at a time, and which row
// groups. Without one (or with the zero value) a reader reads every row
// group in records of DefaultBatchRows rows.
type ReadConfig struct {
	// BatchRows is the number of rows of each record read from the file,
	// which bounds the memory a reader holds besides the column chunks of
	// one row group: 0 is DefaultBatchRows; it must not be negative.
	BatchRows int
	// RowGroups are the indexes of the row groups to read, in the order
	// given; nil reads them all, an empty non-nil slice none.
	RowGroups []int
	// KeepRowGroup, when not nil, is asked of each row group (of RowGroups)
	// before any of its data is read: a row group it reports false for is
	// skipped. It sees the row group's metadata only, so it decides on
	// column statistics (RowGroup.Column), never on rows.
	KeepRowGroup func(RowGroup) bool
	// KeepPage, when not nil, is asked of each data page of each leaf
	// column read, in each row group kept, before any page is read, from
	// the file's page index (Page): a row is read only when every page
	// holding it is kept, and the pages no row read needs are skipped,
	// never read (arrow-go's column readers seek past them by the offset
	// index). A column chunk without an offset index is read whole,
	// unasked; answer true for the pages of columns the predicate is not
	// on. Errors then count rows among the rows read.
	KeepPage func(Page) bool
	// MaxPageSize is the most bytes one page of the file may hold
	// uncompressed, which is what reading the page allocates at once: a
	// page header claiming more is an error wrapping ErrPageTooLarge that
	// names this field, the column and the page, before the page is read.
	// 0 is 64 MiB plus 64 times the file's size, at most 256 MiB: past any
	// page a writer makes of real data, and a bound on what a damaged
	// header can make the reader allocate. Raise it to read a file of
	// larger pages; it must not be negative.
	MaxPageSize int64
	// SkipPageChecksums reads the pages of the file without checking the
	// CRC a page header may carry. By default a page whose CRC does not
	// match its bytes (data or dictionary page, version 1 or 2) is an error
	// wrapping ErrChecksum that names the column and the page, and none of
	// its values is read.
	SkipPageChecksums bool
	// Int96Unit is the unit of the timestamps INT96 columns are read as:
	// INT96 is the deprecated type of Spark's and Impala's timestamps,
	// days and nanoseconds of the day, which nanoseconds hold only from
	// 1677 to 2262. nil reads them in the unit of the file's stored Arrow
	// schema, else in microseconds (as DuckDB and Spark do), the unit that
	// holds every date Spark writes. A value the unit cannot hold exactly
	// — a date past its range, nanoseconds below it — is an error naming
	// this field, the column and the row: never rounded.
	Int96Unit *arrow.TimeUnit

	// alloc allocates the memory read and decoded into: mapper.Allocator's,
	// nil for the reader's own pool; ratio is mapper.MaxExpansion's.
	alloc memory.Allocator
	ratio int64
}

// Open returns a Reader of the rows of the Parquet file at path as values
// of T. It reads only the columns T uses, and only the row groups the
// ReadConfig selects, in records of its BatchRows rows. The file's schema
// is checked against T, as mapper.New does, before any row is read: a
// field whose column is missing or of another type is an *mapper.Error
// naming both.
//
// opts are mapper.NewReader's options, a ReadConfig and mapper.Allocator
// for the memory read and decoded into. Without mapper.Allocator that
// memory is Go memory that the reader reuses from record to record (what
// arrow-go frees, the reader keeps for the next record), which more than
// halves what reading allocates; at Release it hands that memory to the
// next reader or Writer, so that reading file after file allocates it
// once. With mapper.ZeroCopy, rows alias that memory until the next Read,
// as they alias a record, and none after Release.
//
// The Reader holds the file open until Release, which closes it.
func Open[T any](path string, opts ...ReadOption) (*mapper.Reader[T], error) {
	c, err := parseRead("parquet.Open", opts, nil)
	if err != nil {
		return nil, err
	}
	src, err := openPath(path, c.Config)
	if err != nil {
		return nil, err
	}
	return rowsReader[T](src, c.Mapper)
}

// OpenReaderAt is Open for the size bytes of a Parquet file that r reads:
// an *os.File, a *bytes.Reader, an object store's ranged reader. The Reader
// does not close r. opts are Open's.
func OpenReaderAt[T any](r io.ReaderAt, size int64, opts ...ReadOption) (*mapper.Reader[T], error) {
	c, err := parseRead("parquet.OpenReaderAt", opts, nil)
	if err != nil {
		return nil, err
	}
	src, err := openSource(r, size, nil, "the Parquet data", c.Config)
	if err != nil {
		return nil, err
	}
	return rowsReader[T](src, c.Mapper)
}

// OpenColumns returns a ColumnsReader of the Parquet file at path: the
// columns C binds (see mapper.Columns), one record of ReadConfig.BatchRows
// rows at a time, reading only those columns and only the row groups the
// ReadConfig selects. The file's schema is checked against C before any
// record is read.
//
// opts are mapper.NewColumnsReader's options, a ReadConfig and
// mapper.Allocator, as for Open.
//
// The ColumnsReader holds the file open until Release, which closes it.
func OpenColumns[C any](path string, opts ...ReadOption) (*mapper.ColumnsReader[C], error) {
	c, err := parseRead("parquet.OpenColumns", opts, columnsOption)
	if err != nil {
		return nil, err
	}
	mopts := c.Mapper
	src, err := openPath(path, c.Config)
	if err != nil {
		return nil, err
	}
	schema, err := src.schema()
	if err != nil {
		src.close()
		return nil, err
	}
	cols, err := mapper.ColumnsIndexes[C](schema, mopts...)
	if err != nil {
		src.close()
		return nil, err
	}
	rr, err := src.records(cols)
	if err != nil {
		return nil, err
	}
	defer rr.Release() // the ColumnsReader retains its own reference
	return mapper.NewColumnsReader[C](rr, mopts...)
}

// ReadFile reads every row of the Parquet file at path as values of T, as
// Open and ReadAll do. opts are Open's but mapper.ZeroCopy: the rows
// outlive the file.
func ReadFile[T any](path string, opts ...ReadOption) ([]T, error) {
	c, err := parseRead("parquet.ReadFile", opts, notZeroCopy)
	if err != nil {
		return nil, err
	}
	src, err := openPath(path, c.Config)
	if err != nil {
		return nil, err
	}
	r, err := rowsReader[T](src, c.Mapper)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	return r.ReadAll()
}
