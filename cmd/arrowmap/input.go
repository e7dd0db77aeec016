package main

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	amipc "github.com/arrowmap/arrowmap/ipc"
)

//go:embed sample.arrow
var sampleFile []byte

// input is an opened file: its schema and its records.
type input struct {
	name    string
	format  fileFormat // as its first bytes tell
	schema  *arrow.Schema
	records array.RecordReader
	close   func()
}

// The first bytes of each format.
var (
	arrowFileMagic = []byte("ARROW1")
	parquetMagic   = []byte("PAR1")
)

// maxInput bounds what is read into memory, so that a huge or endless
// standard input is an error, not an exhausted machine.
const maxInput = 4 << 30

// open reads name ("-" for stdin, "" for the embedded sample) and opens it
// as an IPC file, a Parquet file or an IPC stream, by its first bytes.
func open(name string, stdin io.Reader) (*input, error) {
	name, data, err := readInput(name, stdin)
	if err != nil {
		return nil, err
	}
	in, err := openBytes(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	in.name = name
	return in, nil
}

// openSchema is open for the schema alone: it reads no dictionary and no
// record, so a file whose data is damaged still shows its schema. The
// input has no records.
func openSchema(name string, stdin io.Reader) (*input, error) {
	name, data, err := readInput(name, stdin)
	if err != nil {
		return nil, err
	}
	schema, err := schemaOnly(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &input{name: name, schema: schema, close: func() {}}, nil
}

// readInput reads name ("-" for stdin, "" for the embedded sample) and
// returns how errors name it, and its bytes.
func readInput(name string, stdin io.Reader) (string, []byte, error) {
	var data []byte
	switch name {
	case "":
		name, data = "the embedded sample", sampleFile
	case "-":
		b, err := io.ReadAll(io.LimitReader(stdin, maxInput+1))
		if err != nil {
			return "", nil, fmt.Errorf("reading standard input: %w", err)
		}
		name, data = "standard input", b
	default:
		info, err := os.Stat(name)
		if err != nil {
			return "", nil, err
		}
		if info.IsDir() {
			return "", nil, fmt.Errorf("%s is a directory, not a file", name)
		}
		if data, err = os.ReadFile(name); err != nil {
			return "", nil, err
		}
	}
	if len(data) > maxInput {
		return "", nil, fmt.Errorf("%s is larger than %d bytes", name, maxInput)
	}
	return name, data, nil
}

// schemaOnly reads the schema of data alone. An IPC file begins with the
// stream of its schema message (after the magic and its padding), which
// is read as a stream's is, without arrow-go's file reader, which reads
// every dictionary when it opens; the schema in the footer, read by it,
// is the way left when that message does not read. Parquet keeps the
// schema in its footer.
func schemaOnly(data []byte) (*arrow.Schema, error) {
	mem := boundedFor(len(data))
	switch {
	case bytes.HasPrefix(data, arrowFileMagic) && len(data) > len(ipcFilePrefix):
		if r, err := amipc.NewRecordStreamReader(bytes.NewReader(data[len(ipcFilePrefix):]), mem); err == nil {
			defer r.Release()
			return r.Schema(), nil
		}
	case bytes.HasPrefix(data, parquetMagic):
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("not a valid Parquet file: %w", err)
		}
		defer pf.Close()
		fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, mem)
		if err != nil {
			return nil, fmt.Errorf("reading Parquet: %w", err)
		}
		return fr.Schema()
	}
	in, err := openBytes(data)
	if err != nil {
		return nil, err
	}
	defer in.close()
	return in.schema, nil
}

// ipcFilePrefix is what an IPC file has before its stream: the magic,
// padded to 8 bytes.
const ipcFilePrefix = "ARROW1\x00\x00"

func openBytes(data []byte) (*input, error) {
	mem := boundedFor(len(data))
	switch {
	case len(data) == 0:
		return nil, errors.New("empty input: not an Arrow or Parquet file")
	case bytes.HasPrefix(data, arrowFileMagic):
		// Our readers check what arrow-go trusts: a corrupt length in a
		// schema would make it allocate terabytes.
		rr, err := amipc.NewRecordFileReader(bytes.NewReader(data), int64(len(data)), mem)
		if err != nil {
			return nil, err
		}
		return &input{format: ipcFile, schema: rr.Schema(), records: rr, close: rr.Release}, nil
	case bytes.HasPrefix(data, parquetMagic):
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("not a valid Parquet file: %w", err)
		}
		fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 4096}, mem)
		if err != nil {
			pf.Close()
			return nil, fmt.Errorf("reading Parquet: %w", err)
		}
		rr, err := fr.GetRecordReader(context.Background(), nil, nil)
		if err != nil {
			pf.Close()
			return nil, fmt.Errorf("reading Parquet: %w", err)
		}
		return &input{format: parquetFF, schema: rr.Schema(), records: rr, close: func() { rr.Release(); pf.Close() }}, nil
	default:
		r, err := amipc.NewRecordStreamReader(bytes.NewReader(data), mem)
		if errors.Is(err, amipc.ErrNotIPC) {
			return nil, errors.New("not an Arrow IPC file or stream, nor a Parquet file")
		}
		if err != nil {
			return nil, err
		}
		return &input{format: ipcStream, schema: r.Schema(), records: r, close: r.Release}, nil
	}
}
