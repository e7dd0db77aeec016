package parquet

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/thrift/lib/go/thrift"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The fields of the footer's structs that rewritePages sets.
const (
	groupFileOffsetField = 5  // RowGroup.file_offset
	groupCompressedField = 6  // RowGroup.total_compressed_size
	chunkFileOffsetField = 2  // ColumnChunk.file_offset
	metaValuesField      = 5  // ColumnMetaData.num_values
	metaUncompressed     = 6  // ColumnMetaData.total_uncompressed_size
	metaCompressed       = 7  // ColumnMetaData.total_compressed_size
	metaDataPageField    = 9  // ColumnMetaData.data_page_offset
	metaDictionaryField  = 11 // ColumnMetaData.dictionary_page_offset
)

// pageAt is where rewritePages put a page: its body's bytes in the file.
type pageAt struct {
	group, column int
	index         int // among the chunk's data pages; -1 its dictionary page
	body, length  int
}

// rewritePages is the Parquet file data with each page of each column
// chunk as edit makes it (editing its header in place, returning its
// body), the chunks laid out again one after another and the footer
// saying where; page indexes and bloom filters, whose offsets would no
// longer hold, are dropped. It returns where each page went.
func rewritePages(t testing.TB, data []byte, edit func(meta, header *tStruct, body []byte) []byte) ([]byte, []pageAt) {
	t.Helper()
	n := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	footer, err := decodeThrift(data[len(data)-8-n : len(data)-8])
	require.NoError(t, err)
	out := []byte("PAR1")
	var pages []pageAt
	for g, rg := range footer.structs(fileMetaRowGroupsField) {
		groupStart := int64(len(out))
		for c, chunk := range rg.structs(rowGroupColumnsField) {
			meta := chunk.child(chunkMetaDataField)
			require.NotNil(t, meta)
			start, _ := meta.i64(metaDataPageField)
			if dict, ok := meta.i64(metaDictionaryField); ok && dict > 0 && dict < start {
				start = dict
			}
			size, _ := meta.i64(metaCompressed)
			newStart := int64(len(out))
			meta.drop(metaDictionaryField)
			index := 0
			for pos := start; pos < start+size; {
				h, hn, err := decodeThriftPrefix(data[pos:])
				require.NoError(t, err)
				length, _ := h.i32(pageCompressedField)
				body := data[pos+int64(hn) : pos+int64(hn)+int64(length)]
				pos += int64(hn) + int64(length)
				at := int64(len(out))
				typ, _ := h.i32(pageTypeField)
				body = edit(meta, h, append([]byte{}, body...))
				h.set(pageCompressedField, thrift.I32, int32(len(body)))
				header, err := encodeThrift(h)
				require.NoError(t, err)
				out = append(append(out, header...), body...)
				page := pageAt{group: g, column: c, index: index, body: int(at) + len(header), length: len(body)}
				if typ == dictionaryPage {
					page.index = -1
					meta.set(metaDictionaryField, thrift.I64, at)
				} else {
					if index == 0 {
						meta.set(metaDataPageField, thrift.I64, at)
					}
					index++
				}
				pages = append(pages, page)
			}
			meta.set(metaCompressed, thrift.I64, int64(len(out))-newStart)
			for _, id := range []int16{14, 15} { // bloom_filter_offset, bloom_filter_length
				meta.drop(id)
			}
			chunk.set(chunkFileOffsetField, thrift.I64, newStart)
			for _, id := range []int16{4, 5, 6, 7} { // offset_index_*, column_index_*
				chunk.drop(id)
			}
		}
		rg.set(groupFileOffsetField, thrift.I64, groupStart)
		rg.set(groupCompressedField, thrift.I64, int64(len(out))-groupStart)
	}
	encoded, err := encodeThrift(footer)
	require.NoError(t, err)
	out = append(out, encoded...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(encoded)))
	return append(out, "PAR1"...), pages
}

// withChecksums is rewritePages giving each page header the CRC of its
// body.
func withChecksums(t testing.TB, data []byte) ([]byte, []pageAt) {
	return rewritePages(t, data, func(_, h *tStruct, body []byte) []byte {
		h.set(pageCRCField, thrift.I32, int32(crc32.ChecksumIEEE(body)))
		return body
	})
}

type checksummed struct {
	ID    int64    `arrow:"id"`
	Name  string   `arrow:"name"`
	Score *float64 `arrow:"score"`
}

func checksummedRows(n int) []checksummed {
	rows := make([]checksummed, n)
	for i := range rows {
		rows[i] = checksummed{ID: int64(i) * 7919, Name: fmt.Sprintf("name-%d", i%13)}
		if i%4 != 0 {
			s := float64(i) / 8
			rows[i].Score = &s
		}
	}
	return rows
}

