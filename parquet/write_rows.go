package parquet

import (
	"errors"
	"fmt"
	"io"
	"runtime"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/arrowmap/arrowmap/internal/atomicfile"
	"github.com/arrowmap/arrowmap/mapper"
)

// DefaultRowGroupRows is the number of rows of a row group when
// WriteConfig.RowGroupRows is 0: parquet-go's and most engines' order of
// magnitude, which keeps a row group's column chunks a few MiB for rows of
// a few dozen bytes.
const DefaultRowGroupRows = 128 << 10

// writeBatchRows is the most rows a Writer encodes into one Arrow record
// before handing it to pqarrow: the Arrow memory it holds besides the row
// group being built. Large enough that pqarrow's per-record cost vanishes.
const writeBatchRows = 16 << 10

// measureRows is how many rows a Writer with WriteConfig.RowGroupBytes
// encodes first, to learn the size of a row.
const measureRows = 1024

// ErrClosed is wrapped by the error of a Write or Close after Close: the
// one sentinel of every arrowmap reader and writer used after its end.
var ErrClosed = mapper.ErrClosed

// WriteConfig is how rows are written to a Parquet file. The zero
// WriteConfig is how a Writer or RecordWriter writes, given among its
// options. Without one (or with the zero value) a writer writes as the
// ecosystem's writers do at their defaults (pyarrow, parquet-mr and Spark,
// DuckDB, arrow-go): row groups of DefaultRowGroupRows rows, compressed with
// snappy, every column but booleans dictionary encoded while its dictionary
// pays and stays under 1 MiB, data pages of about 1 MiB, version 1 data
// pages, statistics of every column chunk and page, the column index and
// offset index, and the Arrow schema stored in the file; its pages written
// by arrowmap's page writer, or by arrow-go's pqarrow.FileWriter with
// Encoder EncoderPqarrow.
type WriteConfig struct {
	// RowGroupRows is the most rows of a row group: 0 is
	// DefaultRowGroupRows; it must not be negative. The Writer holds one row
	// group's encoded columns in memory until the group is full.
	RowGroupRows int64
	// RowGroupBytes, when positive, also closes a row group once its rows
	// add up to that many bytes as Arrow data: the memory a reader decodes
	// a row group into, which bounds what the Writer holds for it (the file
	// holds less, encoded and compressed). The rows of a row group are
	// counted with the size of the rows before them, so a row group ends
	// near the bound, not exactly at it.
	RowGroupBytes int64
	// Compression is the codec of every column's pages. Its zero value is
	// Snappy, the default of pyarrow, DuckDB, Spark and parquet-mr;
	// Uncompressed writes pages as they are.
	Compression Compression
	// CompressionLevel is the codec's level (Gzip, Brotli, Zstd): 0 is the
	// codec's default.
	CompressionLevel int
	// Dictionary turns dictionary encoding on (true) or off (false) for
	// every column but booleans (which Parquet has no dictionary of).
	// Either way a column chunk has one dictionary, kept until it reaches
	// the dictionary page size limit (1 MiB, parquet-mr's, pyarrow's and
	// arrow-go's), then the rest of the chunk is plain encoded, as
	// parquet-mr, pyarrow and arrow-go fall back. nil is on for every
	// column, as those writers do, but for a column chunk whose first data
	// page shows that the dictionary does not pay (the dictionary and its
	// indices as large as the values plain: unique ids), which is plain
	// encoded, as parquet-mr's writer decides; an Arrow dictionary column
	// (the dict tag) keeps its dictionary whether it pays or not. (Measured
	// sizes and times of each choice: bench/RESULTS.md,
	// BenchmarkWriteFlatDictionary and "Parquet defaults (issue 24)".)
	Dictionary *bool
	// Parallelism is the most goroutines that encode the columns of a
	// batch of rows at once, each column on one goroutine at a time: 0 is
	// runtime.GOMAXPROCS, as DuckDB's writer takes every thread (arrow-go's
	// and parquet-go's encode on the caller's goroutine alone); 1 encodes
	// every column on the caller's goroutine. The file is the same whatever
	// the number. It must not be negative.
	Parallelism int
	// DataPageVersion is the version of the data pages: the zero value is
	// parquet.DataPageV1, which every reader reads.
	DataPageVersion parquet.DataPageVersion
	// Statistics turns the min, max and null count of each column chunk
	// and of each data page on or off: nil is on, as every peer writes
	// them. Readers skip row groups on the chunks'
	// (ReadConfig.KeepRowGroup) and pages on the pages'. The pages' are in
	// the column index when PageIndex is on, else in the data page headers,
	// as arrow-go and parquet-mr write them.
	Statistics *bool
	// PageIndex turns the column index (each data page's min, max, null
	// count, and whether it holds only nulls) and the offset index (each
	// data page's place in the file and first row) on or off: nil is on,
	// as parquet-mr and DuckDB write them (arrow-go's
	// WithPageIndexEnabled). Without Statistics the column index is left
	// out, the offset index written.
	PageIndex *bool
	// Columns configures single leaf columns, keyed by the column's dotted
	// Parquet path, as the footer and RowGroup.Column name it: a top-level
	// column by its name ("id"), a struct field under its struct
	// ("customer.name"), a list's elements as pqarrow names them
	// ("items.list.element.sku"), or a top-level or struct field with one
	// leaf under it by its own name ("tags" for "tags.list.element").
	// Each ColumnConfig turns the column's bloom filter on, its statistics
	// and page index on or off, and picks its encoding, over the file's
	// settings above. A path that names no leaf is an error naming it and
	// the columns there are; so are two paths of one leaf, and an encoding
	// or bloom filter the column's physical type cannot take.
	//
	// A Writer[T] (and WriteFile) also reads the `arrow-parquet:"…"` tags of
	// T's fields, a ColumnConfig each (see ParseColumnTag for the
	// grammar): `arrow-parquet:"bloom,encoding=delta"`. A Columns entry for a
	// column replaces its field's tag whole: the config wins, so a caller
	// can change how a type's column is written without changing the type.
	Columns map[string]ColumnConfig
	// SortingColumns declares the order the rows of every row group are
	// sorted in, first column first, which the footer stores in each row
	// group's metadata (arrow-go's WithSortingColumns) for engines to
	// skip sorts and merges with. The order is checked as rows are
	// written, each row against the one before it in its row group (a
	// comparison a row per column, values as Parquet orders them: signed
	// or unsigned integers, floats, byte arrays as unsigned bytes): a row
	// out of order is an *mapper.Error naming the sorting column and the
	// row (counted from the file's start), wrapping mapper.ErrInvalidData,
	// and the batch of rows it is in (a Writer's few thousand rows, a
	// RecordWriter's record) is not written; the file goes on. Columns
	// of decimals, float16 and intervals are declared, not checked. A
	// column that is not a leaf (as Columns names them), is named twice,
	// or is under a list is an error.
	SortingColumns []SortingColumn
	// alloc allocates the Arrow records and the Parquet pages built:
	// mapper.Allocator's, nil for the Writer's own pool.
	alloc memory.Allocator

	// Encoder is the writer of the file's pages: EncoderArrowmap, the
	// zero value, or EncoderPqarrow, arrow-go's pqarrow.FileWriter, as a
	// fallback. Either writes the same schema, row groups, statistics, page
	// index, bloom filters and key/value metadata from the same
	// WriteConfig, and the rows read back the same; the bytes of the pages
	// differ.
	Encoder Encoder

	// tagged is the ColumnConfig of the arrow-parquet tags of a Writer's T, by
	// the Arrow names of their fields' columns.
	tagged []taggedField
}

