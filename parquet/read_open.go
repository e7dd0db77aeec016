package parquet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"
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
	// nil for the reader's own pool.
	alloc memory.Allocator
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
	src, err := openPath(path, c.cfg)
	if err != nil {
		return nil, err
	}
	return rowsReader[T](src, c.mapper)
}

// OpenReaderAt is Open for the size bytes of a Parquet file that r reads:
// an *os.File, a *bytes.Reader, an object store's ranged reader. The Reader
// does not close r. opts are Open's.
func OpenReaderAt[T any](r io.ReaderAt, size int64, opts ...ReadOption) (*mapper.Reader[T], error) {
	c, err := parseRead("parquet.OpenReaderAt", opts, nil)
	if err != nil {
		return nil, err
	}
	src, err := openSource(r, size, nil, "the Parquet data", c.cfg)
	if err != nil {
		return nil, err
	}
	return rowsReader[T](src, c.mapper)
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
	mopts := c.mapper
	src, err := openPath(path, c.cfg)
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
	src, err := openPath(path, c.cfg)
	if err != nil {
		return nil, err
	}
	r, err := rowsReader[T](src, c.mapper)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	return r.ReadAll()
}

// source is an open Parquet file and what of it a ReadConfig selects.
type source struct {
	name      string // for errors: the path, or "the Parquet data"
	pf        *file.Reader
	fr        *pqarrow.FileReader
	rowGroups []int
	closer    io.Closer // the file opened by path, nil for a caller's reader
	ctx       context.Context
	// fields is the top-level fields of the file's Arrow schema, as
	// written (goSchemaKey's, else what pqarrow reads, without its
	// field ids), and meta the schema's metadata: what the records of
	// every reader are converted to (fromStorage).
	fields []arrow.Field
	meta   arrow.Metadata
	mem    memory.Allocator
	pool   *pool // the allocator without mapper.Allocator, released at close
	// pages is the file as arrow-go reads it, checking its pages; nil for
	// a pqarrow.FileReader of the caller's (NewReader).
	pages *pageFile
	// sized is whether the records read may be sized to the rows a
	// Reader's Read asks for (mapper.RecordSizer): only when no record
	// size was given (ReadConfig.BatchRows 0), since a size given is the
	// size of every record, as documented.
	sized bool
	// keepPage is ReadConfig.KeepPage; ranges, when not nil, the rows of
	// the selected row groups it keeps, once records are asked for.
	keepPage func(Page) bool
	ranges   []rowRange
	// size is the file's bytes, and readLeaves the leaf columns read,
	// once records are asked for: what RowsHintBytes counts.
	size       int64
	readLeaves []int
}

func openPath(path string, cfg ReadConfig) (*source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("arrowmap/parquet: %w", err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("arrowmap/parquet: %w", err)
	}
	src, err := openSource(f, info.Size(), f, path, cfg)
	if err != nil {
		f.Close()
		return nil, err
	}
	return src, nil
}

// readBufferBytes is the buffer a column chunk is read through, made for
// every chunk: enough for page headers (arrow-go peeks 16 KiB at a time)
// and small pages; a larger page is read past it into the page buffer,
// which the allocator reuses.
const readBufferBytes = 32 << 10

