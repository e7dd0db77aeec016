package parquet

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/thrift/lib/go/thrift"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/pierrec/lz4/v4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lz4Block is src as one raw LZ4 block.
func lz4Block(t testing.TB, src []byte) []byte {
	dst := make([]byte, lz4.CompressBlockBound(len(src)))
	n, err := lz4.CompressBlock(src, dst, nil)
	require.NoError(t, err)
	require.NotZero(t, n, "compressible")
	return dst[:n]
}

// The framings of Parquet's deprecated LZ4 codec a reader meets.
var lz4Framings = []struct {
	name     string
	compress func(t testing.TB, src []byte) []byte
}{
	{"Hadoop's framing, one block (parquet-mr, arrow-cpp)", func(t testing.TB, src []byte) []byte { return hadoopBlocks(t, src, len(src)) }},
	{"Hadoop's framing, blocks of 1 KiB", func(t testing.TB, src []byte) []byte { return hadoopBlocks(t, src, 1024) }},
	{"a raw LZ4 block (parquet-cpp before 1.6)", lz4Block},
	{"an LZ4 frame", func(t testing.TB, src []byte) []byte {
		var buf bytes.Buffer
		w := lz4.NewWriter(&buf)
		_, err := w.Write(src)
		require.NoError(t, err)
		require.NoError(t, w.Close())
		return buf.Bytes()
	}},
}

// hadoopBlocks is src in Hadoop's framing of LZ4, in blocks of size bytes
// each after its sizes.
func hadoopBlocks(t testing.TB, src []byte, size int) []byte {
	var out []byte
	for len(src) > 0 {
		n := min(size, len(src))
		block := lz4Block(t, src[:n])
		out = binary.BigEndian.AppendUint32(out, uint32(n))
		out = binary.BigEndian.AppendUint32(out, uint32(len(block)))
		out = append(out, block...)
		src = src[n:]
	}
	return out
}

// withLZ4 is data, a file of uncompressed pages, with its pages compressed
// by compress, as Parquet's deprecated LZ4 codec, each header carrying the
// CRC of its bytes when crc is set.
func withLZ4(t *testing.T, data []byte, compress func(testing.TB, []byte) []byte, crc bool) ([]byte, []pageAt) {
	return rewritePages(t, data, func(meta, h *tStruct, body []byte) []byte {
		meta.set(metaCodecField, thrift.I32, int32(codecLZ4))
		if v := h.child(pageV2Field); v != nil {
			def, _ := v.i32(v2LevelsDefField)
			rep, _ := v.i32(v2LevelsRepField)
			levels := int(def + rep)
			body = append(body[:levels:levels], compress(t, body[levels:])...)
			v.set(v2CompressedField, thrift.BOOL, true)
		} else {
			body = compress(t, body)
		}
		if crc {
			h.set(pageCRCField, thrift.I32, int32(crc32.ChecksumIEEE(body)))
		}
		return body
	})
}

func TestColumnChunksOfTheDeprecatedLZ4CodecReadInEachFraming(t *testing.T) {
	rows := checksummedRows(3000)
	for _, version := range []parquet.DataPageVersion{parquet.DataPageV1, parquet.DataPageV2} {
		plain := filepath.Join(t.TempDir(), "plain.parquet")
		require.NoError(t, WriteFile(plain, rows, WriteConfig{Compression: Uncompressed, RowGroupRows: 1000, DataPageVersion: version}))
		data, err := os.ReadFile(plain)
		require.NoError(t, err)
		for _, framing := range lz4Framings {
			t.Run(fmt.Sprintf("%s, data pages of version %d", framing.name, version+1), func(t *testing.T) {
				lz, _ := withLZ4(t, data, framing.compress, false)
				path := writeFile(t, lz)
				got, err := ReadFile[checksummed](path)
				require.NoError(t, err)
				assert.Equal(t, rows, got)

				rr, err := OpenRecords(path)
				require.NoError(t, err)
				defer rr.Release()
				read := int64(0)
				for rr.Next() {
					read += rr.RecordBatch().NumRows()
				}
				require.NoError(t, rr.Err())
				assert.EqualValues(t, len(rows), read)
			})
		}
	}
}

func TestAnLZ4PageWhoseBytesDoNotMatchItsChecksumIsAnErrorNamingThePage(t *testing.T) {
	rows := checksummedRows(3000)
	plain := filepath.Join(t.TempDir(), "plain.parquet")
	require.NoError(t, WriteFile(plain, rows, WriteConfig{Compression: Uncompressed, RowGroupRows: 1000}))
	data, err := os.ReadFile(plain)
	require.NoError(t, err)
	lz, pages := withLZ4(t, data, lz4Framings[0].compress, true)
	got, err := ReadFile[checksummed](writeFile(t, lz))
	require.NoError(t, err, "the CRCs of the compressed bytes match")
	assert.Equal(t, rows, got)

	for _, p := range pages {
		if p.group == 2 && p.column == 1 && p.index == 0 {
			lz[p.body+p.length-1] ^= 0x04
		}
	}
	_, err = ReadFile[checksummed](writeFile(t, lz))
	require.ErrorIs(t, err, ErrChecksum)
	assert.ErrorContains(t, err, `row group 2, column "name", data page 0`)
}

