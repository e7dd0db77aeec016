package parquet

import (
	"fmt"

	"github.com/apache/arrow-go/v18/parquet/compress"
)

// Compression is the codec of a file's pages (WriteConfig.Compression).
// Its zero value, DefaultCompression, is Snappy: the default of pyarrow,
// DuckDB, Spark and parquet-mr.
type Compression uint8

// The codecs a Writer compresses pages with. LZO and Hadoop's framing of
// LZ4 are not among them: arrow-go writes neither.
const (
	DefaultCompression Compression = iota // Snappy
	Uncompressed                          // pages as they are
	Snappy
	Gzip
	Brotli
	Zstd
	LZ4Raw // LZ4's block format, Parquet's LZ4_RAW
)

// codecs are the codecs of the Compressions, in their order.
var codecs = [...]compress.Compression{
	DefaultCompression: compress.Codecs.Snappy,
	Uncompressed:       compress.Codecs.Uncompressed,
	Snappy:             compress.Codecs.Snappy,
	Gzip:               compress.Codecs.Gzip,
	Brotli:             compress.Codecs.Brotli,
	Zstd:               compress.Codecs.Zstd,
	LZ4Raw:             compress.Codecs.Lz4Raw,
}

// String is the codec's name as Parquet's metadata spells it: SNAPPY,
// UNCOMPRESSED, LZ4_RAW.
func (c Compression) String() string {
	if int(c) < len(codecs) {
		return codecs[c].String()
	}
	return fmt.Sprintf("Compression(%d)", uint8(c))
}

// codec is arrow-go's codec of c, or an error for a value not among the
// constants.
func (c Compression) codec() (compress.Compression, error) {
	if int(c) >= len(codecs) {
		return 0, fmt.Errorf("arrowmap/parquet: WriteConfig.Compression %d is none of the codecs (Uncompressed, Snappy, Gzip, Brotli, Zstd, LZ4Raw)", uint8(c))
	}
	return codecs[c], nil
}
