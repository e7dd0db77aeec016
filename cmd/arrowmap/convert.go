package main

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	amipc "github.com/arrowmap/arrowmap/ipc"
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
	return "", fmt.Errorf("convert: -%s %q: want file, stream or parquet", flagName, name)
}

// The row groups convert writes: as many rows as pyarrow's default.
const parquetRowGroupRows = 1 << 20

// convertCommand runs `arrowmap convert [-from F] [-to F] [-compression C]
// [IN] OUT`.
func convertCommand(fs *flag.FlagSet, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	from := fs.String("from", "", "the format of IN: file, stream or parquet (default: told by its first bytes)")
	to := fs.String("to", "", "the format of OUT: file, stream or parquet (default: told by its extension)")
	codec := fs.String("compression", "", "none, lz4 or zstd, and snappy or gzip for Parquet (default: none for IPC, snappy for Parquet)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("convert: %v", err)
	}
	var inName, outName string
	switch fs.NArg() {
	case 1:
		outName = fs.Arg(0) // the embedded sample, converted
	case 2:
		inName, outName = fs.Arg(0), fs.Arg(1)
	default:
		return fmt.Errorf("convert: want [IN] OUT, got %d arguments", fs.NArg())
	}

	var want fileFormat
	if *from != "" {
		f, err := parseFormat("from", *from)
		if err != nil {
			return err
		}
		want = f
	}
	outFormat, err := outputFormat(*to, outName)
	if err != nil {
		return err
	}
	write, err := writerFor(outFormat, *codec)
	if err != nil {
		return err
	}
	if err := checkOutput(outName); err != nil {
		return err
	}

	in, err := open(inName, stdin)
	if err != nil {
		return err
	}
	defer in.close()
	if want != "" && in.format != want {
		return fmt.Errorf("%s is %s, not %s (-from %s)", in.name, in.format, want, *from)
	}
	return convert(in, outName, write, stdout, stderr)
}

// outputFormat is the format of OUT: -to, else its extension.
func outputFormat(to, out string) (fileFormat, error) {
	if to != "" {
		return parseFormat("to", to)
	}
	ext := strings.ToLower(filepath.Ext(out))
	if f, ok := formatExtensions[ext]; ok {
		return f, nil
	}
	if out == "-" {
		return "", errors.New("convert: writing to standard output needs -to file, stream or parquet")
	}
	if ext == "" {
		return "", fmt.Errorf("convert: %s has no extension to tell its format: name it .arrow, .arrows or .parquet, or give -to", out)
	}
	return "", fmt.Errorf("convert: unknown extension %q of %s: want .arrow, .feather or .ipc (IPC file), .arrows or .stream (IPC stream), .parquet or .pq, or give -to", ext, out)
}

