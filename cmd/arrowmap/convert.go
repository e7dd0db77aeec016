package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/internal/atomicfile"
	amipc "github.com/arrowmap/arrowmap/ipc"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/parquet"
)

// fileFormat is a kind of file convert reads or writes.
type fileFormat string

const (
	ipcFile   fileFormat = "file"
	ipcStream fileFormat = "stream"
	parquetFF fileFormat = "parquet"
)

func (f fileFormat) String() string {
	switch f {
	case ipcFile:
		return "an Arrow IPC file"
	case ipcStream:
		return "an Arrow IPC stream"
	default:
		return "a Parquet file"
	}
}

// formatNames are the names -from and -to take, and formatExtensions the
// extensions that tell a format.
var (
	formatNames = map[string]fileFormat{
		"file": ipcFile, "arrow": ipcFile, "ipc": ipcFile, "feather": ipcFile,
		"stream": ipcStream, "arrows": ipcStream,
		"parquet": parquetFF, "pq": parquetFF,
	}
	formatExtensions = map[string]fileFormat{
		".arrow": ipcFile, ".feather": ipcFile, ".ipc": ipcFile,
		".arrows": ipcStream, ".stream": ipcStream,
		".parquet": parquetFF, ".pq": parquetFF,
	}
)

func parseFormat(flagName, name string) (fileFormat, error) {
	if f, ok := formatNames[strings.ToLower(name)]; ok {
		return f, nil
	}
	return "", fmt.Errorf("-%s %q: want file, stream or parquet", flagName, name)
}

// convertCommand runs `arrowmap convert [-from F] [-to F] [-compression C]
// [-q] IN OUT`. What the command line alone shows wrong is a usage error,
// before any file is opened.
func convertCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	c := newCommandLine("convert", "[-from F] [-to F] [-compression C] [-max-expansion N] [-q] IN OUT", convertHelp, stderr)
	from := c.String("from", "", "the format of IN: file, stream or parquet (default: told by its first bytes)")
	to := c.String("to", "", "the format of OUT: file, stream or parquet (default: told by its extension)")
	codec := c.String("compression", "", "none, lz4 or zstd, and snappy, gzip or brotli for Parquet (default: none for IPC, snappy for Parquet)")
	quiet := c.Bool("q", false, "show no progress")
	expansion := maxExpansionFlag(c)
	if err := c.parse(args); err != nil {
		return err
	}
	if *expansion < 0 {
		return c.usageErrorf("-max-expansion %d is negative", *expansion)
	}
	if c.NArg() != 2 {
		return c.usageErrorf("want IN OUT, got %d arguments", c.NArg())
	}
	inName, outName := c.Arg(0), c.Arg(1)
	var want fileFormat
	if *from != "" {
		f, err := parseFormat("from", *from)
		if err != nil {
			return c.usageErrorf("%v", err)
		}
		want = f
	}
	outFormat, err := outputFormat(*to, outName)
	if err != nil {
		return c.usageErrorf("%v", err)
	}
	start, err := writerFor(outFormat, *codec)
	if err != nil {
		return c.usageErrorf("%v", err)
	}
	if err := checkOutput(inName, outName); err != nil {
		return err
	}
	return tooLarge("convert", withSource(inName, stdin, func(src *source) error {
		src.expansion = *expansion
		if want != "" && src.format != want {
			return fmt.Errorf("%s is %s, not %s (-from %s)", src.name, src.format, want, *from)
		}
		in, err := src.records(0)
		if err != nil {
			return err
		}
		defer in.close()
		return convert(in, outName, start, stdout, newProgress(stderr, in.rows, *quiet))
	}))
}

// outputFormat is the format of OUT: -to, else its extension. A -to that
// disagrees with a known extension of OUT is an error: the file would
// not be what its name says.
func outputFormat(to, out string) (fileFormat, error) {
	ext := strings.ToLower(filepath.Ext(out))
	byExt, known := formatExtensions[ext]
	if out == "-" {
		known = false
	}
	if to != "" {
		f, err := parseFormat("to", to)
		if err != nil {
			return "", err
		}
		if known && f != byExt {
			return "", fmt.Errorf("-to %s writes %s, but %s names %s by its extension", to, f, out, byExt)
		}
		return f, nil
	}
	switch {
	case known:
		return byExt, nil
	case out == "-":
		return "", errors.New("writing to standard output needs -to file, stream or parquet")
	case ext == "":
		return "", fmt.Errorf("%s has no extension to tell its format: name it .arrow, .arrows or .parquet, or give -to", out)
	}
	return "", fmt.Errorf("unknown extension %q of %s: want .arrow, .feather or .ipc (IPC file), .arrows or .stream (IPC stream), .parquet or .pq, or give -to", ext, out)
}

// checkOutput refuses, before anything is read or written, an output that
// cannot be written: a directory, a file in a directory that does not
// exist, or the input itself (the same file, by any name or link).
func checkOutput(in, out string) error {
	if out == "-" {
		return nil
	}
	outInfo, err := os.Stat(out)
	if err == nil && outInfo.IsDir() {
		return fmt.Errorf("convert: %s is a directory, not a file to write", out)
	}
	if err == nil && in != "" && in != "-" {
		if inInfo, err := os.Stat(in); err == nil && os.SameFile(inInfo, outInfo) {
			return fmt.Errorf("convert: %s is %s itself: write to another file", out, in)
		}
	}
	dir := filepath.Dir(out)
	info, err := os.Stat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("convert: cannot write %s: %v", out, err)
	case !info.IsDir():
		return fmt.Errorf("convert: cannot write %s: %s is not a directory", out, dir)
	}
	return nil
}

