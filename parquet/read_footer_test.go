package parquet_test

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/arrowmap/arrowmap/internal/testsupport/arrowtest"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/arrowmap/arrowmap/parquet/internal/mutant"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// zigzag is v as thrift's compact protocol writes an integer.
func zigzag(v int64) []byte { return binary.AppendUvarint(nil, uint64(v<<1)^uint64(v>>63)) }

// i64 is the compact encoding of an i64 field that follows the previous
// field of its struct, holding v.
func i64(v int64) []byte { return append([]byte{0x16}, zigzag(v)...) }

// setFooter is data, a Parquet file, with the first from in its footer
// replaced by to and the footer's length set to match.
func setFooter(t *testing.T, data, from, to []byte) []byte {
	t.Helper()
	n := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	start := len(data) - 8 - n
	at := bytes.Index(data[start:len(data)-8], from)
	require.GreaterOrEqual(t, at, 0, "the footer holds % x", from)
	at += start
	out := append(append(append([]byte{}, data[:at]...), to...), data[at+len(from):]...)
	binary.LittleEndian.PutUint32(out[len(out)-8:], uint32(n+len(to)-len(from)))
	return out
}

// seedFile writes the seed of kind (see mutant.WriteSeeds) and returns its
// bytes and its footer as arrow-go reads it.
func seedFile(t *testing.T, kind string) ([]byte, *file.Reader) {
	t.Helper()
	seeds, err := mutant.WriteSeeds(t.TempDir(), "")
	require.NoError(t, err)
	for _, s := range seeds {
		if s.Kind == kind {
			data, err := os.ReadFile(s.Path)
			require.NoError(t, err)
			pf, err := file.NewParquetReader(bytes.NewReader(data))
			require.NoError(t, err)
			t.Cleanup(func() { pf.Close() })
			return data, pf
		}
	}
	t.Fatalf("no seed of kind %s", kind)
	return nil, nil
}

// readEveryWay reads data, a file of rows of T, through each reader, and
// returns the error and the rows of each.
func readEveryWay[T any](t *testing.T, data []byte) map[string]error {
	t.Helper()
	path := filepath.Join(t.TempDir(), "damaged.parquet")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	errs := map[string]error{}
	_, errs["ReadFile"] = amparquet.ReadFile[T](path)
	errs["OpenReaderAt+Pages"] = func() error {
		r, err := amparquet.OpenReaderAt[T](bytes.NewReader(data), int64(len(data)), amparquet.ReadConfig{BatchRows: 32})
		if err != nil {
			return err
		}
		defer r.Release()
		for _, err := range r.Pages(10) {
			if err != nil {
				return err
			}
		}
		return nil
	}()
	errs["OpenRecordsReaderAt"] = func() error {
		rr, err := amparquet.OpenRecordsReaderAt(bytes.NewReader(data), int64(len(data)), amparquet.ReadConfig{})
		if err != nil {
			return err
		}
		defer rr.Release()
		for rr.Next() {
		}
		return rr.Err()
	}()
	return errs
}

// chunkSizes is the encoding of the sizes and data page offset of col,
// with a compressed size of compressed.
func chunkSizes(col *metadata.ColumnChunkMetaData, compressed int64) []byte {
	// ColumnMetaData: total_uncompressed_size 6, total_compressed_size 7,
	// data_page_offset 9.
	b := append(i64(col.TotalUncompressedSize()), i64(compressed)...)
	return append(append(b, 0x26), zigzag(col.DataPageOffset())...)
}

func TestAColumnChunkOfNegativeSizeIsInvalidDataNamingItNotAPanicOnPqarrowsGoroutines(t *testing.T) {
	// The children of a struct are opened on an errgroup of pqarrow's,
	// where arrow-go's panic on the negative size would end the process.
	data, pf := seedFile(t, "nested")
	col, err := pf.MetaData().RowGroup(0).ColumnChunk(2) // point.y
	require.NoError(t, err)
	damaged := setFooter(t, data, chunkSizes(col, col.TotalCompressedSize()), chunkSizes(col, -col.TotalCompressedSize()))
	for path, err := range readEveryWay[mutant.Nested](t, damaged) {
		require.ErrorIs(t, err, mapper.ErrInvalidData, path)
		assert.ErrorContains(t, err, `row group 0, column "point.y"`, path)
	}
}

