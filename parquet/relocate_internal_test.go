package parquet

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
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
		require.NoError(t, WriteFile(plain, rows, WriteConfig{Uncompressed: true, RowGroupRows: 1000, DataPageVersion: version}))
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
	require.NoError(t, WriteFile(plain, rows, WriteConfig{Uncompressed: true, RowGroupRows: 1000}))
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
	require.NoError(t, WriteFile(plain, rows, WriteConfig{Compression: compress.Codecs.Snappy, RowGroupRows: 1000, DataPageVersion: parquet.DataPageV2}))
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
