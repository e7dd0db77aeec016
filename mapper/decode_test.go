package mapper_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
)

type (
	nullScore struct {
		Score int64 `arrow:"v"`
	}
	nullScorePointer struct {
		Score *int64 `arrow:"v"`
	}
	nullScoreNullable struct {
		Score int64 `arrow:"v,nullable"`
	}
	nullTags struct {
		Tags []string `arrow:"v"`
	}
	nullTagsNullable struct {
		Tags []string `arrow:"v" arrow-elem:"nullable"`
	}
	nullGrid struct {
		Grid [][]int32 `arrow:"v"`
	}
	nullGridNullable struct {
		Grid [][]int32 `arrow:"v" arrow-elem:"elem(nullable)"`
	}
	nullAttrs struct {
		Attrs map[string]int32 `arrow:"v"`
	}
	nullAttrsNullable struct {
		Attrs map[string]int32 `arrow:"v" arrow-value:"nullable"`
	}
	nullCelsius float64
	nullTemp    struct {
		T nullCelsius `arrow:"v"`
	}
	nullScoreColumns struct {
		Score views.PrimitiveColumn[int64] `arrow:"v"`
	}
)

// TestANullTheFieldCannotHoldSaysHowToTakeIt checks the message of an
// ErrNull: the Go type that cannot hold the null and the two remedies,
// each of which, applied, decodes the record.
func TestANullTheFieldCannotHoldSaysHowToTakeIt(t *testing.T) {
	celsius := mapper.As[nullCelsius, float64](func(f float64) (nullCelsius, error) { return nullCelsius(f), nil }, nil)
	cases := []struct {
		name      string
		dt        arrow.DataType
		js        string
		decode    func(rec arrow.RecordBatch) error
		path, col string
		row       int
		says      string
		remedies  []func(rec arrow.RecordBatch) error
	}{
		{"a field", arrow.PrimitiveTypes.Int64, `[1, 2, 3, 4, null]`,
			decoding[nullScore](), "Score", "v", 4,
			"int64 cannot hold a null: make it a *int64, or tag it nullable to read a null as the zero value",
			[]func(arrow.RecordBatch) error{decoding[nullScorePointer](), decoding[nullScoreNullable]()}},
		{"a list element", arrow.ListOf(arrow.BinaryTypes.String), `[["a"], ["b", null]]`,
			decoding[nullTags](), "Tags[]", "v.item", 1,
			`string cannot hold a null: make it a *string, or tag it arrow-elem:"nullable" to read a null as the zero value`,
			[]func(arrow.RecordBatch) error{decoding[nullTagsNullable]()}},
		{"an element of an element", arrow.ListOf(arrow.ListOf(arrow.PrimitiveTypes.Int32)), `[[[1]], [[2, null]]]`,
			decoding[nullGrid](), "Grid[][]", "v.item.item", 1,
			`int32 cannot hold a null: make it a *int32, or tag it arrow-elem:"elem(nullable)" to read a null as the zero value`,
			[]func(arrow.RecordBatch) error{decoding[nullGridNullable]()}},
		{"a map value", arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), `[[{"key": "a", "value": null}]]`,
			decoding[nullAttrs](), "Attrs[value]", "v.entries.value", 0,
			`int32 cannot hold a null: make it a *int32, or tag it arrow-value:"nullable" to read a null as the zero value`,
			[]func(arrow.RecordBatch) error{decoding[nullAttrsNullable]()}},
		{"a field an As conversion reads names the field's type, not the conversion's", arrow.PrimitiveTypes.Float64, `[1.5, null]`,
			decoding[nullTemp](celsius), "T", "v", 1,
			"mapper_test.nullCelsius cannot hold a null: make it a *mapper_test.nullCelsius, or tag it nullable",
			nil},
		{"a typed column", arrow.PrimitiveTypes.Int64, `[1, null]`,
			func(rec arrow.RecordBatch) error { _, err := mapper.Columns[nullScoreColumns](rec); return err },
			"Score", "v", 1,
			`a typed column reads no null unless its field is tagged nullable`,
			nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, tc.dt, tc.js)})
			defer rec.Release()
			require.True(t, rec.Schema().Field(0).Nullable, "the column is nullable: the field is what is not")
			err := tc.decode(rec)
			fxRequireError(t, err, mapper.ErrNull, tc.path, tc.col, tc.row)
			assert.Contains(t, err.Error(), tc.says)
			assert.NotContains(t, err.Error(), "column that is not nullable")
			for _, remedy := range tc.remedies {
				assert.NoError(t, remedy(rec), "the remedy the message names decodes the record")
			}
		})
	}
}

// decodeErr is the error of mapper.Decode[T] on a record.
func decoding[T any](opts ...mapper.ReadOption) func(rec arrow.RecordBatch) error {
	return func(rec arrow.RecordBatch) error {
		_, err := mapper.Decode[T](rec, opts...)
		return err
	}
}

