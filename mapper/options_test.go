package mapper_test

import (
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
)

type fxSnakeRow struct {
	UserID     int64
	HTTPServer string
	Field2     int32
	Label      string `arrow:"display_name"`
}

type fxNameRow struct {
	Name string
}

type fxTaggedNameRow struct {
	Name string `arrow:"name"`
}

func TestColumnMatching(t *testing.T) {
	snakeSchema := fxSchema("user_id", arrow.PrimitiveTypes.Int64, "http_server", arrow.BinaryTypes.String,
		"field2", arrow.PrimitiveTypes.Int32, "display_name", arrow.BinaryTypes.String)
	tests := []struct {
		name   string
		schema *arrow.Schema
		opts   []mapper.ReadOption
		check  func(t *testing.T, schema *arrow.Schema, opts []mapper.ReadOption)
	}{
		{"SnakeCase matches UserID to user_id and HTTPServer to http_server", snakeSchema, []mapper.ReadOption{mapper.SnakeCase()},
			func(t *testing.T, schema *arrow.Schema, opts []mapper.ReadOption) {
				mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
				defer mem.AssertSize(t, 0)
				rec := fxRecord(t,
					fxCol{"user_id", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[7, 8, 9, 10]`)},
					fxCol{"http_server", fxJSON(t, mem, arrow.BinaryTypes.String, `["a", "b", "c", "d"]`)},
					fxCol{"field2", fxJSON(t, mem, arrow.PrimitiveTypes.Int32, `[1, 2, 3, 4]`)},
					fxCol{"display_name", fxJSON(t, mem, arrow.BinaryTypes.String, `["w", "x", "y", "z"]`)})
				defer rec.Release()
				got := fxDecodeAll[fxSnakeRow](t, rec, opts...)
				require.Equal(t, []fxSnakeRow{{7, "a", 1, "w"}, {8, "b", 2, "x"}, {9, "c", 3, "y"}, {10, "d", 4, "z"}}, got)
			}},
		{"without SnakeCase UserID does not match user_id", snakeSchema, nil,
			func(t *testing.T, schema *arrow.Schema, opts []mapper.ReadOption) {
				fxRequireError(t, fxNewErr[fxSnakeRow](schema, opts...), mapper.ErrMissingColumn, "UserID", "UserID", -1)
			}},
		{"SnakeCase still matches a snake_case column case-insensitively", fxSchema("USER_ID", arrow.PrimitiveTypes.Int64,
			"Http_Server", arrow.BinaryTypes.String, "FIELD2", arrow.PrimitiveTypes.Int32, "display_name", arrow.BinaryTypes.String), []mapper.ReadOption{mapper.SnakeCase()},
			func(t *testing.T, schema *arrow.Schema, opts []mapper.ReadOption) {
				require.NoError(t, fxNewErr[fxSnakeRow](schema, opts...))
			}},
		{"a field matches the one column that differs only in case", fxSchema("NAME", arrow.BinaryTypes.String), nil,
			func(t *testing.T, schema *arrow.Schema, opts []mapper.ReadOption) {
				mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
				defer mem.AssertSize(t, 0)
				rec := fxRecord(t, fxCol{"NAME", fxJSON(t, mem, arrow.BinaryTypes.String, `["a", "b", "c", "d"]`)})
				defer rec.Release()
				require.Equal(t, []fxNameRow{{"a"}, {"b"}, {"c"}, {"d"}}, fxDecodeAll[fxNameRow](t, rec))
			}},
		{"two columns that differ from the field only in case match neither", fxSchema("name", arrow.BinaryTypes.String, "NAME", arrow.BinaryTypes.String), nil,
			func(t *testing.T, schema *arrow.Schema, opts []mapper.ReadOption) {
				fxRequireError(t, fxNewErr[fxNameRow](schema), mapper.ErrMissingColumn, "Name", "Name", -1)
			}},
		{"an exact match wins over a case-insensitive one", fxSchema("name", arrow.PrimitiveTypes.Int64, "Name", arrow.BinaryTypes.String), nil,
			func(t *testing.T, schema *arrow.Schema, opts []mapper.ReadOption) {
				mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
				defer mem.AssertSize(t, 0)
				rec := fxRecord(t,
					fxCol{"name", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1, 2, 3, 4]`)},
					fxCol{"Name", fxJSON(t, mem, arrow.BinaryTypes.String, `["a", "b", "c", "d"]`)})
				defer rec.Release()
				require.Equal(t, []fxNameRow{{"a"}, {"b"}, {"c"}, {"d"}}, fxDecodeAll[fxNameRow](t, rec))
			}},
		{"a tag name matches its column exactly, not in another case", fxSchema("NAME", arrow.BinaryTypes.String), nil,
			func(t *testing.T, schema *arrow.Schema, opts []mapper.ReadOption) {
				fxRequireError(t, fxNewErr[fxTaggedNameRow](schema), mapper.ErrMissingColumn, "Name", "name", -1)
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.check(t, tc.schema, tc.opts) })
	}
}

