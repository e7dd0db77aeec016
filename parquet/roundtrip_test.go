package parquet_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/require"
)

// roundTrip writes rows to a file with cfg and checks that ReadFile reads
// the same rows back, and that pqarrow, reading the file directly, sees
// the records mapper.Encode makes of the rows: the file holds what Encode
// means, not just something our reader undoes.
func roundTrip[T any](t *testing.T, rows []T, cfg amparquet.WriteConfig) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rows.parquet")
	require.NoError(t, amparquet.WriteFile(path, rows, cfg))

	got, err := amparquet.ReadFile[T](path)
	require.NoError(t, err)
	if len(rows) == 0 {
		require.Empty(t, got)
	} else {
		require.Equal(t, rows, got)
	}

	want, err := mapper.Encode(rows)
	require.NoError(t, err)
	defer want.Release()
	rec := readWithPqarrow(t, path)
	defer rec.Release()
	requireSameFields(t, want.Schema(), rec.Schema())
	require.Equal(t, want.NumRows(), rec.NumRows())
	for i := range int(want.NumCols()) {
		got := asType(rec.Column(i), want.Column(i).DataType())
		require.True(t, sameValues(t, want.Column(i), got), "column %s: pqarrow reads\n%v\nwant\n%v", want.ColumnName(i), got, want.Column(i))
		got.Release()
	}
	return path
}

// readWithPqarrow reads the whole file at path as one record, with
// arrow-go alone.
func readWithPqarrow(t *testing.T, path string) arrow.RecordBatch {
	t.Helper()
	pf, err := file.OpenParquetFile(path, false)
	require.NoError(t, err)
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	require.NoError(t, err)
	tbl, err := fr.ReadTable(context.Background())
	require.NoError(t, err)
	defer tbl.Release()
	cols := make([]arrow.Array, tbl.NumCols())
	for i := range cols {
		chunks := tbl.Column(i).Data().Chunks()
		if len(chunks) == 0 {
			cols[i] = array.MakeArrayOfNull(memory.DefaultAllocator, tbl.Column(i).DataType(), 0)
			continue
		}
		cols[i], err = array.Concatenate(chunks, memory.DefaultAllocator)
		require.NoError(t, err)
	}
	rec := array.NewRecordBatch(tbl.Schema(), cols, tbl.NumRows())
	for _, c := range cols {
		c.Release()
	}
	return rec
}

// requireSameFields checks that got has want's fields: names,
// nullability and types, metadata and the names of list elements aside
// (pqarrow names them "element", arrow-go "item").
func requireSameFields(t *testing.T, want, got *arrow.Schema) {
	t.Helper()
	require.Equal(t, want.NumFields(), got.NumFields(), "%s", got)
	for i, f := range want.Fields() {
		g := got.Field(i)
		require.Equal(t, f.Name, g.Name)
		require.Equal(t, f.Nullable, g.Nullable, f.Name)
		// Durations are stored as int64: pqarrow has no duration column.
		require.True(t, arrow.TypeEqual(itemNames(amparquet.StorageType(f.Type)), itemNames(g.Type)), "column %s: pqarrow reads %s, want %s", f.Name, g.Type, f.Type)
	}
}

// sameValues reports whether got holds want's values: array.Equal, or
// failing it, the same JSON, which leaves out what Arrow leaves unspecified
// (the children of a null struct row: Encode writes zero values there,
// pqarrow nulls).
func sameValues(t *testing.T, want, got arrow.Array) bool {
	if array.Equal(want, got) {
		return true
	}
	wj, err := want.MarshalJSON()
	require.NoError(t, err)
	gj, err := got.MarshalJSON()
	require.NoError(t, err)
	return string(wj) == string(gj)
}