// Encoder is the writer of a Parquet file's pages (WriteConfig.Encoder).
type Encoder uint8

const (
	// EncoderArrowmap, the default, is arrowmap's page writer: the column
	// chunks of the leaves it encodes (numbers, booleans, text and binary,
	// temporal types, decimal128s, under structs, lists and maps, Arrow
	// dictionaries of text and binary) written straight from the records'
	// buffers, through buffers reused from page to page and file to file;
	// the other leaves by arrow-go's column writers, in the same row
	// groups.
	EncoderArrowmap Encoder = iota
	// EncoderPqarrow is arrow-go's pqarrow.FileWriter, every column
	// chunk written by arrow-go's column writers: for a file the default
	// writes wrongly, or to compare with it.
	EncoderPqarrow
)

// String is the Encoder's name in Go.
func (e Encoder) String() string {
	switch e {
	case EncoderArrowmap:
		return "EncoderArrowmap"
	case EncoderPqarrow:
		return "EncoderPqarrow"
	}
	return fmt.Sprintf("Encoder(%d)", uint8(e))
}

// Writer writes rows of T to a Parquet file, in row groups of
// WriteConfig.RowGroupRows rows, with the schema mapper.SchemaOf[T] gives
// (stored in the file, so that time zones, dictionaries and large types
// read back as written). Rows are encoded a few thousand at a time with one
// reused mapper.Builder, and (with the default WriteConfig.Encoder) the
// records' column chunks written straight
// from their buffers (numbers, booleans, text and binary, temporal types,
// decimal128s, under structs, lists and maps, Arrow dictionaries of text
// and binary), or, for a leaf of another type (int8, decimal256, float16,
// an Arrow dictionary of numbers…), by arrow-go's column writer in the same
// row group; either buffers the encoded, compressed pages of the row group
// being built: the memory a Writer holds is one row group's encoded columns
// and two batches of rows, whatever the number of rows written. The direct
// writer ends a data page at 1 MiB of values before compression, and a
// dictionary page at the dictionary page size limit, each exceeded by at
// most one row's values however long they are.
//
// Within a Write, a batch's columns are encoded while the Builder builds
// the next batch, on WriteConfig.Parallelism goroutines (each column on
// one at a time): a Write returns once every row it took is encoded.
//
// Close writes the footer: a file without it is unreadable. A Writer is
// not safe for concurrent use.
type Writer[T any] struct {
	b   *mapper.Builder[T]
	out *fileOut
	// Rows per record handed to the file.
	batchRows   int64
	pending     int64 // rows in the Builder
	bytesPerRow int64 // of the last batch, with RowGroupBytes
	// inFlight is the batch whose columns are being encoded while the
	// Builder builds the next, nil when none is: one at a time, within one
	// Write.
	inFlight *batchInFlight
	closed   bool
	closeErr error
}