// openSource reads the footer of the Parquet file of size bytes that r
// reads, and selects its row groups as cfg says.
func openSource(r io.ReaderAt, size int64, closer io.Closer, name string, cfg ReadConfig) (_ *source, err error) {
	if cfg.BatchRows < 0 {
		return nil, fmt.Errorf("arrowmap/parquet: ReadConfig.BatchRows %d is negative", cfg.BatchRows)
	}
	if cfg.MaxPageSize < 0 {
		return nil, fmt.Errorf("arrowmap/parquet: ReadConfig.MaxPageSize %d is negative", cfg.MaxPageSize)
	}
	if err := checkMagic(r, size, name); err != nil {
		return nil, err
	}
	footer, needs, err := checkThrift(r, size, name)
	if err != nil {
		return nil, err
	}
	var mem memory.Allocator = cfg.alloc
	var own *pool
	if mem == nil {
		own = &pool{}
		mem = own
	}
	// A footer is hostile input too: arrow-go's thrift decoding and schema
	// conversion are not all written to fail cleanly on garbage.
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("arrowmap/parquet: %s: %w: a malformed footer (%v)", name, mapper.ErrInvalidData, p)
		}
	}()
	props := parquet.NewReaderProperties(mem)
	// Without a buffered stream arrow-go reads each column chunk whole
	// into a new []byte (a few MiB a column a row group, made and dropped
	// for every chunk); buffered, it reads a page at a time through one
	// buffer, and a page larger than the buffer into its page buffer.
	props.BufferedStreamEnabled = true
	props.BufferSize = readBufferBytes
	pages := newPageFile(r, size, name, cfg)
	boundPages(props, size, pages.maxPage)
	readOpts := []file.ReadOption{file.WithReadProps(props)}
	var fix *footerFix
	if needs != 0 {
		repaired, f, err := repairFooter(footer, needs, size)
		if err != nil {
			return nil, fmt.Errorf("arrowmap/parquet: %s: %w: a malformed footer: %w", name, mapper.ErrInvalidData, err)
		}
		fix = f
		if repaired != nil {
			md, err := metadata.NewFileMetaData(repaired, nil)
			if err != nil {
				return nil, fmt.Errorf("arrowmap/parquet: %s: %w: %w", name, mapper.ErrInvalidData, err)
			}
			md.SetSourceFileSize(f.size(size))
			readOpts = append(readOpts, file.WithMetadata(md))
			pages.moved = f.moved
			for _, m := range f.moved {
				if m.lz4 { // read uncompressed
					props.MaxCompressedPageSize = max(props.MaxCompressedPageSize, pages.maxPage)
				}
			}
		}
	}
	pf, err := file.NewParquetReader(io.NewSectionReader(pages, 0, fix.size(size)), readOpts...)
	if err != nil {
		return nil, fmt.Errorf("arrowmap/parquet: %s: %w: %w", name, mapper.ErrInvalidData, err)
	}
	footerLen := int64(len(footer))
	if footer == nil {
		footerLen = int64(pf.MetaData().Size()) // encrypted: arrow-go's
	}
	if err := checkFooter(pf, size, footerLen, name, fix); err != nil {
		return nil, err
	}
	if err := pages.setChunks(pf.MetaData()); err != nil {
		return nil, fmt.Errorf("arrowmap/parquet: %s: %w: %w", name, mapper.ErrInvalidData, err)
	}
	batch := cfg.BatchRows
	if batch == 0 {
		batch = DefaultBatchRows
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: int64(batch)}, mem)
	if err != nil {
		return nil, fmt.Errorf("arrowmap/parquet: %s: %w: %s%w", name, mapper.ErrInvalidData, unreadableColumn(pf.MetaData().Schema), err)
	}
	src, err := newSource(pf, fr, closer, name, cfg, mem, fix)
	if src != nil {
		src.pool, src.pages, src.size = own, pages, size
	}
	return src, err
}

// unreadableColumn is `column "name": ` for the first top-level column of
// descr that pqarrow cannot read as Arrow, "" when each reads alone:
// pqarrow's errors ("MAP keys must be required") name no column.
func unreadableColumn(descr *schema.Schema) string {
	root := descr.Root()
	for i := range root.NumFields() {
		field := root.Field(i)
		one, err := schema.NewGroupNode(root.Name(), parquet.Repetitions.Required, schema.FieldList{field}, -1)
		if err != nil {
			continue
		}
		_, err = pqarrow.FromParquet(schema.NewSchema(one), &pqarrow.ArrowReadProperties{}, nil)
		field.SetParent(root) // NewGroupNode took it
		if err != nil {
			return fmt.Sprintf("column %q: ", field.Name())
		}
	}
	return ""
}