// prefixRow has a field for every column of the records of
// TestAnErrorAboutARowComesWithTheRowsBeforeIt; AllowMissing lets each
// record hold some.
type prefixRow struct {
	ID     int64                `arrow:"id"`
	Name   string               `arrow:"name"`
	Tags   []string             `arrow:"tags"`
	Price  decimal.Decimal128   `arrow:"price"`
	Prices []decimal.Decimal128 `arrow:"prices"`
	Color  string               `arrow:"color"`
	Meta   *malformedMeta       `arrow:"meta"`
}

func prefixDecimals(v ...int64) *array.Data {
	nums := make([]decimal128.Num, len(v))
	for i, x := range v {
		nums[i] = decimal128.FromI64(x)
	}
	return malData(&arrow.Decimal128Type{Precision: 5, Scale: 2}, len(v), 0, 0,
		malBuffers(nil, memory.NewBufferBytes(arrow.Decimal128Traits.CastToBytes(nums))))
}

// TestAnErrorAboutARowComesWithTheRowsBeforeIt checks every entry point
// that decodes one record against records with a fault: one about a row
// gives the rows before that row, each as the record cut before it
// decodes, and names the row; one about the record gives none.
func TestAnErrorAboutARowComesWithTheRowsBeforeIt(t *testing.T) {
	ids := func(n int) malformedColumn {
		v := make([]int64, n)
		for i := range v {
			v[i] = int64(i)
		}
		return malColumn("id", malInt64s(v...))
	}
	const tooMany = 1234567 // 12,345.67: seven digits, past decimal(5,2)
	cases := []struct {
		name    string
		columns []malformedColumn
		kind    error
		// before is the rows before the row the fault is about, which is
		// the error's Row; -1: a fault about the record, no row.
		before       int
		path, column string
		// want is the rows before, where the record cut before the row
		// does not decode: a struct's fields are validated whole.
		want []prefixRow
	}{
		{"a null at row 4 of 5 in a field that cannot hold it",
			[]malformedColumn{ids(5), malColumn("name", malData(arrow.BinaryTypes.String, 5, 1, 0,
				malBuffers(malBytes(0b01111), malInt32Buf(0, 1, 2, 3, 4, 4), malString("abcd"))))},
			mapper.ErrNull, 4, "Name", "name", nil},
		{"a null list element that row 3 reaches",
			[]malformedColumn{ids(5), malColumn("tags", malData(dtMalTags, 5, 0, 0, malBuffers(nil, malInt32Buf(0, 1, 1, 2, 4, 5)),
				malData(arrow.BinaryTypes.String, 5, 1, 0, malBuffers(malBytes(0b11011), malInt32Buf(0, 1, 2, 3, 3, 4), malString("abcd")))))},
			mapper.ErrNull, 3, "Tags[]", "tags.item", nil},
		{"a decimal past its precision at row 2",
			[]malformedColumn{ids(4), malColumn("price", prefixDecimals(100, 200, tooMany, 300))},
			mapper.ErrInvalidData, 2, "Price", "price", nil},
		{"a decimal past its precision in a list that row 1 holds",
			[]malformedColumn{ids(3), malColumn("prices", malData(arrow.ListOf(&arrow.Decimal128Type{Precision: 5, Scale: 2}), 3, 0, 0,
				malBuffers(nil, malInt32Buf(0, 2, 4, 5)), prefixDecimals(1, 2, 3, tooMany, 5)))},
			mapper.ErrInvalidData, 1, "Prices[]", "prices.item", nil},
		{"a dictionary index past the dictionary at row 3",
			[]malformedColumn{ids(5), malColumn("color", malDictionary(malData(dtMalColors, 5, 0, 0, malBuffers(nil, malInt32Buf(0, 1, 0, 2, 1))), malStrings([]int32{0, 1, 2}, "xy")))},
			mapper.ErrInvalidData, 3, "Color", "color", nil},
		{"a struct field's offsets that go backwards at row 3",
			[]malformedColumn{ids(4), malColumn("meta", malData(dtMalMeta, 4, 0, 0, malBuffers(nil),
				malStrings([]int32{0, 1, 2, 4, 3}, "abcd"), malFloat64s(1, 2, 3, 4)))},
			mapper.ErrInvalidData, 3, "Meta.Owner", "meta.owner",
			[]prefixRow{{ID: 0, Meta: &malformedMeta{"a", 1}}, {ID: 1, Meta: &malformedMeta{"b", 2}}, {ID: 2, Meta: &malformedMeta{"cd", 3}}}},
		{"faults in two columns: the first row of either",
			[]malformedColumn{ids(5), malColumn("price", prefixDecimals(1, 2, 3, tooMany, 5)),
				malColumn("name", malData(arrow.BinaryTypes.String, 5, 1, 0, malBuffers(malBytes(0b11101), malInt32Buf(0, 1, 1, 2, 3, 4), malString("abcd"))))},
			mapper.ErrNull, 1, "Name", "name", nil},
		{"a dictionary entry past its precision, whichever rows use it, is the record's",
			[]malformedColumn{ids(3), malColumn("price", malDictionary(malData(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: &arrow.Decimal128Type{Precision: 5, Scale: 2}}, 3, 0, 0,
				malBuffers(nil, malBytes(0, 0, 0))), prefixDecimals(1, tooMany)))},
			mapper.ErrInvalidData, -1, "Price", "price", nil},
		{"a buffer too short for the record is the record's",
			[]malformedColumn{ids(3), malColumn("name", malData(arrow.BinaryTypes.String, 3, 1, 0, malBuffers(malBytes(0b011), malInt32Buf(0, 1, 2), malString("ab"))))},
			mapper.ErrInvalidData, -1, "Name", "name", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := malRecord(t, tc.columns, 0)
			opts := []mapper.ReadOption{mapper.AllowMissing()}
			want := tc.want
			if tc.before >= 0 && want == nil {
				head := rec.NewSlice(0, int64(tc.before))
				defer head.Release()
				var err error
				want, err = mapper.Decode[prefixRow](head, opts...)
				require.NoError(t, err, "the record cut before the row decodes")
			}
			row := tc.before

			got, err := mapper.Decode[prefixRow](rec, opts...)
			fxRequireError(t, err, tc.kind, tc.path, tc.column, row)
			assert.Equal(t, want, got, "Decode")

			m, err := mapper.New[prefixRow](rec.Schema(), opts...)
			require.NoError(t, err)
			b, err := m.View(rec)
			fxRequireError(t, err, tc.kind, tc.path, tc.column, row)
			assert.Equal(t, len(want), b.Len(), "View")
			assert.Equal(t, want, b.Append(nil), "View's Batch")

			dst := []prefixRow{{ID: -1}}
			got, err = m.Append(dst, rec)
			fxRequireError(t, err, tc.kind, tc.path, tc.column, row)
			assert.Equal(t, append([]prefixRow{{ID: -1}}, want...), got, "Append")

			v, err := mapper.DecodeTo(reflect.TypeFor[prefixRow](), rec, opts...)
			fxRequireError(t, err, tc.kind, tc.path, tc.column, row)
			if len(want) == 0 {
				assert.False(t, v.IsValid(), "DecodeTo")
			} else if assert.True(t, v.IsValid(), "DecodeTo gives the rows") {
				assert.Equal(t, want, v.Interface(), "DecodeTo")
			}
		})
	}
}

