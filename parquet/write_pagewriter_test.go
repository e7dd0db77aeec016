package parquet_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/require"
)

type directFlat struct {
	I32   int32
	I64   int64
	U32   uint32
	U64   uint64
	F32   float32
	F64   float64
	B     bool
	S     string
	Large string `arrow:",large_utf8"`
	Bin   []byte
	PI    *int64
	PS    *string
	PB    *bool
	PF    *float64
	At    time.Time
	Day   time.Time `arrow:",date32"`
}

type directItem struct {
	SKU   string
	Price *float64
}

type directNested struct {
	ID    int64
	Tags  []string
	Items []directItem
	Opt   *directItem
	Grid  [][]int32
	Names []*string
	Flags []bool
}

// text is the dictionary cases: few values first, then unique ones, long
// enough to fill a dictionary past its limit (a fallback to plain within a
// chunk).
type text struct {
	Few     string
	Unique  string
	Filling string
}

func ptr[T any](v T) *T { return &v }

func directFlatRows(r *rand.Rand, n int) []directFlat {
	rows := make([]directFlat, n)
	for i := range rows {
		f := directFlat{
			I32: r.Int32() - math.MaxInt32/2, I64: r.Int64() - math.MaxInt64/2, U32: r.Uint32(), U64: r.Uint64(),
			F32: float32(r.NormFloat64()), F64: r.NormFloat64(), B: r.IntN(3) == 0,
			S: fmt.Sprintf("s-%d", r.IntN(n)), Large: strings.Repeat("l", r.IntN(9)), Bin: []byte{byte(i), byte(i >> 8)},
			At:  time.Unix(0, r.Int64N(1<<60)).UTC(),
			Day: time.Date(2000+r.IntN(50), time.Month(1+r.IntN(12)), 1+r.IntN(28), 0, 0, 0, 0, time.UTC),
		}
		if r.IntN(4) != 0 {
			f.PI = ptr(r.Int64())
		}
		if r.IntN(2) == 0 {
			f.PS = ptr(fmt.Sprintf("p-%d", r.IntN(7)))
		}
		if i%50 != 0 { // runs of nulls and of values
			f.PB = ptr(i%3 == 0)
		}
		if r.IntN(5) != 0 {
			f.PF = ptr(r.Float64())
		}
		rows[i] = f
	}
	return rows
}

func directNestedRows(r *rand.Rand, n int) []directNested {
	rows := make([]directNested, n)
	for i := range rows {
		d := directNested{ID: int64(i)}
		if k := r.IntN(5); k > 0 || r.IntN(2) == 0 {
			d.Tags = make([]string, k)
			for j := range d.Tags {
				d.Tags[j] = fmt.Sprintf("tag-%d", r.IntN(6))
			}
		}
		for range r.IntN(4) {
			it := directItem{SKU: fmt.Sprintf("sku-%d", r.IntN(300))}
			if r.IntN(3) != 0 {
				it.Price = ptr(r.Float64())
			}
			d.Items = append(d.Items, it)
		}
		if r.IntN(2) == 0 {
			d.Opt = &directItem{SKU: "opt", Price: ptr(float64(i))}
		}
		for range r.IntN(3) {
			row := make([]int32, r.IntN(4))
			for j := range row {
				row[j] = r.Int32N(100)
			}
			d.Grid = append(d.Grid, row)
		}
		for range r.IntN(4) {
			var s *string
			if r.IntN(2) == 0 {
				s = ptr(fmt.Sprint(r.IntN(10)))
			}
			d.Names = append(d.Names, s)
		}
		for range r.IntN(12) {
			d.Flags = append(d.Flags, r.IntN(2) == 0)
		}
		rows[i] = d
	}
	return rows
}

func textRows(n int) []text {
	rows := make([]text, n)
	for i := range rows {
		rows[i] = text{Few: fmt.Sprintf("city-%d", i%5), Unique: fmt.Sprintf("customer-%08d", i), Filling: fmt.Sprintf("v-%d", i%3)}
		if i > 20_000 {
			rows[i].Filling = fmt.Sprintf("%040d", i)
		}
	}
	return rows
}