// itemNames is dt with its list elements named "item" at every depth.
func itemNames(dt arrow.DataType) arrow.DataType {
	item := func(f arrow.Field) arrow.Field {
		return arrow.Field{Name: "item", Type: itemNames(f.Type), Nullable: f.Nullable}
	}
	switch t := dt.(type) {
	case *arrow.MapType:
		m := arrow.MapOfFields(arrow.Field{Name: "key", Type: itemNames(t.KeyType())}, arrow.Field{Name: "value", Type: itemNames(t.ItemType()), Nullable: t.ItemField().Nullable})
		m.KeysSorted = t.KeysSorted
		return m
	case *arrow.ListType:
		return arrow.ListOfField(item(t.ElemField()))
	case *arrow.LargeListType:
		return arrow.LargeListOfField(item(t.ElemField()))
	case *arrow.FixedSizeListType:
		return arrow.FixedSizeListOfField(t.Len(), item(t.ElemField()))
	case *arrow.StructType:
		fields := t.Fields()
		for i, f := range fields {
			fields[i] = arrow.Field{Name: f.Name, Type: itemNames(f.Type), Nullable: f.Nullable}
		}
		return arrow.StructOf(fields...)
	case *arrow.DictionaryType:
		return &arrow.DictionaryType{IndexType: t.IndexType, ValueType: itemNames(t.ValueType), Ordered: t.Ordered}
	}
	return dt
}

// asType is arr, of the storage type of dt (requireSameFields checked
// it), as an array of dt.
func asType(arr arrow.Array, dt arrow.DataType) arrow.Array {
	out, err := amparquet.Convert(arr, dt)
	if err != nil {
		panic(err)
	}
	return out
}

type scalars struct {
	I   int
	I8  int8
	I16 int16
	I32 int32
	I64 int64
	U   uint
	U8  uint8
	U16 uint16
	U32 uint32
	U64 uint64
	F16 float16.Num
	F32 float32
	F64 float64
	B   bool
}

type texts struct {
	S     string
	Large string `arrow:",large_utf8"`
	Bin   []byte
	LBin  []byte `arrow:",large_binary"`
	Fixed [4]byte
	Dec   string `arrow:",decimal(12,3)"`
	Addr  netip.Addr
}

type temporal struct {
	At     time.Time
	Tokyo  time.Time `arrow:",timestamp,tz=Asia/Tokyo"`
	Milli  time.Time `arrow:",timestamp,unit=ms"`
	Offset time.Time `arrow:",timestamp,unit=us,tz=+05:30"`
	Day    time.Time `arrow:",date32"`
	Dur    time.Duration
	DurS   time.Duration `arrow:",duration,unit=s"`
	TOD    time.Duration `arrow:",time64"`
	TOD32  time.Duration `arrow:",time32,unit=ms"`
}

// decimals are the decimal widths Parquet stores: pqarrow has no
// decimal32 or decimal64 (see TestNewWriterRefusesWhatParquetCannotStore).
type decimals struct {
	D9   decimal.Decimal128 `arrow:",decimal(9,2)"`
	D18  decimal.Decimal128 `arrow:",decimal(18,4)"`
	D128 decimal.Decimal128 `arrow:",decimal(38,10)"`
	D256 decimal.Decimal256 `arrow:",decimal(76,20)"`
	Wide decimal.Decimal128
}

type point struct {
	X, Y float64
	Name *string
}

type nested struct {
	Tags   []string
	Large  []int32 `arrow:",large_list"`
	Fixed  [3]int16
	Matrix [][]float64
	Points []point
	Attrs  map[string]int64
	Lists  map[string][]string
	At     point
	Ptr    *point
	Opt    *int64
	Null   int32   `arrow:",nullable"`
	Elems  []int64 `arrow-elem:"nullable"`
	Waits  []time.Duration
	Timers map[string]time.Duration
	Laps   struct{ Best time.Duration }
}

type dictionaries struct {
	City  string   `arrow:",dict"`
	Tags  []string `arrow-elem:"dict"`
	Maybe *string  `arrow:",dict"`
}

type (
	celsius float64
	label   string
	named   struct {
		Temp  celsius
		Label label
		IDs   []label
	}
)

func strp(s string) *string { return &s }
func i64p(v int64) *int64   { return &v }

