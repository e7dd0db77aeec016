package parquet

import (
	"fmt"
	"io"
	"slices"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/arrowmap/arrowmap/internal/options"
	"github.com/arrowmap/arrowmap/mapper"
)

// OpenRecords returns a reader of the records of the Parquet file at path,
// every column, with the Arrow types the file stores (what Open restores
// for rows of T): for data whose Go type is not known when the program is
// built. Its records have ReadConfig.BatchRows rows, of the row groups
// ReadConfig selects; its Release closes the file. opts are a ReadConfig
// and mapper.Allocator.
//
// The reader is a mapper.RowsHinter: RowsHint is the rows it reads in
// all, as the footer says (of the row groups selected), known before the
// first record is read.
func OpenRecords(path string, opts ...ReadOption) (array.RecordReader, error) {
	c, err := parseRead("parquet.OpenRecords", opts, recordsOption)
	if err != nil {
		return nil, err
	}
	cfg := c.Config
	src, err := openPath(path, cfg)
	if err != nil {
		return nil, err
	}
	return src.everyColumn()
}

// OpenRecordsReaderAt is OpenRecords for the size bytes of a Parquet file
// that r reads. The reader does not close r.
func OpenRecordsReaderAt(r io.ReaderAt, size int64, opts ...ReadOption) (array.RecordReader, error) {
	c, err := parseRead("parquet.OpenRecordsReaderAt", opts, recordsOption)
	if err != nil {
		return nil, err
	}
	cfg := c.Config
	src, err := openSource(r, size, nil, "the Parquet data", cfg)
	if err != nil {
		return nil, err
	}
	return src.everyColumn()
}

// everyColumn is the reader of the records of every column of src, which
// it owns.
func (s *source) everyColumn() (array.RecordReader, error) {
	all := make([]int, s.pf.MetaData().Schema.Root().NumFields())
	for i := range all {
		all[i] = i
	}
	rr, err := s.records(all)
	if err != nil {
		return nil, err
	}
	return rr, nil
}

// ReadSchema reads the Arrow schema of the size bytes of a Parquet file
// that r reads from its footer alone, with the types the file stores: the
// schema OpenRecords's records have.
func ReadSchema(r io.ReaderAt, size int64) (*arrow.Schema, error) {
	src, err := openSource(r, size, nil, "the Parquet data", ReadConfig{})
	if err != nil {
		return nil, err
	}
	defer src.close()
	return src.schema()
}

var _ interface {
	array.RecordReader
	mapper.BackedRowsHinter
} = (*fileRecords)(nil)

// rowsReader is the Reader of the columns T reads from src, which it owns
// from then on.
func rowsReader[T any](src *source, opts []mapper.ReadOption) (*mapper.Reader[T], error) {
	schema, err := src.schema()
	if err != nil {
		src.close()
		return nil, err
	}
	m, err := mapper.New[T](schema, options.Without[mapper.MaxExpansionOption](opts)...)
	if err != nil {
		src.close()
		return nil, err
	}
	rr, err := src.records(m.ColumnIndexes())
	if err != nil {
		return nil, err
	}
	defer rr.Release() // the Reader retains its own reference
	return mapper.NewReader[T](rr, opts...)
}

// fileRecords is the record reader of a source: its last Release closes
// the file, and a panic of arrow-go's decoding on a malformed column chunk
// becomes an error of Next.
type fileRecords struct {
	rr   recordReader
	src  *source
	refs atomic.Int64
	err  error
	// The schema of the records as written, which columns differ from
	// pqarrow's, and the current record converted when any does.
	restored *arrow.Schema
	differ   []bool
	convert  bool
	rewrap   bool // the schema differs from pqarrow's but for the types
	cur      arrow.RecordBatch
	// rows read before the current record, for errors, and in all at
	// the end, against the footer's count.
	rows int64
	// backed is RowsHintBytes, which the budget of each record is of:
	// counted once, as the row groups and leaves read are set.
	backed int64
}

// recordReader is what fileRecords needs of pqarrow's record reader.
type recordReader interface {
	Schema() *arrow.Schema
	Next() bool
	RecordBatch() arrow.RecordBatch
	Err() error
	Release()
}

func newFileRecords(rr recordReader, src *source, cols []int) *fileRecords {
	r := &fileRecords{rr: rr, src: src}
	r.restored, r.differ = src.restored(rr.Schema(), cols)
	r.convert = slices.Contains(r.differ, true)
	r.rewrap = !r.restored.Equal(rr.Schema()) || !r.restored.Metadata().Equal(rr.Schema().Metadata())
	r.refs.Store(1)
	r.backed = r.RowsHintBytes()
	return r
}

// RowsHint is the rows of the row groups read, as the footer says: it
// makes the records a mapper.RowsHinter, so that ReadAll (and ReadFile)
// sizes its result once. checkRowsRead holds the file to it at the end.
func (r *fileRecords) RowsHint() int64 { return r.src.numRows() }