type allocFlat struct {
	ID     int64     `arrow:"id"`
	Small  int32     `arrow:"small"`
	Price  float64   `arrow:"price"`
	OK     bool      `arrow:"ok"`
	Name   string    `arrow:"name"`
	Note   *string   `arrow:"note"`
	At     time.Time `arrow:"at"`
	Weight float32   `arrow:"weight"`
}

func allocFlatRecord(mem memory.Allocator, n int) arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "small", Type: arrow.PrimitiveTypes.Int32},
		{Name: "price", Type: arrow.PrimitiveTypes.Float64},
		{Name: "ok", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "at", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "Asia/Tokyo"}},
		{Name: "weight", Type: arrow.PrimitiveTypes.Float32},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i := range n {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.Int32Builder).Append(int32(-i))
		b.Field(2).(*array.Float64Builder).Append(float64(i) / 8)
		b.Field(3).(*array.BooleanBuilder).Append(i%2 == 0)
		b.Field(4).(*array.StringBuilder).Append(fmt.Sprintf("name-%d", i))
		if i%4 == 0 {
			b.Field(5).(*array.StringBuilder).AppendNull()
		} else {
			b.Field(5).(*array.StringBuilder).Append("a note")
		}
		b.Field(6).(*array.TimestampBuilder).Append(arrow.Timestamp(int64(i) * 1000))
		b.Field(7).(*array.Float32Builder).Append(float32(i))
	}
	return b.NewRecordBatch()
}

type allocLine struct {
	SKU   string  `arrow:"sku"`
	Price float64 `arrow:"price"`
}

type allocNested struct {
	ID      int64       `arrow:"id"`
	Tags    []string    `arrow:"tags"`
	Lines   []allocLine `arrow:"lines"`
	Weights []float32   `arrow:"weights"`
}