func TestAllowMissing(t *testing.T) {
	type inner struct {
		A int64  `arrow:"a"`
		B string `arrow:"b"`
	}
	type row struct {
		ID      int64     `arrow:"id"`
		Missing string    `arrow:"missing"`
		Times   []float64 `arrow:"times"`
		Inner   inner     `arrow:"inner"`
	}
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec := fxRecord(t,
		fxCol{"id", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1, 2, 3, 4]`)},
		fxCol{"inner", fxJSON(t, mem, arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64}), `[{"a": 10}, {"a": 20}, {"a": 30}, {"a": 40}]`)},
		fxCol{"extra", fxJSON(t, mem, arrow.BinaryTypes.String, `["x", null, "y", "z"]`)})
	defer rec.Release()

	t.Run("without AllowMissing a field without a column is ErrMissingColumn", func(t *testing.T) {
		fxRequireError(t, fxNewErr[row](rec.Schema()), mapper.ErrMissingColumn, "Missing", "missing", -1)
	})
	t.Run("with AllowMissing the fields without a column keep their zero value, nested ones too", func(t *testing.T) {
		got := fxDecodeAll[row](t, rec, mapper.AllowMissing())
		require.Equal(t, []row{
			{ID: 1, Inner: inner{A: 10}},
			{ID: 2, Inner: inner{A: 20}},
			{ID: 3, Inner: inner{A: 30}},
			{ID: 4, Inner: inner{A: 40}},
		}, got)
	})
	t.Run("Append with AllowMissing overwrites the missing fields of reused rows", func(t *testing.T) {
		m, err := mapper.New[row](rec.Schema(), mapper.AllowMissing())
		require.NoError(t, err)
		dst := []row{{Missing: "stale", Times: []float64{1}, Inner: inner{B: "stale"}}}
		got, err := m.Append(dst[:0], rec)
		require.NoError(t, err)
		require.Equal(t, row{ID: 1, Inner: inner{A: 10}}, got[0])
	})
}

func fxCacheRecord(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
	return fxRecord(t,
		fxCol{"id", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1, 2, 3, 4]`)},
		fxCol{"name", fxJSON(t, mem, arrow.BinaryTypes.String, `["a", null, "c", "d"]`)},
		fxCol{"tags", fxJSON(t, mem, arrow.ListOf(arrow.BinaryTypes.String), `[["x"], [], null, ["y", "z"]]`)})
}