func TestAColumnChunkPastTheEndOfTheFileIsInvalidData(t *testing.T) {
	data, pf := seedFile(t, "flat")
	col, err := pf.MetaData().RowGroup(0).ColumnChunk(1) // name
	require.NoError(t, err)
	damaged := setFooter(t, data, chunkSizes(col, col.TotalCompressedSize()), chunkSizes(col, int64(len(data))))
	for path, err := range readEveryWay[mutant.Flat](t, damaged) {
		require.ErrorIs(t, err, mapper.ErrInvalidData, path)
		assert.ErrorContains(t, err, `row group 0, column "name"`, path)
	}
}

// rowGroupRows is the encoding of the total byte size and row count of
// row group g of pf, and the same with rows rows.
func rowGroupRows(pf *file.Reader, g int, rows int64) (from, to []byte) {
	rg := pf.MetaData().RowGroup(g)
	return append(i64(rg.TotalByteSize()), i64(rg.NumRows())...), append(i64(rg.TotalByteSize()), i64(rows)...)
}

// fileRows is the encoding of the row count of pf's file metadata and
// its row groups' list header, and the same with rows rows.
func fileRows(pf *file.Reader, rows int64) (from, to []byte) {
	list := byte(pf.MetaData().NumRowGroups()<<4 | 0x0C) // a list of structs
	return append(append(i64(pf.MetaData().NumRows), 0x19), list), append(append(i64(rows), 0x19), list)
}

func TestARowGroupOfNegativeRowsIsInvalidDataNotAnEmptyFile(t *testing.T) {
	data, pf := seedFile(t, "flat")
	from, to := rowGroupRows(pf, 0, -1)
	damaged := setFooter(t, data, from, to)
	for path, err := range readEveryWay[mutant.Flat](t, damaged) {
		require.ErrorIs(t, err, mapper.ErrInvalidData, path)
		assert.ErrorContains(t, err, "row group 0 counts -1 rows", path)
	}
}

func TestRowGroupsThatDoNotAddUpToTheFilesRowsAreInvalidData(t *testing.T) {
	data, pf := seedFile(t, "flat")
	from, to := rowGroupRows(pf, 2, 99)
	damaged := setFooter(t, data, from, to)
	for path, err := range readEveryWay[mutant.Flat](t, damaged) {
		require.ErrorIs(t, err, mapper.ErrInvalidData, path)
		assert.ErrorContains(t, err, "the row groups count 299 rows, the footer 300", path)
	}
}

// parquet-rs 0.3 wrote a file's row count as 0 over row groups holding
// rows (parquet-testing's repeated_no_annotation.parquet): every reader
// reads the row groups' rows.
func TestAFooterCountingNoRowsOverRowGroupsOfRowsReadsTheRowGroupsRows(t *testing.T) {
	data, pf := seedFile(t, "flat")
	want, err := amparquet.OpenReaderAt[mutant.Flat](bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	defer want.Release()
	rows, err := want.ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 300)

	from, to := fileRows(pf, 0)
	zero := setFooter(t, data, from, to)
	for path, err := range readEveryWay[mutant.Flat](t, zero) {
		require.NoError(t, err, path)
	}
	r, err := amparquet.OpenReaderAt[mutant.Flat](bytes.NewReader(zero), int64(len(zero)))
	require.NoError(t, err)
	defer r.Release()
	got, err := r.ReadAll()
	require.NoError(t, err)
	assert.Equal(t, rows, got)
}