// writeChecksummed writes rows by our Writer with cfg, gives its pages
// CRCs, and returns the file's path, bytes and pages.
func writeChecksummed(t *testing.T, rows []checksummed, cfg WriteConfig) (string, []byte, []pageAt) {
	t.Helper()
	plain := filepath.Join(t.TempDir(), "plain.parquet")
	require.NoError(t, WriteFile(plain, rows, cfg))
	data, err := os.ReadFile(plain)
	require.NoError(t, err)
	data, pages := withChecksums(t, data)
	path := filepath.Join(t.TempDir(), "crc.parquet")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	return path, data, pages
}

func TestPagesWhoseChecksumsMatchTheirBytesRead(t *testing.T) {
	rows := checksummedRows(5000)
	for _, tc := range []struct {
		name string
		cfg  WriteConfig
	}{
		{"version 1 pages, uncompressed", WriteConfig{Compression: Uncompressed, RowGroupRows: 2000}},
		{"version 1 pages, snappy", WriteConfig{Compression: Snappy, RowGroupRows: 2000}},
		{"version 2 pages, zstd", WriteConfig{Compression: Zstd, DataPageVersion: parquet.DataPageV2, RowGroupRows: 2000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, _, pages := writeChecksummed(t, rows, tc.cfg)
			require.Greater(t, len(pages), 6)
			got, err := ReadFile[checksummed](path)
			require.NoError(t, err)
			assert.Equal(t, rows, got)
		})
	}
}

// A page whose CRC does not match its bytes was damaged after it was
// written: read, its values would come back changed, with no error.
func TestAPageWhoseBytesDoNotMatchItsChecksumIsAnErrorNamingTheColumnAndThePage(t *testing.T) {
	rows := checksummedRows(5000)
	for _, tc := range []struct {
		name   string
		cfg    WriteConfig
		column int
		page   int // -1: the dictionary page
		says   string
	}{
		{"a version 1 data page, uncompressed", WriteConfig{Compression: Uncompressed, RowGroupRows: 2000}, 0, 0, `row group 1, column "id", data page 0`},
		{"a dictionary page, uncompressed", WriteConfig{Compression: Uncompressed, RowGroupRows: 2000}, 1, -1, `row group 1, column "name", its dictionary page`},
		{"a version 1 data page, snappy", WriteConfig{Compression: Snappy, RowGroupRows: 2000}, 2, 0, `row group 1, column "score", data page 0`},
		{"a version 2 data page, zstd", WriteConfig{Compression: Zstd, DataPageVersion: parquet.DataPageV2, RowGroupRows: 2000}, 0, 0, `row group 1, column "id", data page 0`},
		{"a version 2 dictionary page, zstd", WriteConfig{Compression: Zstd, DataPageVersion: parquet.DataPageV2, RowGroupRows: 2000}, 1, -1, `row group 1, column "name", its dictionary page`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, data, pages := writeChecksummed(t, rows, tc.cfg)
			var damaged pageAt
			for _, p := range pages {
				if p.group == 1 && p.column == tc.column && p.index == tc.page {
					damaged = p
				}
			}
			require.NotZero(t, damaged.length, "row group 1 has the page")
			data[damaged.body+damaged.length/2] ^= 0x10
			path := filepath.Join(t.TempDir(), "damaged.parquet")
			require.NoError(t, os.WriteFile(path, data, 0o644))

			_, err := ReadFile[checksummed](path)
			require.ErrorIs(t, err, ErrChecksum)
			require.ErrorIs(t, err, mapper.ErrInvalidData)
			assert.ErrorContains(t, err, tc.says)
			assert.ErrorContains(t, err, path)

			rr, err := OpenRecords(path)
			require.NoError(t, err)
			defer rr.Release()
			read := int64(0)
			for rr.Next() {
				read += rr.RecordBatch().NumRows()
			}
			require.ErrorIs(t, rr.Err(), ErrChecksum)
			assert.ErrorContains(t, rr.Err(), tc.says)
			assert.Less(t, read, int64(4000), "no row of the damaged page's row group is read")

			got, err := ReadFile[checksummed](path, ReadConfig{SkipPageChecksums: true})
			if err == nil {
				assert.NotEqual(t, rows, got, "read unchecked, the damage shows in the values")
			} else {
				assert.False(t, errors.Is(err, ErrChecksum), "unchecked, no checksum error: %v", err)
			}
		})
	}
}

// The rows read before the damaged page are read: the error comes when
// the page is, not when a buffer reads ahead into it.
func TestTheRowsBeforeAPageThatFailsItsChecksumAreRead(t *testing.T) {
	rows := checksummedRows(5000)
	_, data, pages := writeChecksummed(t, rows, WriteConfig{Compression: Uncompressed, RowGroupRows: 1000})
	last := pages[len(pages)-1]
	data[last.body] ^= 0x01
	r, err := OpenReaderAt[checksummed](bytes.NewReader(data), int64(len(data)), ReadConfig{BatchRows: 1000})
	require.NoError(t, err)
	defer r.Release()
	var got []checksummed
	for page, err := range r.Pages(1000) {
		if err != nil {
			require.ErrorIs(t, err, ErrChecksum)
			break
		}
		got = append(got, page...)
	}
	assert.Equal(t, rows[:4000], got)
}

type named struct {
	Name string `arrow:"name"`
}