func TestDecodeOneShot(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec1 := fxCacheRecord(t, mem)
	defer rec1.Release()
	rec2 := fxCacheRecord(t, mem) // an equal schema, built separately
	defer rec2.Release()
	require.NotSame(t, rec1.Schema(), rec2.Schema())
	opts := []mapper.ReadOption{mapper.SnakeCase()} // plans are cached per options too
	type nullableName struct {
		ID   int64    `arrow:"id"`
		Name string   `arrow:"name,nullable"`
		Tags []string `arrow:"tags"`
	}
	want := []nullableName{{1, "a", []string{"x"}}, {2, "", []string{}}, {3, "c", nil}, {4, "d", []string{"y", "z"}}}

	m, err := mapper.New[nullableName](rec1.Schema(), opts...)
	require.NoError(t, err)
	reused, err := m.Decode(rec1)
	require.NoError(t, err)
	require.Equal(t, want, reused)

	t.Run("mapper.Decode equals a reused Mapper's Decode", func(t *testing.T) {
		got, err := mapper.Decode[nullableName](rec1, opts...)
		require.NoError(t, err)
		require.Equal(t, reused, got)
	})
	t.Run("mapper.Decode of two records of equal schemas built separately gives the same rows", func(t *testing.T) {
		for range 3 {
			for _, rec := range []arrow.RecordBatch{rec1, rec2} {
				got, err := mapper.Decode[nullableName](rec, opts...)
				require.NoError(t, err)
				require.Equal(t, want, got)
			}
		}
	})
	t.Run("a second mapper.Decode reuses the cached plan", func(t *testing.T) {
		direct := testing.AllocsPerRun(20, func() { _, _ = m.Decode(rec2) })
		sameSchema := testing.AllocsPerRun(20, func() { _, _ = mapper.Decode[nullableName](rec2, opts...) })
		alternating := testing.AllocsPerRun(20, func() {
			_, _ = mapper.Decode[nullableName](rec1, opts...)
			_, _ = mapper.Decode[nullableName](rec2, opts...)
		})
		t.Logf("allocations: Mapper.Decode %v, mapper.Decode %v, mapper.Decode of two schemas in turn %v", direct, sameSchema, alternating/2)
		// A compile costs dozens of allocations; a cache hit, the Mapper
		// and its options, and for a schema seen before but not last, the
		// matching of its columns and the note of its use.
		require.LessOrEqual(t, sameSchema, direct+2, "mapper.Decode compiles its plan again")
		require.LessOrEqual(t, alternating/2, sameSchema+8, "mapper.Decode compiles its plan again for an equal schema")
	})
	t.Run("mapper.Decode keeps the plans of different options apart", func(t *testing.T) {
		got, err := mapper.Decode[fxCell[int64]](rec1, mapper.AllowMissing())
		require.NoError(t, err)
		require.Equal(t, make([]fxCell[int64], 4), got)
		_, err = mapper.Decode[fxCell[int64]](rec1)
		fxRequireError(t, err, mapper.ErrMissingColumn, "V", "v", -1)
	})
	t.Run("mapper.Decode tells apart schemas that arrow-go fingerprints alike", func(t *testing.T) {
		// arrow-go's fingerprint of fixed_size_binary leaves out the width.
		for _, width := range []int{2, 3, 2, 3} {
			js := map[int]string{2: `["aGk=", "aGk=", null, "aGk="]`, 3: `["YWJj", "YWJj", null, "YWJj"]`}[width]
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, &arrow.FixedSizeBinaryType{ByteWidth: width}, js)})
			got, err := mapper.Decode[fxCell[[]byte]](rec)
			require.NoError(t, err, "fixed_size_binary(%d)", width)
			require.Len(t, got[0].V, width)
			// DecodeTo shares the plan cache, and so the same check.
			rows, err := mapper.DecodeTo(reflect.TypeFor[fxCell[[]byte]](), rec)
			rec.Release()
			require.NoError(t, err, "DecodeTo, fixed_size_binary(%d)", width)
			require.Equal(t, got, rows.Interface())
		}
	})
}

// fxParallelRow exercises every kind of decoder under Parallelism.
type fxParallelRow struct {
	ID    int64      `arrow:"id"`
	Name  string     `arrow:"name"`
	Note  *string    `arrow:"note"`
	Tags  []string   `arrow:"tags"`
	At    time.Time  `arrow:"at"`
	Score float64    `arrow:"score"`
	Addr  netip.Addr `arrow:"addr"`
	Kind  string     `arrow:"kind"`
	Attrs map[string]int64
	*EmbAudit
}