// newSource is the source of the open file fr, with the row groups cfg
// selects, and the column types to restore that its metadata names.
func newSource(pf *file.Reader, fr *pqarrow.FileReader, closer io.Closer, name string, cfg ReadConfig, mem memory.Allocator, fix *footerFix) (_ *source, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("arrowmap/parquet: %s: %w: a malformed footer (%v)", name, mapper.ErrInvalidData, p)
		}
	}()
	groups, err := selectRowGroups(pf, cfg)
	if err != nil {
		return nil, fmt.Errorf("arrowmap/parquet: %s: %w", name, err)
	}
	src := &source{name: name, pf: pf, fr: fr, rowGroups: groups, closer: closer, ctx: context.Background(), mem: mem, sized: cfg.BatchRows == 0, keepPage: cfg.KeepPage}
	fileSchema, err := fr.Schema()
	if err != nil {
		return nil, fmt.Errorf("arrowmap/parquet: %s: schema: %w", name, err)
	}
	kv := pf.MetaData().KeyValueMetadata()
	if src.fields, err = writtenFields(fileSchema, kv.FindValue(goSchemaKey), kv.FindValue(arrowSchemaKey), mem); err != nil {
		return nil, fmt.Errorf("arrowmap/parquet: %s: %w: %w", name, mapper.ErrInvalidData, err)
	}
	if fix != nil {
		unit := arrow.Microsecond
		if cfg.Int96Unit != nil {
			unit = *cfg.Int96Unit
		}
		fix.restore(src.fields, fr.Manifest, unit, cfg.Int96Unit != nil)
	}
	src.meta = schemaMetadata(fileSchema.Metadata())
	return src, nil
}

var (
	_ mapper.BackedRowsHinter = (*fileRecords)(nil)
	_ mapper.RecordSizer      = (*fileRecords)(nil)
)

var magic = []byte("PAR1")

// checkMagic tells a file that is not Parquet from one cut short, by the
// magic bytes a Parquet file starts and ends with.
func checkMagic(r io.ReaderAt, size int64, name string) error {
	head := make([]byte, len(magic))
	if n, _ := r.ReadAt(head, 0); n < len(head) || !bytes.Equal(head, magic) {
		return fmt.Errorf("arrowmap/parquet: %s: %w (%d bytes that do not start with %q)", name, ErrNotParquet, size, magic)
	}
	tail := make([]byte, len(magic))
	// An encrypted footer ends with "PARE" instead: leave it to arrow-go.
	if n, _ := r.ReadAt(tail, size-int64(len(tail))); size < 12 || n < len(tail) || (!bytes.Equal(tail, magic) && string(tail) != "PARE") {
		return fmt.Errorf("arrowmap/parquet: %s: %w: a truncated Parquet file (%d bytes, no footer at its end)", name, io.ErrUnexpectedEOF, size)
	}
	return nil
}

// selectRowGroups is the row groups of cfg.RowGroups (all when nil) that
// cfg.KeepRowGroup keeps, in order.
func selectRowGroups(pf *file.Reader, cfg ReadConfig) ([]int, error) {
	n := pf.NumRowGroups()
	groups := cfg.RowGroups
	if groups == nil {
		groups = make([]int, n)
		for i := range groups {
			groups[i] = i
		}
	}
	kept := make([]int, 0, len(groups))
	for _, g := range groups {
		if g < 0 || g >= n {
			return nil, fmt.Errorf("row group %d does not exist: the file has %d", g, n)
		}
		if cfg.KeepRowGroup == nil || cfg.KeepRowGroup(newRowGroup(pf, g)) {
			kept = append(kept, g)
		}
	}
	return kept, nil
}

// schema is the Arrow schema of the whole file: its stored Arrow schema
// when it has one (time zones, dictionaries, large types come back as
// written), else the one pqarrow derives.
func (s *source) schema() (*arrow.Schema, error) {
	return arrow.NewSchema(s.fields, &s.meta), nil
}

// restored is the schema of records of the top-level columns cols as
// written, and for each column whether pqarrow's type (of read) differs.
func (s *source) restored(read *arrow.Schema, cols []int) (*arrow.Schema, []bool) {
	fields := make([]arrow.Field, len(cols))
	differ := make([]bool, len(cols))
	for j, c := range cols {
		fields[j] = s.fields[c]
		differ[j] = !arrow.TypeEqual(read.Field(j).Type, fields[j].Type, arrow.CheckMetadata())
	}
	return arrow.NewSchema(fields, &s.meta), differ
}