// arrow-go and arrow-cpp write a column chunk of no values with a
// dictionary page (of no values) and no data page at data_page_offset 0
// (parquet-testing's column_chunk_key_value_metadata.parquet): its bytes
// are where its dictionary page offset says, and a file of such chunks
// is a file of no rows.
func TestAnEmptyColumnChunkOfADictionaryPageAloneAndNoDataPageOffsetReadsAsNoRows(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	rec := array.NewRecordBuilder(memory.DefaultAllocator, schema).NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(schema, &buf, parquet.NewWriterProperties(parquet.WithDictionaryDefault(true)), pqarrow.DefaultWriterProps())
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	data := buf.Bytes()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	require.NoError(t, err)
	col, err := pf.MetaData().RowGroup(0).ColumnChunk(0)
	require.NoError(t, err)
	require.Zero(t, col.NumValues())
	require.Zero(t, col.DataPageOffset(), "arrow-go writes the data page offset of an empty chunk as 0")
	require.True(t, col.HasDictionaryPage())
	require.EqualValues(t, 4, col.DictionaryPageOffset())

	for path, err := range readEveryWay[struct {
		ID *int64 `arrow:"id"`
	}](t, data) {
		require.NoError(t, err, path)
	}
	rows, err := amparquet.OpenRecordsReaderAt(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	defer rows.Release()
	assert.Zero(t, rows.(mapper.RowsHinter).RowsHint(), "the footer's count")
	assert.False(t, rows.Next())
	assert.NoError(t, rows.Err())

	// Its bytes are still checked to lie inside the file: ColumnMetaData's
	// data_page_offset 9 (0) and dictionary_page_offset 11 (4), moved past
	// the end.
	offsets := []byte{0x26, 0x00, 0x26, 0x08}
	damaged := setFooter(t, data, offsets, append([]byte{0x26, 0x00, 0x26}, zigzag(int64(len(data)))...))
	for path, err := range readEveryWay[struct {
		ID *int64 `arrow:"id"`
	}](t, damaged) {
		require.ErrorIs(t, err, mapper.ErrInvalidData, path)
		assert.ErrorContains(t, err, fmt.Sprintf(`row group 0, column "id": 14 bytes at offset %d, past the column chunks`, len(data)), path)
	}
}

func TestARowGroupThatHoldsOtherRowsThanItsFooterSaysIsAnErrorAtTheEnd(t *testing.T) {
	for _, rows := range []int64{40, 160} {
		data, pf := seedFile(t, "flat")
		total := pf.MetaData().NumRows - pf.MetaData().RowGroup(1).NumRows() + rows
		from, to := rowGroupRows(pf, 1, rows)
		damaged := setFooter(t, data, from, to)
		from, to = fileRows(pf, total)
		damaged = setFooter(t, damaged, from, to)
		for path, err := range readEveryWay[mutant.Flat](t, damaged) {
			require.ErrorIs(t, err, mapper.ErrInvalidData, "%s, %d rows", path, rows)
		}
	}
}

func TestACorruptStoredArrowSchemaIsInvalidDataNamingTheKeyBeforePqarrowAllocatesByIt(t *testing.T) {
	data, pf := seedFile(t, "flat")
	value := pf.MetaData().KeyValueMetadata().FindValue("ARROW:schema")
	require.NotNil(t, value)
	raw, err := base64.StdEncoding.DecodeString(*value)
	require.NoError(t, err)
	claim := arrowtest.ClaimFields(raw, 4, 1<<31-1) // arrow-go would make 2^31 fields
	require.NotNil(t, claim)
	damaged := setFooter(t, data, []byte(*value), []byte(base64.StdEncoding.EncodeToString(claim)))
	for path, err := range readEveryWay[mutant.Flat](t, damaged) {
		require.ErrorIs(t, err, mapper.ErrInvalidData, path)
		assert.ErrorContains(t, err, "the ARROW:schema metadata: malformed IPC metadata", path)
	}
}

func TestAPageHeaderClaimingAHugePageIsAnErrorNotAnAllocation(t *testing.T) {
	data, pf := seedFile(t, "flat")
	col, err := pf.MetaData().RowGroup(0).ColumnChunk(0)
	require.NoError(t, err)
	// PageHeader: type 1 (i32), uncompressed_page_size 2 (i32), ...
	at := int(col.DataPageOffset())
	require.Equal(t, byte(0x15), data[at], "the page type's field header")
	require.Equal(t, byte(0x15), data[at+2], "the uncompressed size's field header")
	n := 1
	for data[at+3+n-1]&0x80 != 0 {
		n++
	}
	// Below arrow-go's own limit (256 MiB), far above what a file of a few
	// KiB can hold.
	huge := zigzag(200 << 20)
	damaged := append(append(append([]byte{}, data[:at+3]...), huge...), data[at+3+n:]...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	errs := readEveryWay[mutant.Flat](t, damaged)
	runtime.ReadMemStats(&after)
	for path, err := range errs {
		require.ErrorIs(t, err, mapper.ErrInvalidData, path)
		assert.ErrorContains(t, err, "uncompressed page size", path)
	}
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(100<<20), "bytes allocated")
}
