package parquet_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/require"
)

// mixedItem is a struct of leaves the direct writer encodes (SKU) and
// leaves arrow-go's column writers do (Price, Qty).
type mixedItem struct {
	SKU   string
	Price decimal.Decimal128 `arrow:",decimal(15,2)"`
	Qty   int8
}

// mixedRow mixes, in one row group, columns the direct writer encodes and
// columns arrow-go's column writers do, flat and nested.
type mixedRow struct {
	ID      int64
	Amount  decimal.Decimal128  `arrow:",decimal(15,2)"`
	PAmount *decimal.Decimal128 `arrow:",decimal(38,10)"`
	Small   int8
	PSmall  *int16
	Took    time.Duration
	Name    string
	Attrs   map[string]int32
	Weights map[string]int8
	Big     []string `arrow:",large_list"`
	BigN    []int16  `arrow:",large_list"`
	Item    mixedItem
	PItem   *mixedItem
	Items   []mixedItem
	Half    float16.Num
	Fixed   [4]byte
	U32     uint32
	Blob    [48]byte // unique: its dictionary fills and falls back to plain
	Nothing mapper.Null
}

func mixedRows(r *rand.Rand, n int) []mixedRow {
	rows := make([]mixedRow, n)
	dec := func(v int64) decimal.Decimal128 { return decimal128.FromI64(v) }
	for i := range rows {
		m := mixedRow{
			ID: int64(i), Amount: dec(r.Int64N(1e12) - 5e11), Small: int8(r.IntN(256) - 128),
			Took: time.Duration(r.Int64N(1e12)), Name: fmt.Sprintf("name-%d", r.IntN(40)),
			Half:  float16.New(float32(r.IntN(64)) / 4),
			Fixed: [4]byte{byte(i), byte(i >> 8), 1, 2}, U32: r.Uint32(),
		}
		for k := range m.Blob {
			m.Blob[k] = byte(r.UintN(256))
		}
		if r.IntN(3) != 0 {
			m.PAmount = ptr(dec(r.Int64() - r.Int64()))
		}
		if r.IntN(4) != 0 {
			m.PSmall = ptr(int16(r.IntN(1 << 16)))
		}
		if k := r.IntN(4); k > 0 || r.IntN(2) == 0 {
			m.Attrs = map[string]int32{}
			for j := range k {
				m.Attrs[fmt.Sprintf("a%d", j)] = r.Int32N(100)
			}
		}
		for j := range r.IntN(3) {
			if m.Weights == nil {
				m.Weights = map[string]int8{}
			}
			m.Weights[fmt.Sprintf("w%d", j)] = int8(r.IntN(100))
		}
		for range r.IntN(4) {
			m.Big = append(m.Big, fmt.Sprintf("big-%d", r.IntN(9)))
			m.BigN = append(m.BigN, int16(r.IntN(1000)))
		}
		item := func() mixedItem {
			return mixedItem{SKU: fmt.Sprintf("sku-%d", r.IntN(50)), Price: dec(r.Int64N(1e7)), Qty: int8(r.IntN(100))}
		}
		m.Item = item()
		if r.IntN(2) == 0 {
			it := item()
			m.PItem = &it
		}
		for range r.IntN(3) {
			m.Items = append(m.Items, item())
		}
		rows[i] = m
	}
	return rows
}