// fxParallelRecord is n rows of fxParallelRow's columns.
func fxParallelRecord(t *testing.T, mem memory.Allocator, n int) arrow.RecordBatch {
	kindType := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "note", Type: arrow.BinaryTypes.StringView, Nullable: true},
		{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		{Name: "at", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "Asia/Tokyo"}},
		{Name: "score", Type: arrow.PrimitiveTypes.Float32},
		{Name: "addr", Type: arrow.BinaryTypes.String},
		{Name: "kind", Type: kindType},
		{Name: "Attrs", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64), Nullable: true},
		{Name: "by", Type: arrow.BinaryTypes.LargeString},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i := range n {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("name-%d", i))
		if i%3 == 0 {
			b.Field(2).(*array.StringViewBuilder).AppendNull()
		} else {
			b.Field(2).(*array.StringViewBuilder).Append(fmt.Sprintf("a note longer than twelve bytes, %d", i))
		}
		tags := b.Field(3).(*array.ListBuilder)
		if i%5 == 0 {
			tags.AppendNull()
		} else {
			tags.Append(true)
			for k := range i % 4 {
				tags.ValueBuilder().(*array.StringBuilder).Append(fmt.Sprintf("t%d", k))
			}
		}
		b.Field(4).(*array.TimestampBuilder).Append(arrow.Timestamp(int64(i) * 1_000_003))
		b.Field(5).(*array.Float32Builder).Append(float32(i) / 4)
		b.Field(6).(*array.StringBuilder).Append(fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255))
		if err := b.Field(7).(*array.BinaryDictionaryBuilder).AppendString([]string{"alpha", "beta", "gamma"}[i%3]); err != nil {
			t.Fatal(err)
		}
		attrs := b.Field(8).(*array.MapBuilder)
		attrs.Append(true)
		for k := range i % 3 {
			attrs.KeyBuilder().(*array.StringBuilder).Append(fmt.Sprintf("k%d", k))
			attrs.ItemBuilder().(*array.Int64Builder).Append(int64(i * k))
		}
		b.Field(9).(*array.LargeStringBuilder).Append(fmt.Sprintf("user-%d", i%97))
	}
	return b.NewRecordBatch()
}

func TestParallelism(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	const n = 50_000
	rec := fxParallelRecord(t, mem, n)
	defer rec.Release()

	serial, err := mapper.New[fxParallelRow](rec.Schema())
	require.NoError(t, err)
	want, err := serial.Decode(rec)
	require.NoError(t, err)
	require.Len(t, want, n)
	// Spot-check the serial rows themselves.
	require.Equal(t, fxParallelRow{
		ID: 12346, Name: "name-12346", Note: fxPtr("a note longer than twelve bytes, 12346"),
		Tags: []string{"t0", "t1"}, At: want[12346].At, Score: 3086.5,
		Addr: netip.MustParseAddr("10.0.48.58"), Kind: "beta", Attrs: map[string]int64{"k0": 0},
		EmbAudit: &EmbAudit{By: "user-27"},
	}, want[12346])
	require.Equal(t, int64(12346*1_000_003), want[12346].At.UnixMicro())
	require.Equal(t, "Asia/Tokyo", want[12346].At.Location().String())
	require.Nil(t, want[15].Tags)
	require.Nil(t, want[15].Note)
	require.Equal(t, map[string]int64{"k0": 0, "k1": 49997}, want[49997].Attrs)

	parallel, err := mapper.New[fxParallelRow](rec.Schema(), mapper.Parallelism(4))
	require.NoError(t, err)
	t.Run("Parallelism(4) decodes 50k rows exactly as the serial decode", func(t *testing.T) {
		got, err := parallel.Decode(rec)
		require.NoError(t, err)
		require.Equal(t, want, got)
	})
	t.Run("Parallelism(4) decodes a sliced Batch exactly as the serial decode", func(t *testing.T) {
		b, err := parallel.View(rec)
		require.NoError(t, err)
		require.Equal(t, want[1234:45678], b.Slice(1000, 49000).Slice(234, 44678).Append(nil))
	})
	t.Run("Parallelism(4) decodes a sliced record exactly as the serial decode", func(t *testing.T) {
		sliced := rec.NewSlice(777, n-333)
		defer sliced.Release()
		got, err := mapper.Decode[fxParallelRow](sliced, mapper.Parallelism(4))
		require.NoError(t, err)
		require.Equal(t, want[777:n-333], got)
	})
	t.Run("Parallelism(64) on fewer rows than it has goroutines is still exact", func(t *testing.T) {
		m, err := mapper.New[fxParallelRow](rec.Schema(), mapper.Parallelism(64))
		require.NoError(t, err)
		b, err := m.View(rec)
		require.NoError(t, err)
		require.Equal(t, want[:10_000], b.Slice(0, 10_000).Append(nil))
		require.Equal(t, want[5:8], b.Slice(5, 8).Append(nil))
	})
}

