package main

import (
	"bufio"
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	amipc "github.com/arrowmap/arrowmap/ipc"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/parquet"
)

//go:embed sample.arrow
var sampleFile []byte

// The first bytes of each format.
var (
	arrowFileMagic = []byte("ARROW1")
	parquetMagic   = []byte("PAR1")
)

// ipcFilePrefix is what an IPC file has before its stream: the magic,
// padded to 8 bytes.
const ipcFilePrefix = "ARROW1\x00\x00"

// source is an input to read, never read whole: an IPC file or a Parquet
// file through an io.ReaderAt, each read taking the bytes it needs, or an
// IPC stream read as it comes.
type source struct {
	name   string // how errors name it
	format fileFormat
	at     io.ReaderAt // an IPC file or a Parquet file
	size   int64
	stream io.Reader // an IPC stream
	close  func()    // closes the file, removes a spooled copy
	// maxPage and int96Unit are the ReadConfig.MaxPageSize and Int96Unit
	// of a Parquet file's records; expansion is mapper.MaxExpansion's
	// ratio, of every reader's (0: the library's default).
	maxPage   int64
	int96Unit *arrow.TimeUnit
	expansion int
}

// openSource opens name: "-" is standard input, "" the embedded sample.
// An IPC file or a Parquet file on standard input (told by its magic) is
// copied to a temporary file, which close removes, and read from there:
// both are read from their footer.
func openSource(name string, stdin io.Reader) (*source, error) {
	switch name {
	case "":
		return fileSource("the embedded sample", bytes.NewReader(sampleFile), int64(len(sampleFile)), func() {})
	case "-":
		if f, ok := stdin.(*os.File); ok {
			// Standard input redirected from a file is read in place.
			if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
				if at, err := f.Seek(0, io.SeekCurrent); err == nil && at <= info.Size() {
					return fileSource("standard input", io.NewSectionReader(f, at, info.Size()-at), info.Size()-at, func() {})
				}
			}
		}
		return streamSource("standard input", stdin, func() {})
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	switch {
	case info.IsDir():
		f.Close()
		return nil, fmt.Errorf("%s is a directory, not a file", name)
	case !info.Mode().IsRegular(): // a pipe, a device
		return streamSource(name, f, func() { f.Close() })
	}
	src, err := fileSource(name, f, info.Size(), func() { f.Close() })
	if err != nil {
		f.Close()
	}
	return src, err
}

// fileSource is the source of the size bytes at reads, whose format its
// first bytes tell; close is called at the source's close.
func fileSource(name string, at io.ReaderAt, size int64, close func()) (*source, error) {
	head := make([]byte, len(ipcFilePrefix))
	n, err := at.ReadAt(head, 0)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	src := &source{name: name, at: at, size: size, close: close}
	switch head = head[:n]; {
	case n == 0:
		return nil, fmt.Errorf("%s: empty input: not an Arrow or Parquet file", name)
	case bytes.HasPrefix(head, arrowFileMagic):
		src.format = ipcFile
	case bytes.HasPrefix(head, parquetMagic):
		src.format = parquetFF
	default:
		src.format = ipcStream
		src.stream = io.NewSectionReader(at, 0, size)
		src.at = nil
	}
	return src, nil
}

// streamSource is the source of r, read once from its start: an IPC
// stream as it comes, an IPC or Parquet file spooled to a temporary file.
func streamSource(name string, r io.Reader, close func()) (*source, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(len(ipcFilePrefix))
	if err != nil && !errors.Is(err, io.EOF) {
		close()
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	switch {
	case len(head) == 0:
		close()
		return nil, fmt.Errorf("%s: empty input: not an Arrow or Parquet file", name)
	case bytes.HasPrefix(head, arrowFileMagic), bytes.HasPrefix(head, parquetMagic):
		return spool(name, br, close)
	}
	return &source{name: name, format: ipcStream, stream: br, close: close}, nil
}

// spool copies r to a temporary file (scratchFile) and returns the source
// of that file, whose close removes it.
func spool(name string, r io.Reader, close func()) (*source, error) {
	tmp, tmpName, err := scratchFile()
	if err != nil {
		close()
		return nil, fmt.Errorf("%s: spooling to a temporary file: %w", name, err)
	}
	forget := func() {}
	if tmpName != "" {
		forget = removeOnInterrupt(tmpName)
	}
	remove := func() {
		tmp.Close()
		if tmpName != "" {
			os.Remove(tmpName)
		}
		forget()
		close()
	}
	size, err := io.Copy(tmp, r)
	if err != nil {
		remove()
		return nil, fmt.Errorf("%s: spooling to a temporary file: %w", name, err)
	}
	src, err := fileSource(name, tmp, size, remove)
	if err != nil {
		remove()
	}
	return src, err
}

// schema reads the schema of the source alone, no dictionary and no
// record, so that a file whose data is damaged still shows its schema: a
// Parquet file's from its footer, a stream's from its schema message, and
// an IPC file's from the schema message at its start (read as a stream's
// is: arrow-go's file reader reads every dictionary when it opens), or
// from its footer when that message does not read.
func (s *source) schema() (*arrow.Schema, error) {
	switch s.format {
	case parquetFF:
		schema, err := parquet.ReadSchema(s.at, s.size)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
		return schema, nil
	case ipcFile:
		start := io.NewSectionReader(s.at, int64(len(ipcFilePrefix)), s.size-int64(len(ipcFilePrefix)))
		if r, err := amipc.NewRecordReader(start); err == nil {
			defer r.Release()
			return r.Schema(), nil
		}
	}
	in, err := s.records(0)
	if err != nil {
		return nil, err
	}
	defer in.close()
	return in.schema, nil
}

// input is the records of a source.
type input struct {
	name    string
	format  fileFormat
	schema  *arrow.Schema
	records array.RecordReader
	// rows is the number of rows in all, as a Parquet footer says; -1 when
	// the input does not say (an IPC file's footer has its records'
	// places, not their lengths).
	rows int64
}

func (in *input) close() { in.records.Release() }

// records opens the records of s. rows, when positive, is the most rows
// the caller reads: a Parquet file is read in records of no more.
func (s *source) records(rows int) (*input, error) {
	in := &input{name: s.name, format: s.format, rows: -1}
	expansion := mapper.MaxExpansion(s.expansion)
	var err error
	switch s.format {
	case ipcFile:
		in.records, err = amipc.OpenRecordsReaderAt(s.at, s.size, expansion)
	case parquetFF:
		// The library bounds what a page header may make it allocate, and
		// its reader's own allocator reuses buffers: a bounded allocator
		// here would panic on pqarrow's goroutines, out of reach.
		cfg := parquet.ReadConfig{MaxPageSize: s.maxPage, Int96Unit: s.int96Unit}
		if rows > 0 {
			cfg.BatchRows = min(rows, parquet.DefaultBatchRows)
		}
		in.records, err = parquet.OpenRecordsReaderAt(s.at, s.size, cfg, expansion)
		if h, ok := in.records.(mapper.RowsHinter); ok && err == nil {
			in.rows = h.RowsHint() // the footer's count
		}
	default:
		in.records, err = amipc.NewRecordReader(s.stream, expansion)
		if errors.Is(err, amipc.ErrNotIPC) {
			return nil, fmt.Errorf("%s: not an Arrow IPC file or stream, nor a Parquet file", s.name)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	in.schema = in.records.Schema()
	return in, nil
}