func TestAFileMixesTheDirectWritersColumnsAndArrowGosInOneRowGroup(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rows := mixedRows(rand.New(rand.NewPCG(seed, 24)), 40_000)
	// Decimal128s are the direct writer's own (Amount, PAmount, the Prices).
	want := []string{
		"Small", "PSmall", "Weights.key_value.value", "BigN.list.element",
		"Item.Qty", "PItem.Qty", "Items.list.element.Qty",
		"Half", "Fixed", "Blob", "Nothing",
	}
	require.ElementsMatch(t, want, amparquet.ArrowGoLeaves[mixedRow](amparquet.WriteConfig{}), "the leaves arrow-go's column writers write")
	off, on := false, true
	for _, c := range []struct {
		name string
		cfg  amparquet.WriteConfig
	}{
		{"at the defaults, several row groups", amparquet.WriteConfig{RowGroupRows: 9_000}},
		{"uncompressed, without dictionaries", amparquet.WriteConfig{Compression: amparquet.Uncompressed, Dictionary: &off}},
		{"every column a dictionary, zstd", amparquet.WriteConfig{Dictionary: &on, Compression: amparquet.Zstd, RowGroupRows: 25_000}},
		{"version 2 data pages", amparquet.WriteConfig{DataPageVersion: parquet.DataPageV2, RowGroupRows: 15_000}},
		{"without statistics or page index", amparquet.WriteConfig{Statistics: &off, PageIndex: &off}},
		{"one row", amparquet.WriteConfig{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // side by side: one after the other they took two minutes under the race detector
			rows := rows
			if c.name == "one row" {
				rows = rows[:1]
			}
			sameAsPqarrow(t, rows, c.cfg)
			sameArrowGoChunksAsPqarrow(t, rows, c.cfg)
		})
	}
}

// sameArrowGoChunksAsPqarrow writes rows with the direct writer and with
// pqarrow and checks that every chunk arrow-go's column writers write in
// the direct writer's file is the bytes of pqarrow's chunk (the same pages,
// dictionary, statistics and encodings), that its column index and offset
// index are pqarrow's but for the file offsets, and that every chunk of
// either writer has at most one dictionary page.
func sameArrowGoChunksAsPqarrow[T any](t *testing.T, rows []T, cfg amparquet.WriteConfig) {
	t.Helper()
	dir := t.TempDir()
	direct, viaPqarrow := filepath.Join(dir, "direct.parquet"), filepath.Join(dir, "pqarrow.parquet")
	require.NoError(t, amparquet.WriteFile(direct, rows, cfg))
	require.NoError(t, amparquet.WriteFile(viaPqarrow, rows, amparquet.ThroughPqarrow(true, cfg)))
	gb, err := os.ReadFile(direct)
	require.NoError(t, err)
	wb, err := os.ReadFile(viaPqarrow)
	require.NoError(t, err)
	gf, wf := openPageFile(t, direct), openPageFile(t, viaPqarrow)
	arrowGo := map[string]bool{}
	for _, p := range amparquet.ArrowGoLeaves[T](cfg) {
		arrowGo[p] = true
	}
	require.NotEmpty(t, arrowGo)
	pageIndex := cfg.PageIndex == nil || *cfg.PageIndex
	for g := range wf.NumRowGroups() {
		for c := range wf.MetaData().Schema.NumColumns() {
			path := wf.MetaData().Schema.Column(c).Path()
			name := fmt.Sprintf("row group %d, column %s", g, path)
			require.LessOrEqual(t, dictionaryPages(t, gf, g, c), 1, name+": dictionary pages of the direct writer's file")
			require.LessOrEqual(t, dictionaryPages(t, wf, g, c), 1, name+": dictionary pages of pqarrow's file")
			if !arrowGo[path] {
				continue
			}
			wc, err := wf.MetaData().RowGroup(g).ColumnChunk(c)
			require.NoError(t, err)
			gc, err := gf.MetaData().RowGroup(g).ColumnChunk(c)
			require.NoError(t, err)
			sameChunk(t, wb, gb, wc, gc, name)
			if !pageIndex {
				require.Nil(t, gc.GetOffsetIndexLocation(), name+": offset index")
				continue
			}
			wr, err := wf.GetPageIndexReader().RowGroup(g)
			require.NoError(t, err)
			gr, err := gf.GetPageIndexReader().RowGroup(g)
			require.NoError(t, err)
			wci, err := wr.GetColumnIndex(c)
			require.NoError(t, err)
			gci, err := gr.GetColumnIndex(c)
			require.NoError(t, err)
			require.Equal(t, wci == nil, gci == nil, name+": column index")
			if wci != nil {
				require.Equal(t, wci.GetNullPages(), gci.GetNullPages(), name+": null pages")
				require.Equal(t, wci.GetMinValues(), gci.GetMinValues(), name+": page mins")
				require.Equal(t, wci.GetMaxValues(), gci.GetMaxValues(), name+": page maxes")
				require.Equal(t, wci.GetNullCounts(), gci.GetNullCounts(), name+": page null counts")
			}
			woi, err := wr.GetOffsetIndex(c)
			require.NoError(t, err)
			goi, err := gr.GetOffsetIndex(c)
			require.NoError(t, err)
			require.NotNil(t, goi, name+": offset index")
			wl, gl := woi.GetPageLocations(), goi.GetPageLocations()
			require.Len(t, gl, len(wl), name+": pages")
			shift := gc.DataPageOffset() - wc.DataPageOffset()
			for k := range wl {
				require.Equal(t, wl[k].FirstRowIndex, gl[k].FirstRowIndex, "%s, page %d: first row", name, k)
				require.Equal(t, wl[k].CompressedPageSize, gl[k].CompressedPageSize, "%s, page %d: size", name, k)
				require.Equal(t, wl[k].Offset+shift, gl[k].Offset, "%s, page %d: offset", name, k)
			}
		}
	}
}