func TestConcurrentUse(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	const n = 3_000
	rec := fxParallelRecord(t, mem, n)
	defer rec.Release()
	m, err := mapper.New[fxParallelRow](rec.Schema())
	require.NoError(t, err)
	want, err := m.Decode(rec)
	require.NoError(t, err)
	shared, err := m.View(rec)
	require.NoError(t, err)

	const workers = 16
	t.Run("a Mapper shared by 16 goroutines decodes identical rows in each", func(t *testing.T) {
		results := make([][]fxParallelRow, workers)
		slices := make([][]fxParallelRow, workers)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				rows, err := m.Decode(rec)
				if err != nil {
					t.Error(err)
					return
				}
				results[w] = rows
				b, err := m.View(rec)
				if err != nil {
					t.Error(err)
					return
				}
				slices[w] = b.Slice(w*100, w*100+500).Append(nil)
			})
		}
		wg.Wait()
		for w := range workers {
			require.Equal(t, want, results[w], "goroutine %d", w)
			require.Equal(t, want[w*100:w*100+500], slices[w], "goroutine %d", w)
		}
	})
	t.Run("a Batch shared by 16 goroutines decodes identical rows in each", func(t *testing.T) {
		results := make([][]fxParallelRow, workers)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				results[w] = shared.Slice(w, n-w).Append(nil)
			})
		}
		wg.Wait()
		for w := range workers {
			require.Equal(t, want[w:n-w], results[w], "goroutine %d", w)
		}
	})
	t.Run("mapper.Decode from 16 goroutines decodes identical rows in each", func(t *testing.T) {
		results := make([][]fxParallelRow, workers)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				var err error
				results[w], err = mapper.Decode[fxParallelRow](rec, mapper.Parallelism(1+w%3))
				if err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		for w := range workers {
			require.Equal(t, want, results[w], "goroutine %d", w)
		}
	})
}

// directionCalls are calls of every IO package's readers and writers, each
// given an option of the other direction (wrong) and of its own (right).
var directionCalls = []struct{ wrong, right string }{
	{`parquet.Open[Row](path, parquet.WriteConfig{})`, `parquet.Open[Row](path, parquet.ReadConfig{})`},
	{`parquet.Open[Row](path, mapper.SchemaMetadata(md))`, `parquet.Open[Row](path, mapper.Strict())`},
	{`parquet.WriteFile(path, rows, parquet.ReadConfig{})`, `parquet.WriteFile(path, rows, parquet.WriteConfig{})`},
	{`parquet.NewWriter[Row](w, mapper.ZeroCopy())`, `parquet.NewWriter[Row](w, mapper.SchemaMetadata(md))`},
	{`parquet.OpenRecords(path, parquet.WriteConfig{})`, `parquet.OpenRecords(path, parquet.ReadConfig{})`},
	{`parquet.NewRecordWriter(w, nil, parquet.ReadConfig{})`, `parquet.NewRecordWriter(w, nil, parquet.WriteConfig{})`},
	{`ipc.Open[Row](path, ipc.WriteConfig{})`, `ipc.Open[Row](path, mapper.ZeroCopy())`},
	{`ipc.NewReader[Row](r, mapper.SchemaMetadata(md))`, `ipc.NewReader[Row](r, mapper.Strict())`},
	{`ipc.WriteFile(path, rows, mapper.Strict())`, `ipc.WriteFile(path, rows, ipc.WriteConfig{})`},
	{`ipc.NewRecordFileWriter(w, nil, mapper.AllowMissing())`, `ipc.NewRecordFileWriter(w, nil, mapper.SchemaMetadata(md))`},
	{`flight.Open[Row](ctx, flight.Source{}, nil, mapper.SchemaMetadata(md))`, `flight.Open[Row](ctx, flight.Source{}, nil, mapper.Strict())`},
	{`flight.Stream[Row](ctx, nil, nil, ipc.WriteConfig{})`, `flight.Stream[Row](ctx, nil, nil, mapper.Allocator(nil))`},
	{`flightsql.Query[Row](ctx, flightsql.Conn{}, "q", mapper.SchemaMetadata(md))`, `flightsql.Query[Row](ctx, flightsql.Conn{}, "q", mapper.ZeroCopy())`},
	{`flightsql.Ingest(ctx, flightsql.Conn{}, flightsql.Table{}, rows, mapper.Strict())`, `flightsql.Ingest(ctx, flightsql.Conn{}, flightsql.Table{}, rows, mapper.SchemaMetadata(md))`},
	{`adbc.Query[Row](ctx, nil, "q", mapper.SchemaMetadata(md))`, `adbc.Query[Row](ctx, nil, "q", mapper.LastKeyWins())`},
	{`adbc.Ingest(ctx, nil, adbc.Table{Name: "t"}, rows, mapper.ZeroCopy())`, `adbc.Ingest(ctx, nil, adbc.Table{Name: "t"}, rows, mapper.SnakeCase())`},
	{`mapper.Decode[Row](nil, mapper.SchemaMetadata(md))`, `mapper.Decode[Row](nil, mapper.SnakeCase())`},
	{`mapper.Encode(rows, mapper.Strict())`, `mapper.Encode(rows, mapper.Allocator(nil))`},
}