// records reads the top-level columns cols of the selected row groups.
// The records own the source from then on: their last Release closes it,
// and so does an error here.
func (s *source) records(cols []int) (_ *fileRecords, err error) {
	defer func() {
		if err != nil {
			s.close()
		}
	}()
	leaves := s.leaves(cols)
	s.readLeaves = leaves
	if s.keepPage != nil && len(s.rowGroups) > 0 {
		if s.ranges, err = s.keptRanges(leaves, s.keepPage); err != nil {
			return nil, fmt.Errorf("arrowmap/parquet: %s: %w", s.name, err)
		}
		if len(s.ranges) == 0 {
			s.rowGroups = nil // no row kept: read none
		}
	}
	if len(s.rowGroups) == 0 {
		// pqarrow reads every row group for none: an empty selection is
		// an empty stream of the projected schema.
		sc, err := s.projected(leaves)
		if err != nil {
			return nil, err
		}
		return newFileRecords(emptyRecords{sc}, s, s.roots(leaves)), nil
	}
	rr, err := s.recordReader(leaves)
	if err != nil {
		return nil, fmt.Errorf("arrowmap/parquet: %s: reading columns: %w", s.name, err)
	}
	return newFileRecords(rr, s, s.roots(leaves)), nil
}

// projected is the schema of the records of leaves.
func (s *source) projected(leaves []int) (*arrow.Schema, error) {
	_, sc, err := s.fr.GetFieldReaders(s.ctx, leaves, []int{})
	if err != nil {
		return nil, fmt.Errorf("arrowmap/parquet: %s: reading columns: %w", s.name, err)
	}
	return sc, nil
}

// roots is the top-level columns of leaves, in order: the columns of the
// records read.
func (s *source) roots(leaves []int) []int {
	descr := s.pf.MetaData().Schema
	var cols []int
	for _, leaf := range leaves {
		c := descr.Root().FieldIndexByField(descr.ColumnRoot(leaf))
		if len(cols) == 0 || cols[len(cols)-1] != c {
			cols = append(cols, c)
		}
	}
	return cols
}

// leaves is the leaf columns under the top-level columns cols.
func (s *source) leaves(cols []int) []int { return leafColumns(s.pf.MetaData().Schema, cols) }

// leafColumns is the indexes of the Parquet leaf columns of descr under the
// top-level columns cols, in increasing order; the first leaf when cols is
// empty, so that a T that reads no column still gets one row per row of
// the file.
func leafColumns(descr *schema.Schema, cols []int) []int {
	// pqarrow maps each child of the Parquet root to the Arrow field of the
	// same index, so an Arrow column index is a root field index.
	used := make([]bool, descr.Root().NumFields())
	for _, c := range cols {
		if c >= 0 && c < len(used) {
			used[c] = true
		}
	}
	var leaves []int
	for leaf := range descr.NumColumns() {
		if used[descr.Root().FieldIndexByField(descr.ColumnRoot(leaf))] {
			leaves = append(leaves, leaf)
		}
	}
	if len(leaves) == 0 && descr.NumColumns() > 0 {
		leaves = []int{0}
	}
	return leaves
}

// numRows is the rows of the selected row groups, as the footer says,
// or those of them KeepPage keeps.
func (s *source) numRows() int64 {
	var rows int64
	if s.ranges != nil {
		for _, r := range s.ranges {
			rows += r.to - r.from
		}
		return rows
	}
	for _, g := range s.rowGroups {
		rows += s.pf.MetaData().RowGroup(g).NumRows()
	}
	return rows
}

func (s *source) close() error {
	if s.pool != nil {
		// The records are released: the next Reader's pool takes their
		// buffers.
		s.pool.release()
		s.pool = nil
	}
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}

// rowsReader is the Reader of the columns T reads from src, which it owns
// from then on.
func rowsReader[T any](src *source, opts []mapper.ReadOption) (*mapper.Reader[T], error) {
	schema, err := src.schema()
	if err != nil {
		src.close()
		return nil, err
	}
	m, err := mapper.New[T](schema, decodeOptions(opts)...)
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
	// off), so a panic on malformed data can be caught here.
	defer func() {
		if p := recover(); p != nil {
			r.err = fmt.Errorf("arrowmap/parquet: %s: %w: a malformed column chunk (%v)", r.src.name, mapper.ErrInvalidData, p)
			ok = false
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
		var err error
		if cols[i], err = convert(c, r.restored.Field(i).Type, r.src.mem); err != nil {
			return nil, fmt.Errorf("arrowmap/parquet: %s: %w", r.src.name, columnError(r.restored.Field(i).Name, r.rows, err))
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