// sameChunk checks that the column chunk ca of the file a is cb of the
// file b, wherever each is in its file: the same sizes, values,
// encodings, pages (their bytes) and statistics.
func sameChunk(t *testing.T, a, b []byte, ca, cb *metadataColumn, name string) {
	t.Helper()
	require.Equal(t, ca.TotalCompressedSize(), cb.TotalCompressedSize(), name)
	require.Equal(t, ca.TotalUncompressedSize(), cb.TotalUncompressedSize(), name)
	require.Equal(t, ca.NumValues(), cb.NumValues(), name)
	require.Equal(t, ca.HasDictionaryPage(), cb.HasDictionaryPage(), name)
	require.ElementsMatch(t, ca.Encodings(), cb.Encodings(), name)
	require.True(t, bytes.Equal(chunkBytes(a, ca), chunkBytes(b, cb)), name+": the chunk's bytes")
	sa, err := ca.Statistics()
	require.NoError(t, err)
	sb, err := cb.Statistics()
	require.NoError(t, err)
	require.Equal(t, sa == nil, sb == nil, name)
	if sa != nil {
		require.Equal(t, sa.HasMinMax(), sb.HasMinMax(), name)
		require.Equal(t, sa.EncodeMin(), sb.EncodeMin(), name+": min")
		require.Equal(t, sa.EncodeMax(), sb.EncodeMax(), name+": max")
		require.Equal(t, sa.NullCount(), sb.NullCount(), name+": null count")
	}
}

// chunkBytes is the bytes of the column chunk cc in the file b.
func chunkBytes(b []byte, cc *metadataColumn) []byte {
	start := cc.DataPageOffset()
	if cc.HasDictionaryPage() {
		start = cc.DictionaryPageOffset()
	}
	return b[start : start+cc.TotalCompressedSize()]
}

// dictionaryPages is the number of dictionary pages of column c of row
// group g.
func dictionaryPages(t *testing.T, pf *file.Reader, g, c int) int {
	t.Helper()
	pr, err := pf.RowGroup(g).GetColumnPageReader(c)
	require.NoError(t, err)
	n := 0
	for pr.Next() {
		if _, ok := pr.Page().(*file.DictionaryPage); ok {
			n++
		}
	}
	require.NoError(t, pr.Err())
	return n
}

