package ipc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/apache/arrow-go/v18/arrow/array"
	arrowipc "github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/expansion"
	"github.com/arrowmap/arrowmap/internal/ipcschema"
	"github.com/arrowmap/arrowmap/internal/options"
	"github.com/arrowmap/arrowmap/mapper"
)

// ErrNotIPC is what the readers report, wrapped with what they read, for
// input that is not Arrow IPC at all: neither an IPC file, which starts
// with "ARROW1", nor an IPC stream, which starts with a message.
var ErrNotIPC = errors.New("not Arrow IPC data")

// fileMagic starts and ends an IPC file.
var fileMagic = []byte("ARROW1")

// Open opens the IPC file or stream at path, told apart by their first
// bytes (a file starts with "ARROW1"), and returns a Reader of its rows as
// values of T. The schema is checked against T, as mapper.NewReader does,
// before any row is read. The Reader's Release closes the file.
//
// opts are mapper.NewReader's options, and mapper.Allocator for the memory
// of the records read (memory.DefaultAllocator without it).
func Open[T any](path string, opts ...ReadOption) (*mapper.Reader[T], error) {
	return rowsOf[T]("ipc.Open", nil, opts, func(w readWith) (*records, error) { return openRecords(path, w) })
}

// OpenReaderAt is Open for the size bytes of an IPC file or stream that r
// reads: an *os.File, a *bytes.Reader, an object store's ranged reader.
// The Reader does not close r.
func OpenReaderAt[T any](r io.ReaderAt, size int64, opts ...ReadOption) (*mapper.Reader[T], error) {
	return rowsOf[T]("ipc.OpenReaderAt", nil, opts, func(w readWith) (*records, error) {
		return recordsAt(r, size, "the IPC data", w)
	})
}

// OpenColumns opens the IPC file or stream at path, as Open does, and
// returns a ColumnsReader that binds each of its records to the typed
// columns of C, as mapper.NewColumnsReader does. The ColumnsReader's
// Release closes the file.
//
// opts are mapper.NewColumnsReader's options, mapper.Allocator for the
// memory of the records read, and mapper.MaxExpansion.
func OpenColumns[C any](path string, opts ...ReadOption) (*mapper.ColumnsReader[C], error) {
	return columnsOf[C]("ipc.OpenColumns", opts, func(w readWith) (*records, error) { return openRecords(path, w) })
}

// NewReader reads an IPC stream from r (an io.Reader holds a stream: a
// file is read through its footer, at its end): its schema now, checked
// against T before any row is read, and its records as the Reader reads
// rows. Release the Reader when done; r is the caller's to close. Only the
// bytes of the stream are read from r, up to its end-of-stream marker.
//
// opts are mapper.NewReader's options, and mapper.Allocator for the memory
// of the records read.
func NewReader[T any](r io.Reader, opts ...ReadOption) (*mapper.Reader[T], error) {
	return rowsOf[T]("ipc.NewReader", nil, opts, func(w readWith) (*records, error) {
		return openStreamRecords(r, "the IPC stream", w, nil)
	})
}

// ReadFile reads every row of the IPC file or stream at path, as Open and
// ReadAll do. On an error it returns every row before it, and the error.
// ReadAll holds no more rows than the bytes of the records read back (see
// mapper.Reader.ReadAll): a record of a null or run-end-encoded column
// claiming more is an ErrTooLarge *mapper.Error.
//
// opts are mapper.NewReader's options but ZeroCopy (the rows outlive the
// records they would alias), and mapper.Allocator.
func ReadFile[T any](path string, opts ...ReadOption) ([]T, error) {
	r, err := rowsOf[T]("ipc.ReadFile", notZeroCopy, opts, func(w readWith) (*records, error) {
		return openRecords(path, w)
	})
	if err != nil {
		return nil, err
	}
	defer r.Release()
	return r.ReadAll()
}

// OpenRecords opens the IPC file or stream at path, as Open does, and
// returns its records as they are, for data whose schema is known only at
// run time, with Open's checks of malformed and truncated input. Release
// the reader when done; that closes the file.
//
// opts are mapper.Allocator, for the memory of the records read, and
// mapper.MaxExpansion.
func OpenRecords(path string, opts ...ReadOption) (array.RecordReader, error) {
	return recordsOf("ipc.OpenRecords", opts, func(w readWith) (*records, error) { return openRecords(path, w) })
}

