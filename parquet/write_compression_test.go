package parquet_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/compress"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/require"
)

// arrow-go's codec registry is the process's: a program that imports
// arrowmap/parquet beside its own use of arrow-go finds there the codecs
// arrow-go registers, before and after arrowmap writes and reads files
// of every codec.
func TestImportingThePackageLeavesArrowGosCodecsAsArrowGoRegistersThem(t *testing.T) {
	codecs := map[compress.Compression]string{
		compress.Codecs.Uncompressed: "compress.nocodec",
		compress.Codecs.Snappy:       "compress.snappyCodec",
		compress.Codecs.Gzip:         "compress.gzipCodec",
		compress.Codecs.Brotli:       "compress.brotliCodec",
		compress.Codecs.Zstd:         "compress.zstdCodec",
		compress.Codecs.Lz4Raw:       "compress.lz4RawCodec",
	}
	requireArrowGos := func(when string) {
		for c, name := range codecs {
			codec, err := compress.GetCodec(c)
			require.NoError(t, err, "%s, %s", when, c)
			require.Equal(t, "github.com/apache/arrow-go/v18/parquet/compress", reflect.TypeOf(codec).PkgPath(), "%s, %s", when, c)
			require.Equal(t, name, fmt.Sprintf("%T", codec), "%s, %s", when, c)
		}
	}
	requireArrowGos("imported")
	rows := directFlatRows(rand.New(rand.NewPCG(1, 2)), 2000)
	for _, c := range []amparquet.Compression{amparquet.Snappy, amparquet.Gzip, amparquet.Brotli, amparquet.Zstd, amparquet.LZ4Raw, amparquet.Uncompressed} {
		for _, e := range []amparquet.Encoder{amparquet.EncoderArrowmap, amparquet.EncoderPqarrow} {
			path := filepath.Join(t.TempDir(), "f.parquet")
			require.NoError(t, amparquet.WriteFile(path, rows, amparquet.WriteConfig{Compression: c, Encoder: e}))
			got, err := amparquet.ReadFile[directFlat](path)
			require.NoError(t, err)
			require.Len(t, got, len(rows))
		}
	}
	requireArrowGos("after writing and reading files of every codec")
}