// sameAsPqarrow writes rows with the direct writer and with pqarrow, and
// checks that pqarrow reads the same records from both files, that
// ReadFile reads the rows back from the direct writer's, and that both
// files have the same row groups, column chunk statistics and dictionary
// decisions (pqarrow's cost fallback is the model of ours) but on tiny
// chunks.
func sameAsPqarrow[T any](t *testing.T, rows []T, cfg amparquet.WriteConfig) {
	t.Helper()
	require.True(t, amparquet.WritesDirectly[T](cfg), "the direct writer writes %T", rows)
	direct := roundTrip(t, rows, cfg)
	viaPqarrow := filepath.Join(t.TempDir(), "pqarrow.parquet")
	require.False(t, amparquet.WritesDirectly[T](amparquet.ThroughPqarrow(true, cfg)), "the file compared with is pqarrow's")
	err := amparquet.WriteFile(viaPqarrow, rows, amparquet.ThroughPqarrow(true, cfg))
	require.NoError(t, err)

	got, want := readWithPqarrow(t, direct), readWithPqarrow(t, viaPqarrow)
	defer got.Release()
	defer want.Release()
	require.True(t, array.RecordEqual(want, got), "pqarrow reads\n%v\nwant\n%v", got, want)

	gf, err := file.OpenParquetFile(direct, false)
	require.NoError(t, err)
	defer gf.Close()
	wf, err := file.OpenParquetFile(viaPqarrow, false)
	require.NoError(t, err)
	defer wf.Close()
	require.Equal(t, rowGroupSizes(wf), rowGroupSizes(gf))
	require.Equal(t, wf.MetaData().KeyValueMetadata().Keys(), gf.MetaData().KeyValueMetadata().Keys())
	require.Equal(t, wf.MetaData().KeyValueMetadata().Values(), gf.MetaData().KeyValueMetadata().Values())
	for g := range wf.NumRowGroups() {
		for c := range wf.MetaData().Schema.NumColumns() {
			wc, err := wf.MetaData().RowGroup(g).ColumnChunk(c)
			require.NoError(t, err)
			gc, err := gf.MetaData().RowGroup(g).ColumnChunk(c)
			require.NoError(t, err)
			name := fmt.Sprintf("row group %d, column %s", g, wf.MetaData().Schema.Column(c).Path())
			require.Equal(t, wc.NumValues(), gc.NumValues(), name)
			if wc.NumValues() >= 1000 && cfg.Dictionary != nil {
				// Dictionaries asked on or off: both writers have one or
				// not. With the default, arrow-go decides after its first
				// batch of 1,024 values (when uncompressed) and the direct
				// writer on its first page, as parquet-mr does:
				// TestTheFirstPageNotTheFirstRowsDecidesWhetherADictionaryPays.
				require.Equal(t, wc.HasDictionaryPage(), gc.HasDictionaryPage(), name)
			}
			ws, err := wc.Statistics()
			require.NoError(t, err)
			gs, err := gc.Statistics()
			require.NoError(t, err)
			require.Equal(t, ws == nil, gs == nil, name)
			if ws == nil {
				continue
			}
			require.Equal(t, ws.HasMinMax(), gs.HasMinMax(), name)
			if ws.HasMinMax() {
				require.Equal(t, ws.EncodeMin(), gs.EncodeMin(), name+": min")
				require.Equal(t, ws.EncodeMax(), gs.EncodeMax(), name+": max")
			}
			require.Equal(t, ws.NullCount(), gs.NullCount(), name+": null count")
		}
	}
}

