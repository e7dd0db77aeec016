package ipc

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/arrowmap/arrowmap/internal/atomicfile"
	"github.com/arrowmap/arrowmap/mapper"
)

// Writer writes rows of T as an IPC file or stream, with the schema
// mapper.SchemaOf[T]: rows are encoded by one mapper.Builder, reused, into
// records of WriteConfig.BatchRows rows, across Write calls; Flush and
// Close write the rows left as a shorter record.
//
//	w, err := ipc.NewWriter[Order](conn, ipc.WriteConfig{Compression: ipc.LZ4})
//	if err != nil { … }
//	for page := range pages {
//		if _, err := w.Write(page); err != nil { … }
//	}
//	if err := w.Close(); err != nil { … }
//
// A Writer is not safe for concurrent use.
type Writer[T any] struct {
	rw       *RecordWriter
	b        *mapper.Builder[T]
	batch    int // rows per record
	pending  int // rows in b, not yet written
	closed   bool
	closeErr error
}

// NewWriter writes an IPC stream of rows of T to w (the format an
// io.Writer takes as it comes; NewFileWriter writes a file); Close writes
// its end-of-stream marker. w is the caller's to close, after Close.
//
// opts are mapper.NewBuilder's options (SnakeCase, As, Allocator,
// SchemaMetadata) and a WriteConfig.
func NewWriter[T any](w io.Writer, opts ...WriteOption) (*Writer[T], error) {
	return newWriter[T]("ipc.NewWriter", w, opts, false)
}

// NewFileWriter writes an IPC file of rows of T to w; Close writes its
// footer. w is the caller's to close, after Close. opts are NewWriter's.
func NewFileWriter[T any](w io.Writer, opts ...WriteOption) (*Writer[T], error) {
	return newWriter[T]("ipc.NewFileWriter", w, opts, true)
}

func newWriter[T any](entry string, w io.Writer, opts []WriteOption, file bool) (*Writer[T], error) {
	c, err := parseWrite(entry, opts, nil)
	if err != nil {
		return nil, err
	}
	cfg := c.Config
	schema, err := mapper.SchemaOf[T](c.Mapper...)
	if err != nil {
		return nil, err
	}
	b, err := mapper.NewBuilder[T](append(c.Mapper[:len(c.Mapper):len(c.Mapper)], mapper.Allocator(cfg.alloc))...)
	if err != nil {
		return nil, err
	}
	rw, err := newRecordWriter(w, schema, cfg, file)
	if err != nil {
		b.Release()
		return nil, err
	}
	batch := cfg.BatchRows
	if batch == 0 {
		batch = DefaultBatchRows
	}
	return &Writer[T]{rw: rw, b: b, batch: batch}, nil
}

// Write encodes rows and writes every record they fill, and returns how
// many of rows the writer took: len(rows) when the error is nil. A value
// that does not fit its column is a *mapper.Error naming the field, the
// column and the row (its index in rows): the records that the rows before
// it filled are written, the rows from the start of the record it would be
// in are not, and the writer goes on as if Write had been given only the
// rows before those: the count returned. A failure of the output
// stops the writer: every Write after it returns 0 and the same error.
func (w *Writer[T]) Write(rows []T) (int, error) {
	if w.closed {
		return 0, ErrClosed
	}
	if w.rw.err != nil {
		return 0, w.rw.err
	}
	for start := 0; start < len(rows); {
		n := min(len(rows)-start, w.batch-w.pending)
		if err := w.b.Append(rows[start : start+n]...); err != nil {
			// Append keeps nothing of rows[start:start+n], the rows of
			// the record being built that this call gave.
			return start, w.rowError(err, start)
		}
		w.pending += n
		start += n
		if w.pending == w.batch {
			if err := w.flush(); err != nil {
				return max(start-w.batch, 0), err
			}
		}
	}
	return len(rows), nil
}

// rowError is err of an Append of the rows from start, whose Row counts
// from the start of the record, with its Row counted in the rows of Write.
func (w *Writer[T]) rowError(err error, start int) error {
	var e *mapper.Error
	if errors.As(err, &e) && e.Row >= 0 {
		moved := *e
		moved.Row = e.Row - w.pending + start
		return &moved
	}
	return err
}

// Flush writes the rows encoded so far as a record, shorter than
// BatchRows, so that a stream's reader gets them now: a Reader's All yields
// each, where its Read and Pages wait for rows enough to fill what they
// were given (see mapper.Reader.Read). It does not flush w.
func (w *Writer[T]) Flush() error {
	if w.closed {
		return ErrClosed
	}
	if w.pending == 0 {
		return w.rw.err
	}
	return w.flush()
}

func (w *Writer[T]) flush() error {
	rec := w.b.NewRecordBatch()
	defer rec.Release()
	w.pending = 0
	return w.rw.Write(rec)
}

// Close writes the rows left and ends the file (its footer) or the stream
// (its end-of-stream marker), and releases the writer's memory. A row a
// Write refused (a value that does not fit its column) stops nothing: Close
// ends the file or stream as usual, nil, with every row but the refused
// ones. After a Write that stopped the writer, Close ends a file or stream
// whose output still works with what was written and says so; after a
// failure of the output, it says the output is incomplete (see
// RecordWriter.Close). Close does not close the io.Writer. Closing again
// returns the same.
func (w *Writer[T]) Close() error {
	if w.closed {
		return w.closeErr
	}
	w.closed = true
	defer w.b.Release()
	var err error
	if w.pending > 0 && w.rw.err == nil {
		err = w.flush()
	}
	if w.closeErr = w.rw.Close(); w.closeErr == nil {
		w.closeErr = err
	}
	return w.closeErr
}

// WriteFile writes rows as an IPC file at path, in records of
// cfg.BatchRows rows, replacing the file there whole or not at all: the
// file is written to a temporary file in path's directory, synced and put
// at path at the end, with the permissions of the file it replaces, or of
// a new file. On an error, or a panic, the temporary file is removed and a
// file at path is left as it was. On Linux the temporary file has no name
// until then (O_TMPFILE), so a process killed meanwhile leaves nothing
// behind; elsewhere it is path's name, ".tmp-" and a random suffix.
//
// opts are NewWriter's: mapper.NewBuilder's options and a WriteConfig,
// none needed for the defaults.
func WriteFile[T any](path string, rows []T, opts ...WriteOption) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return fmt.Errorf("arrowmap/ipc: %w", err)
	}
	defer f.Abort() // after Commit, nothing
	// arrow-go writes a message in many small pieces: buffer them.
	buf := bufio.NewWriterSize(f, 1<<20)
	w, err := newWriter[T]("ipc.WriteFile", buf, opts, true)
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
	if err := buf.Flush(); err != nil {
		return fmt.Errorf("arrowmap/ipc: writing %s: %w", path, err)
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("arrowmap/ipc: writing %s: %w", path, err)
	}
	return nil
}