func TestWriteFileReadFileRoundTripsEveryType(t *testing.T) {
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	require.NoError(t, err)
	plus530 := time.FixedZone("+05:30", 5*3600+1800)
	base := time.Date(2024, 2, 29, 13, 45, 10, 123456789, time.UTC)
	cfg := amparquet.WriteConfig{RowGroupRows: 3}

	tests := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"integers, unsigned integers, floats and bools keep their widths and extremes", func(t *testing.T) {
			rows := make([]scalars, 7)
			for i := range rows {
				rows[i] = scalars{I: -i, I8: int8(-128 + i), I16: int16(32767 - i), I32: int32(i * -100000), I64: -1 << 62,
					U: uint(i), U8: uint8(255 - i), U16: uint16(65535 - i), U32: 4294967295 - uint32(i), U64: 1<<64 - 1 - uint64(i),
					F16: float16.New(float32(i) / 2), F32: float32(i) / 3, F64: float64(i) * 1e300, B: i%2 == 0}
			}
			roundTrip(t, rows, cfg)
		}},
		{"strings, large strings, binaries, fixed-size binaries, decimal text and TextMarshalers come back", func(t *testing.T) {
			rows := make([]texts, 6)
			for i := range rows {
				rows[i] = texts{S: fmt.Sprintf("s%d", i), Large: fmt.Sprintf("large-%d", i), Fixed: [4]byte{byte(i), 1, 2, 3},
					Dec: fmt.Sprintf("%d.%03d", i*1000, i), Addr: netip.AddrFrom4([4]byte{10, 0, 0, byte(i)})}
				if i%2 == 1 {
					rows[i].Bin, rows[i].LBin = []byte{byte(i), 0}, []byte("lb")
				} else {
					rows[i].Bin, rows[i].LBin = []byte{}, nil
				}
			}
			rows[0].Bin = nil
			roundTrip(t, rows, cfg)
		}},
		{"timestamps keep their unit and zone, dates, durations and times of day their units", func(t *testing.T) {
			rows := make([]temporal, 5)
			for i := range rows {
				at := base.Add(time.Duration(i) * 36 * time.Hour)
				day := time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, time.UTC)
				rows[i] = temporal{At: at, Tokyo: at.In(tokyo), Milli: at.Truncate(time.Millisecond), Offset: at.Truncate(time.Microsecond).In(plus530),
					Day: day, Dur: time.Duration(i) * 1500 * time.Millisecond, DurS: time.Duration(i) * time.Hour,
					TOD: time.Duration(i) * time.Hour, TOD32: time.Duration(i)*time.Minute + 5*time.Millisecond}
			}
			roundTrip(t, rows, cfg)
		}},
		{"decimals of every width keep their precision and scale", func(t *testing.T) {
			rows := make([]decimals, 4)
			for i := range rows {
				rows[i] = decimals{D9: decimal128.FromI64(int64(-12345 * (i + 1))), D18: decimal128.FromI64(int64(i) * 1e15),
					D128: decimal128.FromI64(int64(i) * -987654321), D256: decimal256.FromI64(int64(i) * 1e18), Wide: decimal128.FromU64(uint64(i) << 60)}
			}
			roundTrip(t, rows, cfg)
		}},
		{"lists, large lists, fixed-size lists, lists of lists and of structs, maps, structs and nulls at every level", func(t *testing.T) {
			rows := make([]nested, 8)
			for i := range rows {
				r := nested{Fixed: [3]int16{int16(i), 2, 3}, At: point{X: float64(i), Y: -1}, Null: int32(i)}
				switch i % 4 {
				case 0: // nulls and empties
					r.Tags, r.Large, r.Matrix, r.Points = nil, []int32{}, [][]float64{nil, {}}, []point{}
					r.Attrs, r.Lists = nil, map[string][]string{}
					r.Elems = []int64{}
				case 1:
					r.Tags, r.Large, r.Matrix = []string{"a", ""}, []int32{int32(i)}, [][]float64{{1, 2}, {float64(i)}}
					r.Points = []point{{X: 1, Name: strp("p")}, {Y: 2}}
					r.Attrs, r.Lists = map[string]int64{"k": int64(i)}, map[string][]string{"l": {"x"}, "n": nil}
					r.Ptr, r.Opt = &point{X: 9, Name: strp("ptr")}, i64p(int64(-i))
					r.Elems = []int64{1, 2}
					r.Waits, r.Timers = []time.Duration{time.Second, -time.Nanosecond}, map[string]time.Duration{"t": time.Minute}
					r.Laps.Best = time.Duration(i) * time.Millisecond
				default:
					r.Tags = []string{fmt.Sprintf("t%d", i)}
					r.Matrix = [][]float64{}
					r.Points = []point{{Name: strp("")}}
					r.Attrs = map[string]int64{}
					r.Opt = i64p(0)
					r.Elems = nil
				}
				rows[i] = r
			}
			roundTrip(t, rows, cfg)
		}},
		{"dictionary columns read back as dictionaries of the same values", func(t *testing.T) {
			rows := make([]dictionaries, 9)
			for i := range rows {
				rows[i] = dictionaries{City: []string{"Oslo", "Lima", "Pune"}[i%3], Tags: []string{"x", "y"}[:i%3]}
				if i%2 == 0 {
					rows[i].Maybe = strp([]string{"a", "b"}[i%4/2])
				}
			}
			rows[1].Tags = nil
			roundTrip(t, rows, cfg)
		}},
		{"named types map by their underlying kind", func(t *testing.T) {
			rows := []named{{Temp: 21.5, Label: "warm", IDs: []label{"a"}}, {Temp: -3, IDs: []label{}}}
			roundTrip(t, rows, cfg)
		}},
		{"no rows make a file of the schema with no row group", func(t *testing.T) {
			path := roundTrip(t, []nested{}, cfg)
			pf, err := file.OpenParquetFile(path, false)
			require.NoError(t, err)
			defer pf.Close()
			require.Equal(t, 0, pf.NumRowGroups())
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.run)
	}
}