// batchInFlight is a batch of rows being encoded: wait waits for it, and
// before is the number of rows of the Write that started it before its
// first.
type batchInFlight struct {
	wait   func() error
	before int
}

// NewWriter returns a Writer of rows of T to w. It writes Parquet's magic
// bytes to w at once; the rest goes to w a row group at a time, and the
// footer at Close. Close does not close w.
//
// T's schema is mapper.SchemaOf[T] of the mapper options given (SnakeCase,
// As and SchemaMetadata apply); a T that does not map, or a column of a
// type Parquet cannot store (a union, a day_time or month_day_nano
// interval: Parquet's INTERVAL is unsigned, it holds no signed Arrow
// interval exactly), is an *mapper.Error naming the column, wrapping
// mapper.ErrUnsupported, before anything is written.
//
// opts are mapper.NewBuilder's options (SnakeCase, As, Allocator,
// SchemaMetadata) and a WriteConfig, none needed for the defaults. Without
// mapper.Allocator the records and pages are Go memory that the Writer
// reuses from batch to batch (what arrow-go frees, the Writer keeps for
// its next batch) and hands at Close to the next Writer or reader, so that
// writing file after file allocates it once.
func NewWriter[T any](w io.Writer, opts ...WriteOption) (*Writer[T], error) {
	return newWriter[T]("parquet.NewWriter", w, opts)
}

func newWriter[T any](entry string, w io.Writer, opts []WriteOption) (_ *Writer[T], err error) {
	c, err := parseWrite(entry, opts, nil)
	if err != nil {
		return nil, err
	}
	if w == nil {
		return nil, fmt.Errorf("arrowmap/parquet: %s: nil io.Writer", entry)
	}
	cfg := c.Config
	if cfg.tagged, err = fieldColumnConfigs[T](c.Mapper); err != nil {
		return nil, err
	}
	mem, own := cfg.allocator()
	b, err := mapper.NewBuilder[T](append(c.Mapper[:len(c.Mapper):len(c.Mapper)], mapper.Allocator(mem))...)
	if err != nil {
		return nil, err
	}
	empty := b.NewRecordBatch() // the Builder's schema, with no rows
	schema := empty.Schema()
	empty.Release()
	out, err := newFileOut(w, schema, cfg, mem, own)
	if err != nil {
		b.Release()
		return nil, err
	}
	return &Writer[T]{b: b, out: out, batchRows: min(out.groupRows, writeBatchRows)}, nil
}