func TestArrowGoColumnsOfTheDirectFileHaveManyPagesAndADictionaryUntilFull(t *testing.T) {
	// Code, an Arrow dictionary of numbers, is written by arrow-go's column
	// writer: pqarrow reads it back as its values, so that roundTrip does
	// not compare it.
	type coded struct {
		mixedRow
		Code int64 `arrow:",dict"`
	}
	r := rand.New(rand.NewPCG(1, 24))
	var rows []coded
	for _, m := range mixedRows(r, 60_000) {
		rows = append(rows, coded{m, int64(r.IntN(7)) * 1000})
	}
	require.Contains(t, amparquet.ArrowGoLeaves[coded](amparquet.WriteConfig{}), "Code")
	path := filepath.Join(t.TempDir(), "coded.parquet")
	on := true // no cost fallback: a dictionary is kept until full
	require.NoError(t, amparquet.WriteFile(path, rows, amparquet.WriteConfig{RowGroupRows: 30_000, Dictionary: &on}))
	got, err := amparquet.ReadFile[coded](path)
	require.NoError(t, err)
	require.True(t, reflect.DeepEqual(rows, got), "ReadFile reads the rows written")
	pf := openPageFile(t, path)
	require.Equal(t, 2, pf.NumRowGroups())
	blob := pf.MetaData().Schema.ColumnIndexByName("Blob")
	code := pf.MetaData().Schema.ColumnIndexByName("Code")
	for g := range 2 {
		// 30,000 unique 48-byte values: the dictionary reaches 1 MiB, then
		// plain pages follow.
		dict, pages := pagesOf(t, pf, g, blob)
		require.Greater(t, len(pages), 1, "row group %d: Blob's pages", g)
		require.Greater(t, dict, 0, "row group %d: Blob's dictionary", g)
		require.Equal(t, 1, dictionaryPages(t, pf, g, blob), "row group %d: Blob", g)
		encs := map[parquet.Encoding]bool{}
		for _, p := range pages {
			encs[p.encoding] = true
		}
		require.True(t, encs[parquet.Encodings.Plain] && encs[parquet.Encodings.RLEDict], "row group %d: Blob falls back to plain: %v", g, encs)
		require.LessOrEqual(t, dictionaryPages(t, pf, g, code), 1, "row group %d: the dict-tagged Code", g)
	}
	// Code's chunks, like every arrow-go column's, are pqarrow's.
	sameArrowGoChunksAsPqarrow(t, rows, amparquet.WriteConfig{RowGroupRows: 30_000, Dictionary: &on})
}

// decimalWidths are decimal128 columns of every FIXED_LEN_BYTE_ARRAY width
// pqarrow stores them in: 1, 7 and 16 bytes.
type decimalWidths struct {
	One   decimal.Decimal128  `arrow:",decimal(2,1)"`
	Money decimal.Decimal128  `arrow:",decimal(15,2)"`
	Wide  decimal.Decimal128  `arrow:",decimal(38,10)"`
	Maybe *decimal.Decimal128 `arrow:",decimal(15,2)"`
}

func TestTheDirectWritersDecimalsAreTheValuesAndStatisticsPqarrowWrites(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 24))
	rows := make([]decimalWidths, 50_000)
	for i := range rows {
		wide := decimal128.New(r.Int64N(1<<40)-1<<39, r.Uint64())
		rows[i] = decimalWidths{
			One: decimal128.FromI64(r.Int64N(199) - 99), Money: decimal128.FromI64(r.Int64N(2e15) - 1e15), Wide: wide,
		}
		if i%3 != 0 {
			rows[i].Maybe = ptr(decimal128.FromI64(r.Int64N(1e6) - 5e5))
		}
	}
	require.Empty(t, amparquet.ArrowGoLeaves[decimalWidths](amparquet.WriteConfig{}), "the direct writer writes decimal128s")
	off := false
	for _, cfg := range []amparquet.WriteConfig{{}, {Dictionary: &off, Compression: amparquet.Uncompressed, RowGroupRows: 20_000}} {
		sameAsPqarrow(t, rows, cfg)
	}
	// Plain and uncompressed, the data pages of a required column are its
	// values end to end: the same bytes in both files, whatever their pages.
	dir := t.TempDir()
	direct, viaPqarrow := filepath.Join(dir, "direct.parquet"), filepath.Join(dir, "pqarrow.parquet")
	cfg := amparquet.WriteConfig{Dictionary: &off, Compression: amparquet.Uncompressed}
	require.NoError(t, amparquet.WriteFile(direct, rows, cfg))
	require.NoError(t, amparquet.WriteFile(viaPqarrow, rows, amparquet.ThroughPqarrow(true, cfg)))
	gf, wf := openPageFile(t, direct), openPageFile(t, viaPqarrow)
	for c := range 3 {
		got, want := plainValues(t, gf, c), plainValues(t, wf, c)
		require.Len(t, got, len(rows)*[]int{1, 7, 16}[c], "column %d", c)
		require.True(t, bytes.Equal(want, got), "column %d: the plain values", c)
	}
}