// OpenRecordsReaderAt is OpenRecords for the size bytes of an IPC file or
// stream that r reads. Release the reader when done; r is the caller's to
// close, after.
func OpenRecordsReaderAt(r io.ReaderAt, size int64, opts ...ReadOption) (array.RecordReader, error) {
	return recordsOf("ipc.OpenRecordsReaderAt", opts, func(w readWith) (*records, error) {
		return recordsAt(r, size, "the IPC data", w)
	})
}

// NewRecordReader reads the records of the IPC stream r, as NewReader
// does, without the Go type. Release the reader when done; r is the
// caller's to close, after.
//
// opts are mapper.Allocator, for the memory of the records read, and
// mapper.MaxExpansion.
func NewRecordReader(r io.Reader, opts ...ReadOption) (array.RecordReader, error) {
	return recordsOf("ipc.NewRecordReader", opts, func(w readWith) (*records, error) {
		return openStreamRecords(r, "the IPC stream", w, nil)
	})
}

// opener opens the records an entry point reads, as its options say.
type opener func(w readWith) (*records, error)

// readWith is how the records are read: mem allocates them (nil:
// memory.DefaultAllocator), and ratio bounds what their compressed
// buffers may claim (mapper.MaxExpansion's; 0: the default), as
// ipcschema.CheckBatch does.
type readWith struct {
	mem   memory.Allocator
	ratio int64
}

// rowsOf is what every reader of rows does: its options checked for
// entry, which takes the mapper options takes reports true for (nil:
// every one), then the records open reads as a Reader of T, which holds
// its own reference to them.
func rowsOf[T any](entry string, takes func(mapper.ReadOption) bool, opts []ReadOption, open opener) (*mapper.Reader[T], error) {
	c, err := parseRead(entry, opts, takes)
	if err != nil {
		return nil, err
	}
	rr, err := open(c.with)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	return mapper.NewReader[T](rr, c.mapper...)
}

// columnsOf is rowsOf for a ColumnsReader of C.
func columnsOf[C any](entry string, opts []ReadOption, open opener) (*mapper.ColumnsReader[C], error) {
	c, err := parseRead(entry, opts, columnsOption)
	if err != nil {
		return nil, err
	}
	rr, err := open(c.with)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	return mapper.NewColumnsReader[C](rr, options.Without[mapper.MaxExpansionOption](c.mapper)...)
}

// recordsOf is rowsOf for the records themselves, which take only an
// allocator and MaxExpansion.
func recordsOf(entry string, opts []ReadOption, open opener) (array.RecordReader, error) {
	c, err := parseRead(entry, opts, recordsOption)
	if err != nil {
		return nil, err
	}
	return recordReader(open(c.with))
}

// recordReader is rr as an array.RecordReader, nil itself on an error
// rather than a nil *records, which an interface would hold as not nil.
func recordReader(rr *records, err error) (array.RecordReader, error) {
	if err != nil {
		return nil, err
	}
	return rr, nil
}

// openRecords opens the IPC file or stream at path, by its first bytes.
func openRecords(path string, w readWith) (*records, error) {
	f, size, err := openPath(path)
	if err != nil {
		return nil, err
	}
	var head [len("ARROW1")]byte
	n, err := io.ReadFull(f, head[:])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && err != io.EOF {
		f.Close()
		return nil, fmt.Errorf("arrowmap/ipc: reading %s: %w", path, err)
	}
	if bytes.Equal(head[:n], fileMagic) {
		return newFileRecords(f, path, size, w)
	}
	rr, err := openStreamRecords(io.MultiReader(bytes.NewReader(head[:n]), f), path, w, func() { f.Close() })
	if err != nil {
		f.Close()
		return nil, err
	}
	return rr, nil
}

// recordsAt reads the IPC file or stream of size bytes that r holds, by
// its first bytes.
func recordsAt(r io.ReaderAt, size int64, name string, w readWith) (*records, error) {
	var head [len("ARROW1")]byte
	n, err := r.ReadAt(head[:], 0)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("arrowmap/ipc: reading %s: %w", name, err)
	}
	if bytes.Equal(head[:n], fileMagic) {
		return fileRecords(r, name, size, w, nil)
	}
	return openStreamRecords(io.NewSectionReader(r, 0, size), name, w, nil)
}

// openPath opens path for reading, refusing a directory: reading one would
// fail later, with a less clear error.
func openPath(path string) (*os.File, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("arrowmap/ipc: %w", err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("arrowmap/ipc: %w", err)
	}
	if info.IsDir() {
		f.Close()
		return nil, 0, fmt.Errorf("arrowmap/ipc: %s is a directory, not an IPC file", path)
	}
	return f, info.Size(), nil
}