func TestWriteConfigSettingsReachTheFile(t *testing.T) {
	rows := make([]texts, 1000)
	for i := range rows {
		rows[i] = texts{S: fmt.Sprintf("row-%d", i%10), Large: "l", Bin: []byte{byte(i)}, LBin: []byte{1}, Dec: "1.500"}
	}
	on, off := true, false
	tests := []struct {
		name  string
		cfg   amparquet.WriteConfig
		check func(t *testing.T, pf *file.Reader)
	}{
		{"compression is the codec of every column chunk", amparquet.WriteConfig{Compression: amparquet.Zstd, CompressionLevel: 3}, func(t *testing.T, pf *file.Reader) {
			for _, cc := range columnChunks(t, pf) {
				require.Equal(t, compress.Codecs.Zstd, cc.Compression())
			}
		}},
		{"the default writes snappy, statistics, the page index and a dictionary for every column", amparquet.WriteConfig{}, func(t *testing.T, pf *file.Reader) {
			chunks := columnChunks(t, pf)
			for _, name := range []string{"S", "Bin", "Fixed", "Dec"} {
				require.True(t, chunks[name].HasDictionaryPage(), name)
			}
			for name, cc := range chunks {
				require.Equal(t, compress.Codecs.Snappy, cc.Compression(), name)
				set, err := cc.StatsSet()
				require.NoError(t, err)
				require.True(t, set, name)
				require.NotNil(t, cc.GetOffsetIndexLocation(), "%s: offset index", name)
				if name == "Addr" {
					// Every value is the zero netip.Addr, an empty byte array, of
					// which arrow-go's statistics keep no min and max: a column
					// index without them is left out, as arrow-go's writer does.
					continue
				}
				require.NotNil(t, cc.GetColumnIndexLocation(), "%s: column index", name)
			}
		}},
		{"Uncompressed writes pages without compression", amparquet.WriteConfig{Compression: amparquet.Uncompressed}, func(t *testing.T, pf *file.Reader) {
			for name, cc := range columnChunks(t, pf) {
				require.Equal(t, compress.Codecs.Uncompressed, cc.Compression(), name)
			}
		}},
		{"PageIndex false writes neither index", amparquet.WriteConfig{PageIndex: &off}, func(t *testing.T, pf *file.Reader) {
			for name, cc := range columnChunks(t, pf) {
				require.Nil(t, cc.GetColumnIndexLocation(), "%s: column index", name)
				require.Nil(t, cc.GetOffsetIndexLocation(), "%s: offset index", name)
			}
		}},
		{"Dictionary true turns it on for every column", amparquet.WriteConfig{Dictionary: &on}, func(t *testing.T, pf *file.Reader) {
			for name, cc := range columnChunks(t, pf) {
				require.True(t, cc.HasDictionaryPage(), name)
			}
		}},
		{"Dictionary false turns it off for every column", amparquet.WriteConfig{Dictionary: &off}, func(t *testing.T, pf *file.Reader) {
			for name, cc := range columnChunks(t, pf) {
				require.False(t, cc.HasDictionaryPage(), name)
			}
		}},
		{"Statistics false stores none", amparquet.WriteConfig{Statistics: &off}, func(t *testing.T, pf *file.Reader) {
			for name, cc := range columnChunks(t, pf) {
				set, _ := cc.StatsSet()
				require.False(t, set, name)
			}
		}},
		{"version 2 data pages are written as such", amparquet.WriteConfig{DataPageVersion: parquet.DataPageV2, Dictionary: &off}, func(t *testing.T, pf *file.Reader) {
			pr, err := pf.RowGroup(0).GetColumnPageReader(0)
			require.NoError(t, err)
			require.True(t, pr.Next(), "a page: %v", pr.Err())
			require.Equal(t, "DATA_PAGE_V2", pr.Page().Type().String())
		}},
		{"row groups hold RowGroupRows rows, the last the rest", amparquet.WriteConfig{RowGroupRows: 300}, func(t *testing.T, pf *file.Reader) {
			require.Equal(t, []int64{300, 300, 300, 100}, rowGroupSizes(pf))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := roundTrip(t, rows, tt.cfg)
			pf, err := file.OpenParquetFile(path, false)
			require.NoError(t, err)
			defer pf.Close()
			tt.check(t, pf)
		})
	}
}