// plainValues is the data pages of column c of row group 0, end to end.
func plainValues(t *testing.T, pf *file.Reader, c int) []byte {
	t.Helper()
	pr, err := pf.RowGroup(0).GetColumnPageReader(c)
	require.NoError(t, err)
	var out []byte
	for pr.Next() {
		if p, ok := pr.Page().(file.DataPage); ok {
			require.Equal(t, parquet.Encodings.Plain, parquet.Encoding(p.Encoding()))
			out = append(out, p.Data()...)
		}
	}
	require.NoError(t, pr.Err())
	return out
}

func TestAMixedFileFreesEveryBufferOfItsAllocator(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	rows := mixedRows(rand.New(rand.NewPCG(3, 24)), 20_000)
	path := filepath.Join(t.TempDir(), "mixed.parquet")
	require.NoError(t, amparquet.WriteFile(path, rows, amparquet.WriteConfig{RowGroupRows: 7_000}, mapper.Allocator(mem)))
	mem.AssertSize(t, 0)
	got, err := amparquet.ReadFile[mixedRow](path)
	require.NoError(t, err)
	require.True(t, reflect.DeepEqual(rows, got), "ReadFile reads the rows written")
}

func TestARecordWriterWritesSlicedRecordsOfAMixedSchemaAsPqarrowDoes(t *testing.T) {
	rows := mixedRows(rand.New(rand.NewPCG(5, 24)), 6_000)
	rec, err := mapper.Encode(rows)
	require.NoError(t, err)
	defer rec.Release()
	write := func(cfg amparquet.WriteConfig) string {
		path := filepath.Join(t.TempDir(), "sliced.parquet")
		f, err := os.Create(path)
		require.NoError(t, err)
		defer f.Close()
		w, err := amparquet.NewRecordWriter(f, rec.Schema(), cfg)
		require.NoError(t, err)
		// Slices whose arrays start past their buffers' first slot, at
		// every level: offsets, validity bitmaps and list offsets shifted.
		for _, r := range [][2]int64{{1_001, 2_500}, {2_500, 2_501}, {3_333, 6_000}} {
			part := rec.NewSlice(r[0], r[1])
			require.NoError(t, w.Write(part))
			part.Release()
		}
		require.NoError(t, w.Close())
		return path
	}
	cfg := amparquet.WriteConfig{RowGroupRows: 1_000}
	direct := write(cfg)
	back, err := amparquet.ReadFile[mixedRow](direct)
	require.NoError(t, err)
	wantRows := append(append(slices.Clone(rows[1_001:2_500]), rows[2_500]), rows[3_333:]...)
	require.True(t, reflect.DeepEqual(wantRows, back), "ReadFile reads the rows of the slices")
	got, want := readWithPqarrow(t, direct), readWithPqarrow(t, write(amparquet.ThroughPqarrow(true, cfg)))
	defer got.Release()
	defer want.Release()
	require.Equal(t, int64(1_499+1+2_667), got.NumRows())
	require.True(t, array.RecordEqual(want, got), "pqarrow reads\n%v\nwant\n%v", got, want)
}
