package ipc

import (
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	arrowipc "github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/arrowmap/arrowmap/internal/arrowcheck"
	"github.com/arrowmap/arrowmap/internal/forbidden"
)

// RecordWriter writes record batches of one schema as an IPC file or
// stream: a Writer without the Go type, for records whose schema is known
// only when the program runs (a conversion, a query's results). Records
// are written as they come.
//
// Unlike arrow-go's ipc.FileWriter, it writes a file whose dictionaries
// change from one record to the next (records read from Parquet, or built
// one by one): each record's dictionaries are mapped into the values
// written before, so that they only grow, and written as deltas.
//
// A RecordWriter is not safe for concurrent use.
type RecordWriter struct {
	out      *payloadWriter
	w        *arrowipc.Writer
	schema   *arrow.Schema
	dicts    *dictionaries // nil when no dictionary is unified
	format   string        // "file" or "stream", for errors
	checked  []int         // the columns that may hold a value the spec forbids
	written  int           // records written
	rows     int64         // rows written
	err      error         // the error that stopped writing
	closed   bool
	closeErr error
}

// NewRecordFileWriter writes an IPC file of records of schema to w; Close
// writes its footer. w is the caller's to close, after Close.
//
// opts are a WriteConfig, mapper.Allocator (for the messages encoded and
// the dictionaries unified) and mapper.SchemaMetadata (the metadata of the
// schema written, in place of schema's own).
func NewRecordFileWriter(w io.Writer, schema *arrow.Schema, opts ...WriteOption) (*RecordWriter, error) {
	return parseRecordWriter("ipc.NewRecordFileWriter", w, schema, opts, true)
}

// NewRecordStreamWriter writes an IPC stream of records of schema to w;
// Close writes its end-of-stream marker. w is the caller's to close, after
// Close. opts are NewRecordFileWriter's.
func NewRecordStreamWriter(w io.Writer, schema *arrow.Schema, opts ...WriteOption) (*RecordWriter, error) {
	return parseRecordWriter("ipc.NewRecordStreamWriter", w, schema, opts, false)
}

func parseRecordWriter(entry string, w io.Writer, schema *arrow.Schema, opts []WriteOption, file bool) (*RecordWriter, error) {
	c, err := parseWrite(entry, opts, recordWriterOption)
	if err != nil {
		return nil, err
	}
	if md, ok := c.Metadata(); schema != nil && ok {
		schema = replaceMetadata(schema, md)
	}
	return newRecordWriter(w, schema, c.Config, file)
}

func newRecordWriter(w io.Writer, schema *arrow.Schema, cfg WriteConfig, file bool) (*RecordWriter, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if w == nil {
		return nil, errors.New("arrowmap/ipc: nil io.Writer")
	}
	if schema == nil {
		return nil, errors.New("arrowmap/ipc: nil schema")
	}
	// A file takes a changed dictionary only as a delta: unify, always.
	unify := file || cfg.DictionaryDeltas
	out := &payloadWriter{w: w, file: file}
	rw := &RecordWriter{
		out:     out,
		w:       arrowipc.NewWriterWithPayloadWriter(out, cfg.writerOptions(schema, unify)...),
		schema:  schema,
		checked: arrowcheck.Columns(schema),
		format:  "stream",
	}
	if file {
		rw.format = "file"
	}
	for _, f := range schema.Fields() {
		if unify && hasDictionary(f.Type) {
			rw.dicts = newDictionaries(cfg.mem())
			break
		}
	}
	return rw, nil
}

// Schema is the schema of the records written, with mapper.SchemaMetadata's
// metadata when it was given.
func (w *RecordWriter) Schema() *arrow.Schema { return w.schema }

