package parquet

import (
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/internal/arrowcheck"
	"github.com/arrowmap/arrowmap/internal/forbidden"
)

// RecordWriter writes Arrow records of one schema to a Parquet file, for
// data whose Go type is not known when the program is built: what Writer
// does for rows of T, through the same path (the same row groups, pages,
// stored Arrow schema and refusals), from records instead of rows.
// A RecordWriter is not safe for concurrent use.
type RecordWriter struct {
	schema   *arrow.Schema
	out      *fileOut
	checked  []int // the columns that may hold a value the spec forbids
	closed   bool
	closeErr error
}

// NewRecordWriter returns a RecordWriter of records of schema to w. It
// writes Parquet's magic bytes to w at once; the rest goes to w a row
// group at a time, and the footer at Close, which does not close w. A
// column of a type Parquet cannot store is an error naming it, before
// anything is written.
//
// opts are a WriteConfig, mapper.Allocator and mapper.SchemaMetadata (the
// metadata of the schema written, in place of schema's own).
func NewRecordWriter(w io.Writer, schema *arrow.Schema, opts ...WriteOption) (*RecordWriter, error) {
	c, err := parseWrite("parquet.NewRecordWriter", opts, recordWriterOption)
	if err != nil {
		return nil, err
	}
	if w == nil {
		return nil, errors.New("arrowmap/parquet: NewRecordWriter: nil io.Writer")
	}
	if schema == nil {
		return nil, errors.New("arrowmap/parquet: NewRecordWriter: nil schema")
	}
	cfg := c.Config
	if md, ok := c.Metadata(); ok {
		schema = arrow.NewSchemaWithEndian(schema.Fields(), &md, schema.Endianness())
	}
	mem, own := cfg.allocator()
	out, err := newFileOut(w, schema, cfg, mem, own)
	if err != nil {
		return nil, err
	}
	return &RecordWriter{schema: schema, out: out, checked: arrowcheck.Columns(schema)}, nil
}

// Schema is the schema of the records the RecordWriter takes.
func (w *RecordWriter) Schema() *arrow.Schema { return w.schema }

// Write adds the rows of rec, whose schema must be the RecordWriter's, to
// the file: to the row group being built, and to new ones as each fills.
// The RecordWriter does not retain rec.
//
// A malformed record — buffers, offsets, children, dictionary indexes or
// run ends that are not what its types say, which View refuses when
// reading — is refused before anything of it is read, an *mapper.Error
// wrapping mapper.ErrInvalidData naming the column. So is a record with a
// value the Arrow spec forbids that a row reaches, at any depth (in a dictionary's values that a row refers to, a run-end encoded
// array's runs), is refused before any of its rows is written: text
// (utf8, large_utf8, utf8_view) that is not UTF-8, a decimal with more
// digits than its precision, a date64 that is not a whole day, each an
// *mapper.Error wrapping mapper.ErrInvalidData; a null where the field (a
// struct's child, a list's element, a map's key or value) is not nullable,
// wrapping mapper.ErrNull. The error names the column's path to the value
// ("tags.item") and the row, counted from the first row written. What a
// null row holds beneath it is not a value, and is not checked. The file
// goes on, holding the rows written before.
// A failure of the io.Writer breaks the file: that Write and every call
// after it return the error.
func (w *RecordWriter) Write(rec arrow.RecordBatch) error {
	if w.closed {
		return fmt.Errorf("arrowmap/parquet: Write: %w", ErrClosed)
	}
	if w.out.err != nil {
		return w.out.err
	}
	if !rec.Schema().Equal(w.schema) {
		return fmt.Errorf("arrowmap/parquet: Write: the record's schema is not the RecordWriter's:\n%s\nwant:\n%s", rec.Schema(), w.schema)
	}
	if err := forbidden.Refuse(rec, w.checked, w.out.rows); err != nil {
		return err
	}
	n := rec.NumRows()
	var perRow int64
	if w.out.groupBytes > 0 && n > 0 {
		perRow = max(1, recordBytes(rec)/n)
	}
	for done := int64(0); done < n; {
		rows, bytes := w.out.room()
		if perRow > 0 {
			rows = min(rows, bytes/perRow)
		}
		k := max(1, min(n-done, rows))
		part := rec
		if done > 0 || k < n {
			part = rec.NewSlice(done, done+k)
		}
		err := w.out.write(part, k*perRow)
		if part != rec {
			part.Release()
		}
		if err != nil {
			return err
		}
		done += k
	}
	return nil
}

// Close writes the file's footer. It does not close the io.Writer. After a
// failure of the io.Writer no footer can be written, and Close says so.
// Close after Close returns what the first returned.
func (w *RecordWriter) Close() error {
	if w.closed {
		return w.closeErr
	}
	w.closed = true
	w.closeErr = w.out.close()
	return w.closeErr
}