// check refuses a WriteConfig whose numbers are out of range.
func (cfg WriteConfig) check() error {
	if cfg.RowGroupRows < 0 {
		return fmt.Errorf("arrowmap/parquet: WriteConfig.RowGroupRows %d is negative", cfg.RowGroupRows)
	}
	if cfg.RowGroupBytes < 0 {
		return fmt.Errorf("arrowmap/parquet: WriteConfig.RowGroupBytes %d is negative", cfg.RowGroupBytes)
	}
	if cfg.Parallelism < 0 {
		return fmt.Errorf("arrowmap/parquet: WriteConfig.Parallelism %d is negative", cfg.Parallelism)
	}
	if cfg.Encoder > EncoderPqarrow {
		return fmt.Errorf("arrowmap/parquet: WriteConfig.Encoder %s is none of EncoderArrowmap and EncoderPqarrow", cfg.Encoder)
	}
	return nil
}

// parallelism is the number of goroutines that encode columns at once.
func (cfg WriteConfig) parallelism() int {
	if cfg.Parallelism == 0 {
		return runtime.GOMAXPROCS(0)
	}
	return cfg.Parallelism
}

// allocator is mapper.Allocator's, or a new pool, returned as own, when
// none was given.
func (cfg WriteConfig) allocator() (memory.Allocator, *pool) {
	if cfg.alloc != nil {
		return cfg.alloc, nil
	}
	own := &pool{}
	return own, own
}

// Write writes rows. They are encoded and handed to the row group being
// built a few thousand at a time; a full row group goes to the io.Writer
// when the next rows come, or at Close.
//
// A row with a value its column cannot hold (a decimal out of its
// precision, a time of day out of range) is an *mapper.Error naming the
// field, the column and the row (its index in rows): the rows before it are
// written, it and the rows after it are not, and the Writer goes on.
// A failure of the io.Writer breaks the file: that Write and every call
// after it return the error.
//
// Write returns how many of rows the Writer took: len(rows) when the error
// is nil, the rows before the refused one after a refused row, and those
// before the batch that failed after a failure of the io.Writer or of the
// encoding of a batch (whose rows after it are not written either).
func (w *Writer[T]) Write(rows []T) (int, error) {
	if w.closed {
		return 0, fmt.Errorf("arrowmap/parquet: Write: %w", ErrClosed)
	}
	if w.out.err != nil {
		return 0, w.out.err
	}
	for done := 0; done < len(rows); {
		limit := w.flushAt()
		k := int(min(int64(len(rows)-done), limit-w.pending))
		chunk := rows[done : done+k]
		if err := w.b.Append(chunk...); err != nil {
			if before, err := w.settle(); err != nil {
				return before, err // the batch in flight, before these rows, failed
			}
			return w.appendFailed(err, chunk, done)
		}
		w.pending += int64(k)
		done += k
		if w.pending >= limit {
			if before, err := w.settle(); err != nil {
				return before, err
			}
			inBatch := min(done, int(w.pending)) // this call's rows in the batch
			if err := w.start(done-inBatch, len(rows)-done); err != nil {
				return done - inBatch, err
			}
		}
	}
	if before, err := w.settle(); err != nil {
		return before, err
	}
	return len(rows), nil
}

// flushAt is the number of rows in the Builder at which they go to the
// file: a batch, or what the current row group has room for.
func (w *Writer[T]) flushAt() int64 {
	rows, bytes := w.out.room()
	limit := min(w.batchRows, rows)
	switch {
	case w.out.groupBytes > 0 && w.bytesPerRow > 0:
		limit = min(limit, bytes/w.bytesPerRow)
	case w.out.groupBytes > 0:
		limit = min(limit, measureRows) // rows to measure the size of a row on
	}
	return max(limit, 1)
}