// recordWriter is what convert writes records through: the library's IPC
// and Parquet record writers.
type recordWriter interface {
	Write(arrow.RecordBatch) error
	Close() error
}

// parquetCodecs are the codecs -compression names for Parquet.
var parquetCodecs = map[string]parquet.Compression{
	"": parquet.DefaultCompression, "snappy": parquet.Snappy, "none": parquet.Uncompressed,
	"zstd": parquet.Zstd, "lz4": parquet.LZ4Raw, "gzip": parquet.Gzip, "brotli": parquet.Brotli,
}

// writerFor returns how to start a writer of the format f, compressed as
// codec says. Parquet is written by parquet.NewRecordWriter in row groups
// of the library's default rows (parquet.DefaultRowGroupRows), as
// parquet.WriteFile writes them: the same file the library writes, and
// the memory of one such row group.
func writerFor(f fileFormat, codec string) (func(io.Writer, *arrow.Schema) (recordWriter, error), error) {
	codec = strings.ToLower(codec)
	if f == parquetFF {
		c, ok := parquetCodecs[codec]
		if !ok {
			return nil, fmt.Errorf("-compression %q: want none, snappy, zstd, lz4, gzip or brotli for Parquet", codec)
		}
		return func(w io.Writer, schema *arrow.Schema) (recordWriter, error) {
			return parquet.NewRecordWriter(w, schema, parquet.WriteConfig{Compression: c})
		}, nil
	}
	c, ok := map[string]amipc.Codec{"": amipc.None, "none": amipc.None, "lz4": amipc.LZ4, "zstd": amipc.ZSTD}[codec]
	if !ok {
		return nil, fmt.Errorf("-compression %q: want none, lz4 or zstd for Arrow IPC", codec)
	}
	cfg := amipc.WriteConfig{Compression: c, DictionaryDeltas: true}
	return func(w io.Writer, schema *arrow.Schema) (recordWriter, error) {
		if f == ipcFile {
			return amipc.NewRecordFileWriter(w, schema, cfg)
		}
		return amipc.NewRecordStreamWriter(w, schema, cfg)
	}, nil
}

// convert writes the records of in to out ("-": stdout) with the writer
// start makes, one record at a time. A temporary file is written beside
// out (createBeside) and put at it at the end: on every other way out, a
// failure or a panic, the file is removed and out is as it was.
func convert(in *input, out string, start func(io.Writer, *arrow.Schema) (recordWriter, error), stdout io.Writer, progress *progress) error {
	defer progress.end(false) // a failure: the line cleared for its message
	var dst io.Writer = stdout
	commit := func() error { return nil }
	if out != "-" {
		f, commitFile, abort, err := createBeside(out)
		if err != nil {
			return fmt.Errorf("convert: cannot write %s: %v", out, err)
		}
		defer abort() // after commit, nothing to do
		dst, commit = f, commitFile
	}
	buf := bufio.NewWriterSize(progress.writer(dst), 1<<20)
	w, err := start(buf, in.schema)
	if err != nil {
		return fmt.Errorf("convert: writing %s: %w", out, err)
	}
	defer w.Close() // a writer that failed: no footer
	var first int64 // the first row of rec, counted from IN's start
	for records := 1; in.records.Next(); records++ {
		rec := in.records.RecordBatch()
		if err := w.Write(rec); err != nil {
			if refused(err) {
				return fmt.Errorf("%s: record %d (rows %d to %d), not written to %s: %w", in.name, records-1, first, first+rec.NumRows()-1, out, err)
			}
			return fmt.Errorf("convert: writing %s: %w", out, err)
		}
		first += rec.NumRows()
		progress.rows(rec.NumRows())
		if afterRecord != nil {
			afterRecord(records)
		}
	}
	if err := in.records.Err(); err != nil && err != io.EOF {
		return fmt.Errorf("%s: %w", in.name, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("convert: writing %s: %w", out, err)
	}
	if err := buf.Flush(); err != nil {
		return fmt.Errorf("convert: writing %s: %w", out, err)
	}
	if err := commit(); err != nil {
		return fmt.Errorf("convert: writing %s: %w", out, err)
	}
	progress.end(true)
	return nil
}

// refused reports whether err is a record writer's refusal of a record
// of IN: malformed, or holding a value the Arrow spec forbids (see
// internal/forbidden), a fault of IN and not of OUT.
func refused(err error) bool {
	var e *mapper.Error
	return errors.As(err, &e) && (errors.Is(err, mapper.ErrInvalidData) || errors.Is(err, mapper.ErrNull))
}

// afterRecord, when not nil, is called by convert after each record it
// wrote, with their number: the tests' hook (testhooks.go), nil in the
// command users build.
var afterRecord func(records int)

// createBeside creates the file that is to become path (see atomicfile):
// commit syncs it and puts it at path; abort, unless commit succeeded,
// removes it. Where the system makes it unnamed, nothing of it is left
// however the command ends, killed or not; where it is named, an
// interrupt removes it too.
func createBeside(path string) (f *os.File, commit func() error, abort func(), err error) {
	tmp, err := atomicfile.Create(path)
	if err != nil {
		return nil, nil, nil, err
	}
	forget := func() {}
	if name := tmp.TempName(); name != "" {
		forget = removeOnInterrupt(name)
	}
	commit = func() error {
		defer forget()
		if err := tmp.Sync(); err != nil { // the long part, before interrupts wait
			return err
		}
		// An unnamed file put where a file is gets a name beside it for an
		// instant before the rename: an interrupt then waits for the rename.
		return withoutInterrupts(tmp.Commit)
	}
	abort = func() {
		tmp.Abort()
		forget()
	}
	return tmp.File, commit, abort, nil
}