func TestTheDirectWriterWritesWhatPqarrowWrites(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 17))
	off, on := false, true
	flat := directFlatRows(r, 30_000)
	nested := directNestedRows(r, 30_000)
	for _, c := range []struct {
		name string
		run  func(t *testing.T)
	}{
		{"flat columns of every covered type, snappy, several row groups", func(t *testing.T) {
			sameAsPqarrow(t, flat, amparquet.WriteConfig{Compression: amparquet.Snappy, RowGroupRows: 12_000})
		}},
		{"flat columns uncompressed, without dictionaries", func(t *testing.T) {
			sameAsPqarrow(t, flat, amparquet.WriteConfig{Dictionary: &off})
		}},
		{"lists, structs, lists of lists and null elements, zstd", func(t *testing.T) {
			sameAsPqarrow(t, nested, amparquet.WriteConfig{Compression: amparquet.Zstd, RowGroupRows: 10_000})
		}},
		{"nested rows in version 2 data pages", func(t *testing.T) {
			sameAsPqarrow(t, nested, amparquet.WriteConfig{Compression: amparquet.Snappy, DataPageVersion: parquet.DataPageV2})
		}},
		{"flat rows in version 2 data pages, uncompressed", func(t *testing.T) {
			sameAsPqarrow(t, flat[:5000], amparquet.WriteConfig{DataPageVersion: parquet.DataPageV2})
		}},
		{"a dictionary kept, one dropped, one full that falls back to plain", func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "text.parquet")
			require.NoError(t, amparquet.WriteFile(path, textRows(100_000), amparquet.WriteConfig{Compression: amparquet.Snappy}))
			pf, err := file.OpenParquetFile(path, false)
			require.NoError(t, err)
			defer pf.Close()
			chunks := columnChunks(t, pf)
			require.True(t, chunks["Few"].HasDictionaryPage())
			require.False(t, chunks["Unique"].HasDictionaryPage())
			require.True(t, chunks["Filling"].HasDictionaryPage())
			// arrow-go writes the encoding stats from a map: in any order.
			require.ElementsMatch(t, []parquet.Encoding{parquet.Encodings.RLEDict, parquet.Encodings.Plain}, dataPageEncodings(chunks["Filling"]), "fell back to plain")
			require.Equal(t, []parquet.Encoding{parquet.Encodings.RLEDict}, dataPageEncodings(chunks["Few"]))
			sameAsPqarrow(t, textRows(100_000), amparquet.WriteConfig{Compression: amparquet.Snappy})
		}},
		{"every column a dictionary, numbers too, uncompressed: dropped where it does not pay", func(t *testing.T) {
			sameAsPqarrow(t, flat, amparquet.WriteConfig{Dictionary: &on, RowGroupRows: 12_000})
		}},
		{"every column a dictionary, snappy: kept until full, then plain", func(t *testing.T) {
			sameAsPqarrow(t, flat, amparquet.WriteConfig{Dictionary: &on, Compression: amparquet.Snappy})
		}},
		{"nested columns each a dictionary", func(t *testing.T) {
			sameAsPqarrow(t, nested, amparquet.WriteConfig{Dictionary: &on, Compression: amparquet.Snappy})
		}},
		{"one row", func(t *testing.T) { sameAsPqarrow(t, nested[:1], amparquet.WriteConfig{}) }},
		{"no rows", func(t *testing.T) { sameAsPqarrow(t, []directNested{}, amparquet.WriteConfig{}) }},
	} {
		t.Run(c.name, c.run)
	}
}

func TestColumnsTheDirectWriterDoesNotEncodeStillGoThroughTheDirectFile(t *testing.T) {
	on := true
	type small struct{ I8 int8 }
	type dict struct {
		S string `arrow:",dict"`
	}
	type numberDict struct {
		N int64 `arrow:",dict"`
	}
	require.True(t, amparquet.WritesDirectly[small](amparquet.WriteConfig{}), "int8 is widened to int32 by arrow-go's column writer, in the direct file")
	require.True(t, amparquet.WritesDirectly[dict](amparquet.WriteConfig{}), "an Arrow dictionary of text")
	require.True(t, amparquet.WritesDirectly[numberDict](amparquet.WriteConfig{}), "an Arrow dictionary of numbers: arrow-go's column writer, in the direct file")
	require.True(t, amparquet.WritesDirectly[directFlat](amparquet.WriteConfig{Dictionary: &on}), "Parquet dictionaries of numbers")
	require.True(t, amparquet.WritesDirectly[directNested](amparquet.WriteConfig{}))
}

// dataPageEncodings is the encodings of the data pages of a column chunk.
func dataPageEncodings(cc *metadataColumn) []parquet.Encoding {
	var out []parquet.Encoding
	for _, st := range cc.EncodingStats() {
		if st.PageType.String() != "DICTIONARY_PAGE" {
			out = append(out, st.Encoding)
		}
	}
	return out
}