// Every Compression is the codec of every column chunk, read back by
// arrow-go from the file's metadata, whichever way the chunk is written:
// Uncompressed too (it wrote snappy, arrow-go's zero codec being
// "uncompressed", which WriteConfig took for unset).
func TestEveryCodecTheWriterOffersCompressesEveryColumnChunkAndReadsBack(t *testing.T) {
	rows := orders(3000)
	for _, tc := range []struct {
		compression amparquet.Compression
		want        compress.Compression
	}{
		{amparquet.DefaultCompression, compress.Codecs.Snappy},
		{amparquet.Uncompressed, compress.Codecs.Uncompressed},
		{amparquet.Snappy, compress.Codecs.Snappy},
		{amparquet.Gzip, compress.Codecs.Gzip},
		{amparquet.Brotli, compress.Codecs.Brotli},
		{amparquet.Zstd, compress.Codecs.Zstd},
		{amparquet.LZ4Raw, compress.Codecs.Lz4Raw},
	} {
		for _, via := range []bool{false, true} {
			cfg := amparquet.ThroughPqarrow(via, amparquet.WriteConfig{Compression: tc.compression, RowGroupRows: 1000})
			t.Run(fmt.Sprintf("Compression %d (%s), through pqarrow %t", tc.compression, tc.compression, via), func(t *testing.T) {
				path := roundTrip(t, rows, cfg)
				pf, err := file.OpenParquetFile(path, false)
				require.NoError(t, err)
				defer pf.Close()
				require.Equal(t, 3, pf.NumRowGroups())
				for g := range pf.NumRowGroups() {
					rg := pf.MetaData().RowGroup(g)
					for c := range rg.NumColumns() {
						cc, err := rg.ColumnChunk(c)
						require.NoError(t, err)
						require.Equal(t, tc.want, cc.Compression(), "row group %d, column %d", g, c)
					}
				}
			})
		}
	}
}