// directionProgram is a package of the calls, one a line in the function
// calls, so that an error's line names its call.
func directionProgram(calls []string) string {
	var b strings.Builder
	b.WriteString(`package direction

import (
	"bytes"
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/adbc"
	"github.com/arrowmap/arrowmap/flight"
	"github.com/arrowmap/arrowmap/flightsql"
	"github.com/arrowmap/arrowmap/ipc"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/parquet"
)

type Row struct{ ID int64 }

var (
	ctx          = context.Background()
	path         = "x"
	rows         []Row
	md           arrow.Metadata
	w  io.Writer = io.Discard
	r  io.Reader = bytes.NewReader(nil)
)

`)
	b.WriteString("func use(...any) {}\n\nfunc calls() {\n")
	for _, c := range calls {
		fmt.Fprintf(&b, "\tuse(%s)\n", c)
	}
	b.WriteString("}\n")
	return b.String()
}

// TestAnOptionOfTheOtherDirectionDoesNotCompile builds a package that
// gives each reader of every IO package (and mapper's decoders) a writer's
// option or config, and each writer a reader's: every such call is a
// compile error about the argument's type; the same calls with an option
// of their own direction build.
func TestAnOptionOfTheOtherDirectionDoesNotCompile(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build with")
	}
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	build := func(t *testing.T, calls []string) (string, error) {
		dir := t.TempDir()
		mod := fmt.Sprintf("module direction\n\ngo 1.26\n\nrequire github.com/arrowmap/arrowmap v0.0.0\n\nreplace github.com/arrowmap/arrowmap => %s\n", root)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "direction.go"), []byte(directionProgram(calls)), 0o644))
		cmd := exec.Command(goCmd, "build", "-gcflags=-e", ".")
		cmd.Dir = dir
		// Offline, from the module cache the repository's own build fills.
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	var wrong, right []string
	for _, c := range directionCalls {
		wrong, right = append(wrong, c.wrong), append(right, c.right)
	}
	out, err := build(t, right)
	require.NoError(t, err, "the calls with options of their own direction build:\n%s", out)

	out, err = build(t, wrong)
	require.Error(t, err, "the calls with options of the other direction build")
	t.Log(out)
	firstLine := strings.Count(strings.Split(directionProgram(nil), "func calls() {")[0], "\n") + 2
	lines := map[int]string{}
	for _, m := range regexp.MustCompile(`(?m)direction\.go:(\d+):\d+: (.*)$`).FindAllStringSubmatch(out, -1) {
		var n int
		fmt.Sscan(m[1], &n)
		lines[n] = m[2]
	}
	for i, c := range directionCalls {
		msg, ok := lines[firstLine+i]
		if assert.True(t, ok, "%s compiles:\n%s", c.wrong, out) {
			assert.Regexp(t, `^cannot use .* as .*(ReadOption|WriteOption) value in argument to .*missing method (ReadOption|WriteOption)\)$`, msg, c.wrong)
		}
	}
	assert.Len(t, lines, len(directionCalls), "one error a call, and no other:\n%s", out)
}