func allocNestedRecord(mem memory.Allocator, n int) arrow.RecordBatch {
	line := arrow.StructOf(arrow.Field{Name: "sku", Type: arrow.BinaryTypes.String}, arrow.Field{Name: "price", Type: arrow.PrimitiveTypes.Float64})
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
		{Name: "lines", Type: arrow.ListOf(line)},
		{Name: "weights", Type: arrow.ListOf(arrow.PrimitiveTypes.Float32)},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i := range n {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		tags := b.Field(1).(*array.ListBuilder)
		if i%7 == 0 {
			tags.AppendNull()
		} else {
			tags.Append(true)
			for k := range i % 3 {
				tags.ValueBuilder().(*array.StringBuilder).Append(fmt.Sprintf("tag-%d", k))
			}
		}
		lines := b.Field(2).(*array.ListBuilder)
		lines.Append(true)
		sb := lines.ValueBuilder().(*array.StructBuilder)
		for k := range i % 4 {
			sb.Append(true)
			sb.FieldBuilder(0).(*array.StringBuilder).Append(fmt.Sprintf("sku-%d-%d", i, k))
			sb.FieldBuilder(1).(*array.Float64Builder).Append(float64(k) + 0.5)
		}
		weights := b.Field(3).(*array.ListBuilder)
		weights.Append(true)
		for k := range i % 5 {
			weights.ValueBuilder().(*array.Float32Builder).Append(float32(k))
		}
	}
	return b.NewRecordBatch()
}

// allocsOfDecode counts the allocations of decoding rec with m: all of
// Mapper.Decode (viewing included), and Batch.Append into a slice that
// already has room.
func allocsOfDecode[T any](t *testing.T, m *mapper.Mapper[T], rec arrow.RecordBatch) (decode, appendInPlace float64) {
	t.Helper()
	rows, err := m.Decode(rec)
	require.NoError(t, err)
	require.Len(t, rows, int(rec.NumRows()))
	b, err := m.View(rec)
	require.NoError(t, err)
	dst := make([]T, 0, rec.NumRows())
	decode = fewestAllocs(func() {
		if _, err := m.Decode(rec); err != nil {
			panic(err)
		}
	})
	appendInPlace = fewestAllocs(func() { dst = b.Append(dst[:0]) })
	require.Equal(t, rows, dst)
	return decode, appendInPlace
}

// fewestAllocs is the fewest allocations per call of f in three rounds of
// testing.AllocsPerRun. It counts the whole process's allocations, so a
// background goroutine (a GC worker, a test's leftovers) can add to one
// round, under -race and a loaded machine most of all; none can take away.
func fewestAllocs(f func()) float64 {
	fewest := testing.AllocsPerRun(5, f)
	for range 2 {
		fewest = min(fewest, testing.AllocsPerRun(5, f))
	}
	return fewest
}

func TestAllocationsDoNotGrowWithRows(t *testing.T) {
	tests := []struct {
		name  string
		count func(t *testing.T, mem memory.Allocator, n int) (decode, appendInPlace float64)
	}{
		{"decoding a flat struct allocates per column, not per row", func(t *testing.T, mem memory.Allocator, n int) (float64, float64) {
			rec := allocFlatRecord(mem, n)
			defer rec.Release()
			m, err := mapper.New[allocFlat](rec.Schema())
			require.NoError(t, err)
			return allocsOfDecode(t, m, rec)
		}},
		{"decoding a nested struct allocates per column, not per row", func(t *testing.T, mem memory.Allocator, n int) (float64, float64) {
			rec := allocNestedRecord(mem, n)
			defer rec.Release()
			m, err := mapper.New[allocNested](rec.Schema())
			require.NoError(t, err)
			return allocsOfDecode(t, m, rec)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			smallDecode, smallAppend := tc.count(t, mem, 1_000)
			bigDecode, bigAppend := tc.count(t, mem, 100_000)
			t.Logf("allocations: Mapper.Decode %v at 1k rows, %v at 100k; Batch.Append in place %v at 1k, %v at 100k",
				smallDecode, bigDecode, smallAppend, bigAppend)
			require.Equal(t, smallDecode, bigDecode, "Mapper.Decode")
			require.Equal(t, smallAppend, bigAppend, "Batch.Append")
		})
	}
}

var fxSinkBatch mapper.Batch[allocNested]

func TestBatchSliceDoesNotAllocate(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec := allocNestedRecord(mem, 1_000)
	defer rec.Release()
	m, err := mapper.New[allocNested](rec.Schema())
	require.NoError(t, err)
	b, err := m.View(rec)
	require.NoError(t, err)
	allocs := testing.AllocsPerRun(100, func() {
		fxSinkBatch = b.Slice(10, 990).Slice(5, 900).Slice(100, 200)
	})
	require.Zero(t, allocs)
	require.Equal(t, 100, fxSinkBatch.Len())
	full, err := m.Decode(rec)
	require.NoError(t, err)
	require.Equal(t, full[115:215], fxSinkBatch.Append(nil))
}