// columnChunks is the column chunks of the first row group, by path.
func columnChunks(t *testing.T, pf *file.Reader) map[string]*metadataColumn {
	t.Helper()
	rg := pf.MetaData().RowGroup(0)
	out := map[string]*metadataColumn{}
	for i := range rg.NumColumns() {
		cc, err := rg.ColumnChunk(i)
		require.NoError(t, err)
		out[pf.MetaData().Schema.Column(i).Path()] = cc
	}
	return out
}

func rowGroupSizes(pf *file.Reader) []int64 {
	var sizes []int64
	for i := range pf.NumRowGroups() {
		sizes = append(sizes, pf.MetaData().RowGroup(i).NumRows())
	}
	return sizes
}

type metadataColumn = metadata.ColumnChunkMetaData

func TestRowGroupBytesClosesRowGroupsByTheirSizeAsArrowData(t *testing.T) {
	rows := make([]scalars, 20000) // 14 columns, 60 bytes a row as Arrow data
	for i := range rows {
		rows[i].I = i
	}
	path := roundTrip(t, rows, amparquet.WriteConfig{RowGroupBytes: 64 << 10})
	pf, err := file.OpenParquetFile(path, false)
	require.NoError(t, err)
	defer pf.Close()
	sizes := rowGroupSizes(pf)
	require.Greater(t, len(sizes), 15, "%v", sizes)
	for _, n := range sizes[:len(sizes)-1] {
		require.InEpsilon(t, sizes[0], n, 0.05, "row groups of about 64 KiB: %v", sizes)
	}
}

func TestTheDefaultDropsADictionaryThatDoesNotPay(t *testing.T) {
	type names struct {
		Unique string
		Few    string
	}
	rows := make([]names, 20000)
	for i := range rows {
		rows[i] = names{Unique: fmt.Sprintf("customer-%06d", i), Few: fmt.Sprintf("city-%d", i%5)}
	}
	path := roundTrip(t, rows, amparquet.WriteConfig{Compression: amparquet.Snappy})
	pf, err := file.OpenParquetFile(path, false)
	require.NoError(t, err)
	defer pf.Close()
	chunks := columnChunks(t, pf)
	require.False(t, chunks["Unique"].HasDictionaryPage(), "unique values: plain")
	require.True(t, chunks["Few"].HasDictionaryPage(), "five values: a dictionary")
}

// The first data page decides whether a chunk's dictionary pays, not its
// first rows: keys and dates that repeat across a row group but not within
// its first thousand rows (TPC-H's l_partkey: 20,000 parts over 600,000
// lines) keep their dictionary; unique keys drop it, whatever their type.
func TestTheFirstPageNotTheFirstRowsDecidesWhetherADictionaryPays(t *testing.T) {
	type line struct {
		Part   int64
		Day    int32
		Unique int64
		Text   string
	}
	r := rand.New(rand.NewPCG(24, 1))
	rows := make([]line, 100_000)
	for i := range rows {
		k := r.IntN(20_000) // 98% of the first 1,024 rows distinct, 68% of the first 16,384
		rows[i] = line{Part: int64(k), Day: int32(r.IntN(2500)), Unique: int64(i) * 1_000_003, Text: fmt.Sprintf("part-%05d", k)}
	}
	path := roundTrip(t, rows, amparquet.WriteConfig{})
	pf, err := file.OpenParquetFile(path, false)
	require.NoError(t, err)
	defer pf.Close()
	chunks := columnChunks(t, pf)
	for _, col := range []string{"Part", "Day", "Text"} {
		require.True(t, chunks[col].HasDictionaryPage(), "%s repeats across the page: a dictionary", col)
	}
	require.False(t, chunks["Unique"].HasDictionaryPage(), "unique values: plain")
}