func TestRejectExtraColumns(t *testing.T) {
	meta := func(children ...arrow.Field) arrow.DataType { return arrow.StructOf(children...) }
	owner := arrow.Field{Name: "owner", Type: arrow.BinaryTypes.String}
	fxRun(t, []fxCase{
		{"extra columns are ignored by default and listed, every one, with RejectExtraColumns", func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t,
				fxCol{"id", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1]`)},
				fxCol{"Skipped", fxJSON(t, mem, arrow.BinaryTypes.String, `["s"]`)},
				fxCol{"meta", fxJSON(t, mem, meta(owner), `[{"owner": "o"}]`)},
				fxCol{"price", fxJSON(t, mem, arrow.PrimitiveTypes.Float64, `[2.5]`)})
			defer rec.Release()
			rows := decodeOK[extraRow](t, rec)
			require.Equal(t, int64(1), rows[0].ID)
			require.Equal(t, "o", rows[0].Meta.Owner)
			require.Empty(t, rows[0].Skipped, "a skipped field reads nothing")

			_, err := mapper.Decode[extraRow](rec, mapper.RejectExtraColumns())
			me := fxRequireError(t, err, mapper.ErrExtraColumn, "", "", -1)
			require.ErrorContains(t, me, `no field reads "Skipped", "price"`)
			_, err = mapper.Columns[extraColumns](rec, mapper.RejectExtraColumns())
			require.Equal(t, me.Error(), err.Error(), "Columns and Decode apply one rule")
		}},
		{"a struct column's extra child is named with its struct's path", func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t,
				fxCol{"id", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1]`)},
				fxCol{"meta", fxJSON(t, mem, meta(owner, arrow.Field{Name: "since", Type: arrow.PrimitiveTypes.Int32}), `[{"owner": "o", "since": 3}]`)})
			defer rec.Release()
			_, err := mapper.Decode[extraRow](rec, mapper.RejectExtraColumns())
			me := fxRequireError(t, err, mapper.ErrExtraColumn, "Meta", "meta", -1)
			require.ErrorContains(t, me, `no field reads "since"`)
			_, err = mapper.Columns[extraColumns](rec, mapper.RejectExtraColumns())
			require.Equal(t, me.Error(), err.Error())
		}},
		{"a schema with no extra column decodes with RejectExtraColumns", func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t,
				fxCol{"id", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1, 2]`)},
				fxCol{"meta", fxJSON(t, mem, meta(owner), `[{"owner": "o"}, {"owner": "p"}]`)})
			defer rec.Release()
			rows := decodeOK[extraRow](t, rec, mapper.RejectExtraColumns())
			require.Len(t, rows, 2)
			require.Equal(t, "p", rows[1].Meta.Owner)
			cols, err := mapper.Columns[extraColumns](rec, mapper.RejectExtraColumns())
			require.NoError(t, err)
			require.Equal(t, "p", cols.Meta.Owner.Value(1))
		}},
	})
}

// TestEveryOptionWhereItDoesNotApplyIsAnError passes every option to every
// entry point: one of the other direction is of a type the entry point's
// parameter cannot hold (it does not compile), one that the entry point
// takes works, any other is an ErrOption naming the entry point and the
// option.
func TestEveryOptionWhereItDoesNotApplyIsAnError(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec := cacheRecord(t, mem, 1, "extra")
	defer rec.Release()
	rows := []cacheRow{{1, "n1"}}

	options := []struct {
		name string
		opt  any
	}{
		{"Strict", mapper.Strict()},
		{"AllowMissing", mapper.AllowMissing()},
		{"SnakeCase", mapper.SnakeCase()},
		{"RejectExtraColumns", mapper.RejectExtraColumns()},
		{"LastKeyWins", mapper.LastKeyWins()},
		{"As", mapper.As(func(s string) (cacheName, error) { return cacheName(s), nil }, func(n cacheName) (string, error) { return string(n), nil })},
		{"Allocator", mapper.Allocator(mem)},
		{"ZeroCopy", mapper.ZeroCopy()},
		{"Parallelism", mapper.Parallelism(2)},
		{"MaxExpansion", mapper.MaxExpansion(128)},
		{"SchemaMetadata", mapper.SchemaMetadata(arrow.NewMetadata([]string{"k"}, []string{"v"}))},
	}
	decode := []string{"Strict", "AllowMissing", "SnakeCase", "RejectExtraColumns", "LastKeyWins", "As", "ZeroCopy", "Parallelism"}
	columns := []string{"Strict", "AllowMissing", "SnakeCase", "RejectExtraColumns"}
	encode := []string{"SnakeCase", "As", "Allocator", "SchemaMetadata"}
	entries := []struct {
		name  string
		takes []string
		write bool // its options are WriteOptions, else ReadOptions
		call  func(opt any) error
	}{
		{"New", decode, false, func(opt any) error {
			o := opt.(mapper.ReadOption)
			_, err := mapper.New[cacheRow](rec.Schema(), o)
			return err
		}},
		{"Decode", decode, false, func(opt any) error {
			o := opt.(mapper.ReadOption)
			_, err := mapper.Decode[cacheRow](rec, o)
			return err
		}},
		{"DecodeTo", decode, false, func(opt any) error {
			o := opt.(mapper.ReadOption)

			_, err := mapper.DecodeTo(reflectTypeOf[cacheRow](), rec, o)
			return err
		}},
		{"NewReader", append(decode, "MaxExpansion"), false, func(opt any) error {
			o := opt.(mapper.ReadOption)

			rr, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
			require.NoError(t, err)
			defer rr.Release()
			r, err := mapper.NewReader[cacheRow](rr, o)
			if err == nil {
				r.Release()
			}
			return err
		}},
		{"Columns", columns, false, func(opt any) error {
			o := opt.(mapper.ReadOption)
			_, err := mapper.Columns[cacheColumns](rec, o)
			return err
		}},
		{"NewColumnsReader", columns, false, func(opt any) error {
			o := opt.(mapper.ReadOption)

			rr, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
			require.NoError(t, err)
			defer rr.Release()
			r, err := mapper.NewColumnsReader[cacheColumns](rr, o)
			if err == nil {
				r.Release()
			}
			return err
		}},
		{"DecodeArray", decode, false, func(opt any) error {
			o := opt.(mapper.ReadOption)
			_, err := mapper.DecodeArray[string](rec.Column(1), o)
			return err
		}},
		{"EmptyReader", append(decode, "MaxExpansion"), false, func(opt any) error {
			o := opt.(mapper.ReadOption)
			r, err := mapper.EmptyReader[cacheRow](o)
			if err == nil {
				r.Release()
			}
			return err
		}},
		{"EncodeArray", []string{"SnakeCase", "As", "Allocator"}, true, func(opt any) error {
			o := opt.(mapper.WriteOption)

			arr, err := mapper.EncodeArray([]string{"a"}, o)
			if err == nil {
				arr.Release()
			}
			return err
		}},
		{"SchemaOf", []string{"SnakeCase", "As", "SchemaMetadata"}, true, func(opt any) error {
			o := opt.(mapper.WriteOption)
			_, err := mapper.SchemaOf[cacheRow](o)
			return err
		}},
		{"Encode", encode, true, func(opt any) error {
			o := opt.(mapper.WriteOption)

			out, err := mapper.Encode(rows, o)
			if err == nil {
				out.Release()
			}
			return err
		}},
		{"NewBuilder", encode, true, func(opt any) error {
			o := opt.(mapper.WriteOption)

			b, err := mapper.NewBuilder[cacheRow](o)
			if err == nil {
				b.Release()
			}
			return err
		}},
	}
	for _, e := range entries {
		for _, o := range options {
			_, read := o.opt.(mapper.ReadOption)
			_, write := o.opt.(mapper.WriteOption)
			if e.write && !write || !e.write && !read {
				continue // of the other direction: a call with it does not compile
			}
			takes := false
			for _, name := range e.takes {
				takes = takes || name == o.name
			}
			if takes {
				t.Run(e.name+" takes "+o.name, func(t *testing.T) {
					err := e.call(o.opt)
					if err != nil { // the option may fail on this data, but never as not taken
						require.NotErrorIs(t, err, mapper.ErrOption, "%v", err)
					}
				})
				continue
			}
			t.Run(e.name+" refuses "+o.name, func(t *testing.T) {
				err := e.call(o.opt)
				fxRequireError(t, err, mapper.ErrOption, "", "", -1)
				require.ErrorContains(t, err, e.name+" does not take "+o.name)
			})
		}
	}
}

type extraRow struct {
	ID   int64 `arrow:"id"`
	Meta struct {
		Owner string `arrow:"owner"`
	} `arrow:"meta"`
	Skipped string `arrow:"-"`
}

type extraColumns struct {
	ID   views.PrimitiveColumn[int64] `arrow:"id"`
	Meta struct {
		Owner views.StringColumn `arrow:"owner"`
	} `arrow:"meta"`
}