// appendFailed keeps the rows of chunk before the one Append failed on
// (chunk starts at rows[done] of the Write) and reports the failure with
// the row's index in the Write's rows, and the rows of the Write taken.
func (w *Writer[T]) appendFailed(err error, chunk []T, done int) (int, error) {
	var me *mapper.Error
	if !errors.As(err, &me) || me.Row < int(w.pending) || me.Row >= int(w.pending)+len(chunk) {
		return done, err
	}
	bad := me.Row - int(w.pending) // the failing row's index in chunk
	if bad > 0 {
		if again := w.b.Append(chunk[:bad]...); again != nil {
			return done, again
		}
		w.pending += int64(bad)
	}
	out := *me
	out.Row = done + bad
	return done + bad, &out
}

// start hands the rows in the Builder to the file, whose columns are
// encoded while the Builder builds the next batch (settle waits for them);
// before is the number of rows of the Write before them, coming the number
// after them. Its error is a refusal of the rows, or the failure that
// broke the file.
func (w *Writer[T]) start(before, coming int) error {
	if w.pending == 0 {
		return nil
	}
	rec := w.b.NewRecordBatch()
	var size int64
	if w.out.groupBytes > 0 {
		size = recordBytes(rec)
		w.bytesPerRow = max(1, size/w.pending)
	}
	w.pending = 0
	wait, err := w.out.begin(rec, size, int64(coming))
	if err != nil {
		return err
	}
	w.inFlight = &batchInFlight{wait: wait, before: before}
	return nil
}

// settle waits for the batch in flight, if any. When its encoding failed
// (which broke the file), the rows built since, which came after it in the
// same Write, are dropped, and the Write took before of its rows.
func (w *Writer[T]) settle() (before int, err error) {
	f := w.inFlight
	if f == nil {
		return 0, nil
	}
	w.inFlight = nil
	if err := f.wait(); err != nil {
		if w.pending > 0 {
			w.b.NewRecordBatch().Release()
			w.pending = 0
		}
		return f.before, err
	}
	return 0, nil
}

// flush writes the rows in the Builder to the file, waiting for them.
func (w *Writer[T]) flush() error {
	if err := w.start(0, 0); err != nil {
		return err
	}
	_, err := w.settle()
	return err
}

// Close writes the rows not yet written and the file's footer. It does not
// close the io.Writer.
//
// After a failure of the io.Writer no footer can be written, and Close
// says so: the file is not readable (the io.Writer takes no more bytes).
// A row a Write refused does not break the file: Close writes the footer
// as usual, and the file holds every row written but the refused ones.
// Rows are checked against WriteConfig.SortingColumns as they go to the
// file, the last batch at Close: Close returns the *mapper.Error of a row
// out of order in it, with the footer written and that batch left out.
// Close after Close returns what the first returned.
func (w *Writer[T]) Close() error {
	if w.closed {
		return w.closeErr
	}
	w.closed = true
	defer w.b.Release()
	var refused error
	if w.out.err == nil {
		// A failure of the io.Writer is the file's, which close reports;
		// rows refused (out of the order of SortingColumns) are not
		// written, and Close reports them after writing the footer.
		refused = w.flush()
	}
	w.closeErr = w.out.close()
	if w.closeErr == nil && w.out.err == nil {
		w.closeErr = refused
	}
	return w.closeErr
}

// WriteFile writes rows to a Parquet file at path, as NewWriter, Write and
// Close do, replacing the file there whole or not at all: the file is
// written to a temporary file in path's directory, synced and put at path
// at the end, with the permissions of the file it replaces, or of a new
// file. On an error, or a panic, the temporary file is removed and a file
// at path is left as it was. On Linux the temporary file has no name until
// then (O_TMPFILE), so a process killed meanwhile leaves nothing behind;
// elsewhere it is path's name, ".tmp-" and a random suffix.
//
// opts are NewWriter's: WriteFile(path, rows) writes with the defaults.
func WriteFile[T any](path string, rows []T, opts ...WriteOption) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return fmt.Errorf("arrowmap/parquet: %w", err)
	}
	defer f.Abort() // after Commit, nothing
	w, err := newWriter[T]("parquet.WriteFile", f, opts)
	if err != nil {
		return err
	}
	if _, err := w.Write(rows); err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("arrowmap/parquet: writing %s: %w", path, err)
	}
	return nil
}
