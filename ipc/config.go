package ipc

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	arrowipc "github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
)

// DefaultBatchRows is the number of rows of the records a Writer writes
// when WriteConfig.BatchRows is 0.
const DefaultBatchRows = 64 * 1024

// ErrClosed is what a Writer or RecordWriter returns from Write after
// Close: the one sentinel of every arrowmap reader and writer used after
// its end.
var ErrClosed = mapper.ErrClosed

// Codec is the compression of the bodies of the records and dictionaries
// an IPC file or stream holds.
type Codec int

const (
	// None writes the bodies uncompressed.
	None Codec = iota
	// LZ4 compresses them as LZ4 frames: fast, a moderate ratio.
	LZ4
	// ZSTD compresses them with Zstandard: a better ratio, slower.
	ZSTD
)

// String is the codec's name, as Arrow names it.
func (c Codec) String() string {
	switch c {
	case None:
		return "uncompressed"
	case LZ4:
		return "lz4_frame"
	case ZSTD:
		return "zstd"
	default:
		return fmt.Sprintf("Codec(%d)", int(c))
	}
}

// WriteConfig is how a Writer or RecordWriter writes, given among the
// options of a writer. Without one a writer writes uncompressed records of
// DefaultBatchRows rows, dictionaries replaced in full in a stream, with
// memory.DefaultAllocator (or mapper.Allocator's).
type WriteConfig struct {
	// Compression compresses the bodies of the messages: None, LZ4, ZSTD.
	Compression Codec
	// DictionaryDeltas writes a dictionary that grows from one record to
	// the next in a stream as a delta: only the values it adds. A Writer
	// (and a RecordWriter) then maps each record's dictionary into the
	// values written before, so that it only grows. A file always does
	// so, whatever DictionaryDeltas says: the file format holds one
	// dictionary per field, and its deltas, no replacement.
	DictionaryDeltas bool
	// BatchRows is the most rows a record written by a Writer holds: 0 is
	// DefaultBatchRows. A RecordWriter writes records as they come.
	BatchRows int
	// alloc allocates the records built and the messages encoded:
	// mapper.Allocator's, nil for memory.DefaultAllocator.
	alloc memory.Allocator
}

func (cfg *WriteConfig) mem() memory.Allocator {
	if cfg.alloc == nil {
		return memory.DefaultAllocator
	}
	return cfg.alloc
}

// check reports a configuration that cannot be written.
func (cfg *WriteConfig) check() error {
	switch {
	case cfg.Compression < None || cfg.Compression > ZSTD:
		return fmt.Errorf("arrowmap/ipc: unknown compression %s: want None, LZ4 or ZSTD", cfg.Compression)
	case cfg.BatchRows < 0:
		return fmt.Errorf("arrowmap/ipc: BatchRows %d is negative", cfg.BatchRows)
	}
	return nil
}

// writerOptions are the options of arrow-go's writer for cfg.
func (cfg *WriteConfig) writerOptions(schema *arrow.Schema, deltas bool) []arrowipc.Option {
	opts := []arrowipc.Option{
		arrowipc.WithSchema(schema),
		arrowipc.WithAllocator(cfg.mem()),
		arrowipc.WithDictionaryDeltas(deltas),
	}
	switch cfg.Compression {
	case LZ4:
		opts = append(opts, arrowipc.WithLZ4())
	case ZSTD:
		opts = append(opts, arrowipc.WithZstd())
	}
	return opts
}

// replaceMetadata is schema with md as its metadata.
func replaceMetadata(schema *arrow.Schema, md arrow.Metadata) *arrow.Schema {
	return arrow.NewSchemaWithEndian(schema.Fields(), &md, schema.Endianness())
}