// checkOutput refuses, before anything is read, an output that cannot be
// written: a directory, or a file in a directory that does not exist.
func checkOutput(out string) error {
	if out == "-" {
		return nil
	}
	if info, err := os.Stat(out); err == nil && info.IsDir() {
		return fmt.Errorf("convert: %s is a directory, not a file to write", out)
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

// recordWriter is what convert writes records through: our IPC writers, or
// pqarrow's.
type recordWriter interface {
	Write(arrow.RecordBatch) error
	Close() error
}

// writerFor returns how to start a writer of the format f, compressed as
// codec says.
func writerFor(f fileFormat, codec string) (func(io.Writer, *arrow.Schema) (recordWriter, error), error) {
	codec = strings.ToLower(codec)
	if f == parquetFF {
		c, ok := map[string]compress.Compression{
			"": compress.Codecs.Snappy, "snappy": compress.Codecs.Snappy, "none": compress.Codecs.Uncompressed,
			"zstd": compress.Codecs.Zstd, "lz4": compress.Codecs.Lz4Raw, "gzip": compress.Codecs.Gzip,
		}[codec]
		if !ok {
			return nil, fmt.Errorf("convert: -compression %q: want none, snappy, zstd, lz4 or gzip for Parquet", codec)
		}
		return func(w io.Writer, schema *arrow.Schema) (recordWriter, error) {
			props := parquet.NewWriterProperties(parquet.WithCompression(c), parquet.WithMaxRowGroupLength(parquetRowGroupRows))
			// The Arrow schema stored in the file gives back what Parquet has
			// no type for: time zones, dictionaries, large and view types.
			arrowProps := pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema())
			for _, f := range schema.Fields() {
				// pqarrow's error does not say which column it is about.
				if _, err := pqarrow.ToParquet(arrow.NewSchema([]arrow.Field{f}, nil), props, arrowProps); err != nil {
					return nil, fmt.Errorf("column %q (%s) cannot be written to Parquet: %w", f.Name, f.Type, err)
				}
			}
			fw, err := pqarrow.NewFileWriter(schema, w, props, arrowProps)
			if err != nil {
				return nil, err
			}
			return parquetWriter{fw}, nil
		}, nil
	}
	c, ok := map[string]amipc.Codec{"": amipc.None, "none": amipc.None, "lz4": amipc.LZ4, "zstd": amipc.ZSTD}[codec]
	if !ok {
		return nil, fmt.Errorf("convert: -compression %q: want none, lz4 or zstd for Arrow IPC", codec)
	}
	cfg := amipc.WriteConfig{Compression: c, DictionaryDeltas: true}
	return func(w io.Writer, schema *arrow.Schema) (recordWriter, error) {
		if f == ipcFile {
			return amipc.NewRecordFileWriter(w, schema, cfg)
		}
		return amipc.NewRecordStreamWriter(w, schema, cfg)
	}, nil
}

// parquetWriter gathers records into row groups, rather than one a record.
type parquetWriter struct{ fw *pqarrow.FileWriter }

func (p parquetWriter) Write(rec arrow.RecordBatch) error { return p.fw.WriteBuffered(rec) }
func (p parquetWriter) Close() error                      { return p.fw.Close() }

// convert writes the records of in to out ("-": stdout) with the writer
// start makes. A file is written beside out and renamed to it at the end,
// so that a failed conversion leaves out as it was.
func convert(in *input, out string, start func(io.Writer, *arrow.Schema) (recordWriter, error), stdout, stderr io.Writer) (err error) {
	var dst io.Writer = stdout
	commit := func() error { return nil }
	if out != "-" {
		f, tmp, cerr := createBeside(out)
		if cerr != nil {
			return fmt.Errorf("convert: cannot write %s: %v", out, cerr)
		}
		defer func() {
			if err != nil {
				f.Close()
				os.Remove(tmp)
			}
		}()
		dst = f
		commit = func() error {
			if err := f.Close(); err != nil {
				return err
			}
			return os.Rename(tmp, out)
		}
	}
	buf := bufio.NewWriterSize(dst, 1<<20)
	w, err := start(buf, in.schema)
	if err != nil {
		return fmt.Errorf("convert: writing %s: %w", out, err)
	}
	progress := newProgress(stderr)
	defer progress.done()
	rows := 0
	for in.records.Next() {
		rec := in.records.RecordBatch()
		if err := w.Write(rec); err != nil {
			w.Close()
			return fmt.Errorf("convert: writing %s: %w", out, err)
		}
		rows += int(rec.NumRows())
		progress.rows(rows)
	}
	if err := in.records.Err(); err != nil && err != io.EOF {
		w.Close()
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
	return nil
}

// createBeside creates a new file in the directory of path, to be renamed
// to path, with the permissions a new file gets (0666 less the umask).
func createBeside(path string) (*os.File, string, error) {
	var suffix [6]byte
	for range 10 {
		rand.Read(suffix[:])
		tmp := path + ".tmp-" + hex.EncodeToString(suffix[:])
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if err == nil || !errors.Is(err, os.ErrExist) {
			return f, tmp, err
		}
	}
	return nil, "", errors.New("no free temporary name")
}