// parquet-mr writes a version 2 page whose rows are all null with values
// of no bytes, marked compressed (is_compressed left out: true), which
// arrow-go decompresses (parquet-testing's
// datapage_v2_empty_datapage.snappy.parquet).
func TestAVersion2PageOfNoValueBytesMarkedCompressedReads(t *testing.T) {
	rows := checksummedRows(3000)
	for i := range 1000 {
		rows[i].Score = nil // row group 0's scores: one page of nulls
	}
	plain := filepath.Join(t.TempDir(), "plain.parquet")
	require.NoError(t, WriteFile(plain, rows, WriteConfig{Compression: Snappy, RowGroupRows: 1000, DataPageVersion: parquet.DataPageV2}))
	data, err := os.ReadFile(plain)
	require.NoError(t, err)
	emptied := 0
	asParquetMR := func(stats bool) func(meta, h *tStruct, body []byte) []byte {
		return func(meta, h *tStruct, body []byte) []byte {
			v := h.child(pageV2Field)
			if v == nil {
				return body
			}
			if stats { // encoding statistics, as parquet-mr writes them
				meta.set(metaEncodingStatsField, thrift.LIST, &tList{elem: thrift.STRUCT, vals: []any{
					&tStruct{fields: []tField{{id: 1, typ: thrift.I32, val: int32(dataPageV2)}, {id: 2, typ: thrift.I32, val: int32(0)}, {id: 3, typ: thrift.I32, val: int32(1)}}},
				}})
			} else {
				meta.drop(metaEncodingStatsField)
			}
			values, _ := v.i32(1)
			nulls, _ := v.i32(2)
			if values != nulls {
				return body
			}
			emptied++
			def, _ := v.i32(v2LevelsDefField)
			rep, _ := v.i32(v2LevelsRepField)
			v.drop(v2CompressedField)
			h.set(pageUncompressedField, thrift.I32, def+rep)
			return body[:def+rep]
		}
	}
	mr, _ := rewritePages(t, data, asParquetMR(true))
	require.Equal(t, 1, emptied, "one page of nulls")
	got, err := ReadFile[checksummed](writeFile(t, mr))
	require.NoError(t, err)
	assert.Equal(t, rows, got)

	// Without encoding statistics, the chunk is not known to hold such a
	// page before it is read: an error naming it, not arrow-go's.
	bare, _ := rewritePages(t, data, asParquetMR(false))
	_, err = ReadFile[checksummed](writeFile(t, bare))
	require.ErrorIs(t, err, mapper.ErrInvalidData)
	assert.ErrorContains(t, err, `row group 0, column "score", data page 0`)
	assert.ErrorContains(t, err, "its values take no bytes and it is marked compressed")
}

// Files that read through a repaired footer and moved chunks (LZ4 pages
// and a version 2 page of no value bytes, INT96, an optional MAP key, a
// logical type arrow-go does not know), a byte of each changed at random:
// each read is an error or every row its footer counts, and no error is a
// panic of arrowmap's own code recovered (a runtime error).
func TestDamagedFilesOfRepairedFootersAndMovedChunksAreErrors(t *testing.T) {
	seed := rand.Uint64() // a new seed each run, printed to replay it
	if s := os.Getenv("ARROWMAP_MUTATION_SEED"); s != "" {
		_, err := fmt.Sscan(s, &seed)
		require.NoError(t, err)
	}
	t.Logf("seed %d (ARROWMAP_MUTATION_SEED)", seed)
	rng := rand.New(rand.NewPCG(seed, 0))

	rows := checksummedRows(500)
	plain := filepath.Join(t.TempDir(), "plain.parquet")
	require.NoError(t, WriteFile(plain, rows, WriteConfig{Compression: Uncompressed, RowGroupRows: 200, DataPageVersion: parquet.DataPageV2}))
	data, err := os.ReadFile(plain)
	require.NoError(t, err)
	lz, _ := withLZ4(t, data, lz4Framings[1].compress, true)
	for _, f := range []struct {
		name string
		file []byte
	}{
		{"LZ4 in Hadoop's framing, CRCs", lz},
		{"INT96", int96File(t, []*parquet.Int96{ptr(int96Of(time.Unix(1e9, 0))), nil, ptr(int96(-105862232, -32509551616000))})},
		{"a MAP whose key is optional", mapFile(t, ptr("c"))},
	} {
		name, file := f.name, f.file
		for i := range 150 {
			damaged := append([]byte{}, file...)
			at := rng.IntN(len(damaged))
			damaged[at] ^= byte(1 + rng.IntN(255))
			rr, err := OpenRecordsReaderAt(bytes.NewReader(damaged), int64(len(damaged)))
			if err == nil {
				n := int64(0)
				for rr.Next() {
					n += rr.RecordBatch().NumRows()
				}
				if err = rr.Err(); err == nil {
					assert.Equal(t, rr.(mapper.RowsHinter).RowsHint(), n, "%s, mutant %d (byte %d): rows read without an error", name, i, at)
				}
				rr.Release()
			}
			if err != nil {
				assert.True(t, errors.Is(err, mapper.ErrInvalidData) || errors.Is(err, mapper.ErrOverflow) || errors.Is(err, mapper.ErrNull) ||
					errors.Is(err, ErrNotParquet) || errors.Is(err, io.ErrUnexpectedEOF), "%s, mutant %d (byte %d): %v", name, i, at, err)
				// Recovered panics: arrow-go's IPC reader's of the schema
				// metadata, and arrow-go's decoding of a column chunk on
				// the reader's goroutine (a page header of another type's
				// fields); any other is a bug of arrowmap's.
				if msg := err.Error(); !strings.Contains(msg, "schema metadata") && !strings.Contains(msg, "a malformed column chunk (") {
					assert.NotContains(t, err.Error(), "runtime error", "%s, mutant %d (byte %d)", name, i, at)
				}
			}
		}
	}
}