// Write writes rec, whose fields must be the writer's schema's. A record
// of another schema, or whose dictionaries cannot be merged with the ones
// written, is an error and nothing of it is written; the writer goes on.
//
// So is a malformed record — buffers, offsets, children, dictionary
// indexes or run ends that are not what its types say, which View refuses
// when reading — an *mapper.Error wrapping mapper.ErrInvalidData naming the
// column, before anything of it is read. So is a record with a value the
// Arrow spec forbids that a row reaches,
// at any depth (in a dictionary's values that a row refers to, a run-end
// encoded array's runs): text (utf8, large_utf8, utf8_view) that is not
// UTF-8, a decimal with more digits than its precision, a date64 that is
// not a whole day, each an *mapper.Error wrapping mapper.ErrInvalidData;
// a null where the field (a struct's child, a list's element, a map's key
// or value) is not nullable, wrapping mapper.ErrNull. The error names the
// column's path to the value ("tags.item") and the row, counted from the
// first row written. What a null row holds beneath it is not a value, and
// is not checked.
//
// A failure to encode or of the output stops the writer: every Write
// after it returns the same error.
func (w *RecordWriter) Write(rec arrow.RecordBatch) error {
	switch {
	case w.closed:
		return ErrClosed
	case w.err != nil:
		return w.err
	case rec == nil:
		return errors.New("arrowmap/ipc: Write of a nil record")
	case !rec.Schema().Equal(w.schema):
		return fmt.Errorf("arrowmap/ipc: a record of schema %s, not the writer's %s", rec.Schema(), w.schema)
	}
	if err := forbidden.Refuse(rec, w.checked, w.rows); err != nil {
		return err
	}
	if w.dicts != nil {
		var unified arrow.RecordBatch
		if err := guard(func() (err error) { unified, err = w.dicts.unify(rec, w.rows); return err }); err != nil {
			return fmt.Errorf("arrowmap/ipc: writing the IPC %s: %w", w.format, err)
		}
		defer unified.Release()
		rec = unified
	}
	if err := guard(func() error { return w.w.Write(rec) }); err != nil {
		w.err = w.failure(err)
		return w.err
	}
	w.written++
	w.rows += rec.NumRows()
	return nil
}

// failure is the error that stopped writing: the output's own, with where
// it failed, rather than arrow-go's account of what it was writing then.
func (w *RecordWriter) failure(err error) error {
	if w.out.err != nil {
		return fmt.Errorf("arrowmap/ipc: writing the IPC %s failed after %d bytes: %w", w.format, w.out.pos, w.out.err)
	}
	var replaced errReplacement
	if errors.As(err, &replaced) {
		return fmt.Errorf("arrowmap/ipc: writing the IPC file: %w", replaced)
	}
	return fmt.Errorf("arrowmap/ipc: writing the IPC %s: %w", w.format, err)
}

// Close ends the file with its footer, or the stream with its marker. A
// record a Write refused (of another schema, malformed, or with a value
// the spec forbids) stops nothing: Write returned its error, and Close
// ends the file or stream as usual, nil, with every record but the
// refused ones. When a Write failed to encode, which stops the writer,
// Close still ends a file or stream whose output works, with the records
// written before the failure, and returns an error that says so; when the
// output itself failed, nothing more can be written, and Close says that
// the file or stream is incomplete. Close does not close the io.Writer.
// Closing again returns the same.
func (w *RecordWriter) Close() error {
	if w.closed {
		return w.closeErr
	}
	w.closed = true
	defer w.dicts.release()
	err := guard(w.w.Close)
	switch {
	case w.out.err != nil:
		what := "an IPC file without its footer, which no file reader reads"
		if !w.out.file {
			what = "an IPC stream cut short, readable up to its last complete record"
		}
		w.closeErr = fmt.Errorf("arrowmap/ipc: the output is %s: writing failed after %d bytes: %w", what, w.out.pos, w.out.err)
	case w.err != nil:
		w.closeErr = fmt.Errorf("arrowmap/ipc: the IPC %s holds only the %d records written before an error: %w", w.format, w.written, w.err)
	case err != nil:
		w.closeErr = fmt.Errorf("arrowmap/ipc: closing the IPC %s: %w", w.format, err)
	}
	return w.closeErr
}