// newFileRecords reads the footer of the IPC file f of size bytes, and
// takes f over: it is closed on an error, and by the last Release of the
// records otherwise.
func newFileRecords(f *os.File, name string, size int64, w readWith) (*records, error) {
	rr, err := fileRecords(f, name, size, w, func() { f.Close() })
	if err != nil {
		f.Close()
	}
	return rr, err
}

// fileRecords reads the footer of the IPC file r of size bytes. closeFn,
// when not nil, is called by the last Release of the records, not on an
// error.
func fileRecords(r io.ReaderAt, name string, size int64, w readWith, closeFn func()) (*records, error) {
	if err := checkFileEnds(r, name, size); err != nil {
		return nil, err
	}
	footer, schema, err := checkFileFooter(r, size)
	if err != nil {
		return nil, fmt.Errorf("arrowmap/ipc: %s is not a valid Arrow IPC file: %w", name, err)
	}
	// arrow-go reads every dictionary as it opens the file, and a record
	// as it is read: each is checked before.
	dicts, err := ipcschema.DictionaryBlocks(footer)
	if err == nil {
		var held ipcschema.Dictionaries
		for i, b := range dicts {
			if err = ipcschema.CheckDictionaryBlock(r, size, b, w.ratio, schema, &held); err != nil {
				err = fmt.Errorf("dictionary %d: %w", i, err)
				break
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("arrowmap/ipc: %s: %w", name, limitError(err))
	}
	blocks, err := ipcschema.RecordBlocks(footer)
	if err != nil {
		return nil, fmt.Errorf("arrowmap/ipc: %s is not a valid Arrow IPC file: %w", name, err)
	}
	mem := w.mem
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	var fr *arrowipc.FileReader
	err = guard(func() error {
		var err error
		// No block of the file is larger than the file: arrow-go's default
		// limit, 256 MiB, would refuse large records of a valid file.
		fr, err = arrowipc.NewFileReader(io.NewSectionReader(r, 0, size), arrowipc.WithAllocator(mem), arrowipc.WithBodySizeLimit(max(size, 1)))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("arrowmap/ipc: %s is not a valid Arrow IPC file: %w", name, err)
	}
	recs := checkedFileBatches(fr, func(i int) error {
		if i >= len(blocks) {
			return nil // arrow-go counts the records from the same footer
		}
		if err := ipcschema.CheckBlock(r, size, blocks[i], w.ratio, schema); err != nil {
			return fmt.Errorf("record batch %d: %w", i, err)
		}
		return nil
	})
	out := newRecords(recs, name, func() {
		recs.Release() // the record it holds, which fr does not own
		fr.Close()
		if closeFn != nil {
			closeFn()
		}
	})
	out.rows = func() int64 { return fileRows(r, size, footer) }
	out.size = size
	return out, nil
}

// checkFileEnds tells apart, by their first and last bytes, what is not an
// IPC file, an IPC stream given as a file, and an IPC file cut short, so
// that each gets an error that says which.
func checkFileEnds(f io.ReaderAt, name string, size int64) error {
	var head, tail [len("ARROW1")]byte
	n, err := f.ReadAt(head[:], 0)
	if err != nil && err != io.EOF {
		return fmt.Errorf("arrowmap/ipc: reading %s: %w", name, err)
	}
	switch {
	case n == 0:
		return fmt.Errorf("arrowmap/ipc: %s is empty: %w", name, ErrNotIPC)
	case isStreamStart(head[:n]):
		return fmt.Errorf("arrowmap/ipc: %s is an Arrow IPC stream, not an IPC file: read it with Open, NewReader or ReadFile", name)
	case !bytes.Equal(head[:n], fileMagic):
		return fmt.Errorf("arrowmap/ipc: %s: %w: an IPC file starts with %q", name, ErrNotIPC, fileMagic)
	}
	// The smallest file: magic, padding, footer length, magic.
	if size >= int64(2*len(fileMagic)+2+4) {
		if _, err := f.ReadAt(tail[:], size-int64(len(tail))); err != nil {
			return fmt.Errorf("arrowmap/ipc: reading %s: %w", name, err)
		}
		if bytes.Equal(tail[:], fileMagic) {
			return nil
		}
	}
	return fmt.Errorf("arrowmap/ipc: %s is an IPC file cut short, without its footer: %w", name, io.ErrUnexpectedEOF)
}

// checkFileFooter checks the structure of the footer of the IPC file f of
// size bytes (see ipcschema.SchemaOfFooter), which checkFileEnds found
// ends with magic, and returns it with its schema.
func checkFileFooter(f io.ReaderAt, size int64) ([]byte, *ipcschema.Schema, error) {
	// The file ends with the footer, its length (int32) and the magic.
	var length [4]byte
	if _, err := f.ReadAt(length[:], size-int64(len(fileMagic))-4); err != nil {
		return nil, nil, err
	}
	n := int64(int32(binary.LittleEndian.Uint32(length[:])))
	start := size - int64(len(fileMagic)) - 4 - n
	if n <= 0 || start < int64(len(fileMagic)) {
		return nil, nil, fmt.Errorf("%w: a footer of %d bytes in a file of %d", ipcschema.ErrMalformed, n, size)
	}
	footer := make([]byte, n)
	if _, err := f.ReadAt(footer, start); err != nil {
		return nil, nil, err
	}
	schema, err := ipcschema.SchemaOfFooter(footer)
	return footer, schema, err
}

// maxRowsHeaderBytes bounds what fileRows reads of each record batch's
// message: its fixed fields come first, before the vectors of nodes and
// buffers, which can be long.
const maxRowsHeaderBytes = 4 << 10

// fileRows is the rows of the record batches of the IPC file f of size
// bytes, whose footer is footer: the sum of the length in the message
// header of each record batch the footer lists, each header read alone
// (a few hundred bytes a record, never a body). It is -1 when a block or
// a header does not hold: the count is a hint (mapper.RowsHinter), and
// reading the records reports what is malformed.
func fileRows(f io.ReaderAt, size int64, footer []byte) int64 {
	blocks, err := ipcschema.RecordBlocks(footer)
	if err != nil {
		return -1
	}
	var rows int64
	buf := make([]byte, maxRowsHeaderBytes)
	for _, b := range blocks {
		n := min(int64(b.MetaData), maxRowsHeaderBytes)
		if b.Offset < 0 || n < 8 || b.Offset > size-n {
			return -1
		}
		if _, err := f.ReadAt(buf[:n], b.Offset); err != nil {
			return -1
		}
		k, err := ipcschema.RecordBatchRows(buf[:n])
		if err != nil || k > math.MaxInt64-rows {
			return -1
		}
		rows += k
	}
	return rows
}

// isStreamStart reports whether b, the first bytes of some data, can start
// an IPC stream: a continuation marker, or the length of a first message
// of an older stream (before Arrow 0.15), which a schema keeps small.
// Anything else read as a length would make the reader allocate up to
// 4 GiB for a file that is not Arrow at all.
func isStreamStart(b []byte) bool {
	if len(b) < 4 {
		return false
	}
	word := binary.LittleEndian.Uint32(b)
	return word == ipcschema.Continuation || (word > 0 && word < 1<<20)
}

// openStreamRecords reads the schema of the stream r. closeFn, when not
// nil, is called by the last Release of the records, not on an error.
func openStreamRecords(r io.Reader, name string, w readWith, closeFn func()) (*records, error) {
	// Read the first bytes here, to tell what is not a stream before
	// arrow-go takes them as the length of a message.
	var head [8]byte
	n, err := io.ReadFull(r, head[:])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && err != io.EOF {
		return nil, fmt.Errorf("arrowmap/ipc: reading %s: %w", name, err)
	}
	switch {
	case n == 0:
		return nil, fmt.Errorf("arrowmap/ipc: %s is empty: %w", name, ErrNotIPC)
	case bytes.HasPrefix(head[:n], fileMagic):
		return nil, fmt.Errorf("arrowmap/ipc: %s is an Arrow IPC file, not an IPC stream: read it with Open, OpenReaderAt or ReadFile", name)
	case !isStreamStart(head[:n]):
		return nil, fmt.Errorf("arrowmap/ipc: %s: %w: an IPC stream starts with a message", name, ErrNotIPC)
	}
	mem := w.mem
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	var sr *arrowipc.Reader
	err = guard(func() error {
		var err error
		// sr takes mr over, and releases it even when it fails.
		mr := ipcschema.NewMessageReader(io.MultiReader(bytes.NewReader(head[:n]), r), w.ratio)
		sr, err = arrowipc.NewReaderFromMessageReader(mr, arrowipc.WithAllocator(mem))
		return err
	})
	if err != nil {
		err = expansion.SourceEnd(err) // a stream cut inside its schema is io.ErrUnexpectedEOF
		if err == nil {
			err = io.ErrUnexpectedEOF // the stream ended before its schema
		}
		return nil, fmt.Errorf("arrowmap/ipc: %s is not a valid Arrow IPC stream: %w", name, err)
	}
	closeAll := sr.Release
	if closeFn != nil {
		closeAll = func() { sr.Release(); closeFn() }
	}
	return newRecords(sr, name, closeAll), nil
}