// RowsHintBytes is the bytes of the column chunks read (of the leaf
// columns read, in the row groups read) as the footer says, no more than
// the file's: checkFooter holds each chunk inside the file. It makes the
// records a mapper.BackedRowsHinter, so that ReadAll trusts the footer's
// count of rows at once as far as those bytes back it: a result of
// millions of rows is made once, not grown.
func (r *fileRecords) RowsHintBytes() int64 {
	s := r.src
	md := s.pf.MetaData()
	var n int64
	for _, g := range s.rowGroups {
		rg := md.RowGroup(g)
		for _, leaf := range s.readLeaves {
			col, err := rg.ColumnChunk(leaf)
			if err != nil {
				return -1
			}
			n = min(n+max(col.TotalCompressedSize(), 0), s.size)
		}
	}
	return n
}

// SizeNextRecord asks for the next record to hold about rows rows, as
// mapper.RecordSizer says, so that a Reader reading pages of n rows holds
// a record of about n rows rather than of DefaultBatchRows: at least
// minSizedRecordRows, at most DefaultBatchRows. It does nothing when
// ReadConfig.BatchRows was given (every record has those rows) or the
// file came through NewReader (its records have the FileReader's batch
// size).
func (r *fileRecords) SizeNextRecord(rows int) {
	if s, ok := r.rr.(*sizedRecords); ok && r.src.sized {
		s.SizeNextRecord(rows)
	}
}

func (r *fileRecords) Retain() { r.refs.Add(1) }

func (r *fileRecords) Release() {
	if r.refs.Add(-1) == 0 {
		r.releaseCurrent()
		r.rr.Release()
		r.src.close()
	}
}

func (r *fileRecords) releaseCurrent() {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
}

func (r *fileRecords) Schema() *arrow.Schema { return r.restored }

func (r *fileRecords) Next() (ok bool) {
	r.releaseCurrent()
	if r.err != nil {
		return false
	}
	// pqarrow reads the columns on this goroutine (its Parallel property is
	// off), so a panic on malformed data can be caught here, and so can the
	// budget's of a record that would allocate too much.
	backed := r.backed
	r.src.budget.open(r.src.recordBudget(backed))
	defer func() {
		r.src.budget.close()
		switch p := recover().(type) {
		case nil:
		case overBudget:
			r.err, ok = p.tooLarge(r.src, r.rows, backed), false
		default:
			r.err, ok = fmt.Errorf("arrowmap/parquet: %s: %w: a malformed column chunk (%v)", r.src.name, mapper.ErrInvalidData, p), false
		}
	}()
	if !r.rr.Next() {
		r.err = r.src.checkRowsRead(r.rows, r.rr.Err())
		return false
	}
	rec := r.rr.RecordBatch()
	if r.cur, r.err = r.fromStorage(rec); r.err != nil {
		return false
	}
	r.rows += rec.NumRows()
	return true
}

// fromStorage is rec, as pqarrow reads it, as written: the columns that
// differ converted, the others as they are.
func (r *fileRecords) fromStorage(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	if !r.convert {
		return nil, nil
	}
	cols := make([]arrow.Array, rec.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, c := range rec.Columns() {
		if !r.differ[i] {
			c.Retain()
			cols[i] = c
			continue
		}
		name := r.restored.Field(i).Name
		if err := checkLayout(c, name, r.rows); err != nil {
			return nil, fmt.Errorf("arrowmap/parquet: %s: %w", r.src.name, err)
		}
		var err error
		if cols[i], err = convert(c, r.restored.Field(i).Type, r.src.mem); err != nil {
			return nil, fmt.Errorf("arrowmap/parquet: %s: %w", r.src.name, columnError(name, r.rows, err))
		}
	}
	return array.NewRecordBatch(r.restored, cols, rec.NumRows()), nil
}

func (r *fileRecords) RecordBatch() arrow.RecordBatch {
	if r.err != nil {
		return nil
	}
	if r.cur != nil {
		return r.cur
	}
	if rec := r.rr.RecordBatch(); rec != nil && r.rewrap {
		// The same columns, pqarrow's types the same as written but for
		// the schema's metadata.
		r.cur = array.NewRecordBatch(r.restored, rec.Columns(), rec.NumRows())
		return r.cur
	}
	return r.rr.RecordBatch()
}

// Record is RecordBatch, for the older name in array.RecordReader.
func (r *fileRecords) Record() arrow.RecordBatch { return r.RecordBatch() }

func (r *fileRecords) Err() error {
	if r.err != nil {
		return r.err
	}
	return r.src.readError(r.rr.Err())
}

// emptyRecords is a record reader of no records.
type emptyRecords struct{ sc *arrow.Schema }

func (e emptyRecords) Schema() *arrow.Schema          { return e.sc }
func (e emptyRecords) Next() bool                     { return false }
func (e emptyRecords) RecordBatch() arrow.RecordBatch { return nil }
func (e emptyRecords) Err() error                     { return nil }
func (e emptyRecords) Release()                       {}