func TestAPageLargerThanMaxPageSizeIsAnErrorNamingItAndRaisingItReadsThePage(t *testing.T) {
	rows := []named{{Name: strings.Repeat("a", 40_000)}, {Name: "b"}}
	path := filepath.Join(t.TempDir(), "large.parquet")
	require.NoError(t, WriteFile(path, rows, WriteConfig{Compression: Zstd}))

	_, err := ReadFile[named](path, ReadConfig{MaxPageSize: 10_000})
	require.ErrorIs(t, err, ErrPageTooLarge)
	require.ErrorIs(t, err, mapper.ErrInvalidData)
	assert.ErrorContains(t, err, `row group 0, column "name"`)
	assert.ErrorContains(t, err, "past the limit of 10000 (ReadConfig.MaxPageSize)")

	got, err := ReadFile[named](path, ReadConfig{MaxPageSize: 100_000})
	require.NoError(t, err)
	assert.Equal(t, rows, got)

	_, err = ReadFile[named](path, ReadConfig{MaxPageSize: -1})
	assert.ErrorContains(t, err, "ReadConfig.MaxPageSize -1 is negative")
}

// parquet-testing's large_string_map.brotli.parquet holds a page of 1 GB
// in a few KiB: refused by default, in one line naming the limit.
func TestAPageLargerThanTheDefaultLimitIsAnErrorNamingMaxPageSize(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and reads a page of 65 MiB")
	}
	const size = 65 << 20
	rows := []named{{Name: strings.Repeat("x", size)}}
	path := filepath.Join(t.TempDir(), "large.parquet")
	require.NoError(t, WriteFile(path, rows, WriteConfig{Compression: Zstd}))
	info, err := os.Stat(path)
	require.NoError(t, err)
	require.Less(t, info.Size(), int64(64<<10), "the page compresses to a few KiB")

	_, err = ReadFile[named](path)
	require.ErrorIs(t, err, ErrPageTooLarge)
	assert.ErrorContains(t, err, "ReadConfig.MaxPageSize, 0: 64 MiB plus 64 times the file's size")
	assert.ErrorContains(t, err, "raise it to read the page")

	got, err := ReadFile[named](path, ReadConfig{MaxPageSize: 2 * size})
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, size, len(got[0].Name))
}

// A damaged snappy block of a page may claim to decode to 4 GiB in its
// first five bytes: the page is refused before arrow-go's codec, which
// allocates what a block claims past its buffer, decodes it. Version 2
// pages hold their levels before the block.
func TestASnappyBlockClaimingMoreThanItsPageHoldsIsAnErrorNotAnAllocation(t *testing.T) {
	for _, version := range []parquet.DataPageVersion{parquet.DataPageV1, parquet.DataPageV2} {
		t.Run(fmt.Sprintf("data page version %d", version+1), func(t *testing.T) {
			off := false
			plain := filepath.Join(t.TempDir(), "plain.parquet")
			require.NoError(t, WriteFile(plain, checksummedRows(1000), WriteConfig{Dictionary: &off, DataPageVersion: version}))
			data, err := os.ReadFile(plain)
			require.NoError(t, err)
			damaged := 0
			data, _ = rewritePages(t, data, func(_, h *tStruct, body []byte) []byte {
				if typ, _ := h.i32(pageTypeField); damaged > 0 || typ == dictionaryPage {
					return body
				}
				damaged++
				levels := 0
				if v := h.child(pageV2Field); v != nil {
					def, _ := v.i32(v2LevelsDefField)
					rep, _ := v.i32(v2LevelsRepField)
					levels = int(def + rep)
				}
				_, n := binary.Uvarint(body[levels:])
				// 2^32-1 bytes, in five.
				return append(append(body[:levels:levels], 0xff, 0xff, 0xff, 0xff, 0x0f), body[levels+n:]...)
			})
			require.Equal(t, 1, damaged)
			path := filepath.Join(t.TempDir(), "damaged.parquet")
			require.NoError(t, os.WriteFile(path, data, 0o644))

			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err = ReadFile[checksummed](path)
			runtime.ReadMemStats(&after)
			require.ErrorIs(t, err, mapper.ErrInvalidData)
			assert.ErrorContains(t, err, `row group 0, column "id", data page 0`)
			assert.ErrorContains(t, err, "a snappy block of 4294967295 bytes decoded, past the page's uncompressed size of")
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<20), "bytes allocated reading the file")
		})
	}
}

func TestSnappyFitsRefusesOnlyABlockLongerThanItsPage(t *testing.T) {
	block := binary.AppendUvarint(nil, 1000)
	require.NoError(t, snappyFits(block, 1000), "a block of the page's size")
	require.NoError(t, snappyFits(block[:1], 10), "a length cut short is arrow-go's to refuse")
	require.NoError(t, snappyFits(nil, 10), "no block at all is arrow-go's to refuse")
	require.ErrorContains(t, snappyFits(block, 999), "a snappy block of 1000 bytes decoded, past the page's uncompressed size of 999")
}
