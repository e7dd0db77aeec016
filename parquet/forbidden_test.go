package parquet_test

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/require"
)

func TestANullInAColumnThatIsNotNullableIsRefusedNotWrittenAsAValue(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int32, Nullable: false}}, nil)
	col := fromJSON(t, arrow.PrimitiveTypes.Int32, `[1, null, 3]`)
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, 3)
	defer rec.Release()

	data, err := writeRecords(schema, rec)
	if err == nil { // what it did before: the null slot's bytes came back as a value
		gotSchema, recs := readRecords(t, data)
		got := oneTable(t, gotSchema, recs)
		require.Equal(t, col.NullN(), got.Column(0).NullN(), "the file reads back %v for %v", got.Column(0), col)
	}
	var me *mapper.Error
	require.ErrorAs(t, err, &me)
	require.ErrorIs(t, err, mapper.ErrNull)
	require.Equal(t, "n", me.Column)
	require.Equal(t, 1, me.Row)
}

// decimal128s is an array of dt of the values vals, exactly, whatever
// dt's precision: what a writer that does not check may send.
func decimal128s(t *testing.T, dt *arrow.Decimal128Type, vals ...string) arrow.Array {
	t.Helper()
	b := array.NewDecimal128Builder(memory.DefaultAllocator, dt)
	defer b.Release()
	for _, s := range vals {
		v, err := decimal128.FromString(s, 38, dt.Scale)
		require.NoError(t, err)
		b.Append(v)
	}
	a := b.NewArray()
	t.Cleanup(a.Release)
	return a
}

// forbiddenCases are a column of each kind of value the Arrow spec
// forbids, at several depths: a good record of two rows, a bad one, and
// the path and row (in the bad record) of the value.
func forbiddenCases(t *testing.T) []forbiddenCase {
	d128 := &arrow.Decimal128Type{Precision: 3, Scale: 2}
	required := arrow.StructOf(arrow.Field{Name: "n", Type: arrow.PrimitiveTypes.Int32})
	requiredValues := arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32)
	requiredValues.SetItemNullable(false)
	dict := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: d128}
	return []forbiddenCase{
		{"text that is not UTF-8", arrow.Field{Name: "c", Type: arrow.BinaryTypes.String, Nullable: true},
			`["a", "b"]`, func() arrow.Array { return notUTF8(t, fromJSON(t, arrow.BinaryTypes.String, `["ok", "ÿ"]`)) },
			"c", 1, mapper.ErrInvalidData},
		{"a decimal past its precision", arrow.Field{Name: "c", Type: d128, Nullable: true},
			`["1.00", "-9.99"]`, func() arrow.Array { return decimal128s(t, d128, "9.99", "-128.10") },
			"c", 1, mapper.ErrInvalidData},
		{"a date64 between days", arrow.Field{Name: "c", Type: arrow.FixedWidthTypes.Date64, Nullable: true},
			`[0, 86400000]`, func() arrow.Array { return fromJSON(t, arrow.FixedWidthTypes.Date64, `[null, 86400001]`) },
			"c", 1, mapper.ErrInvalidData},
		{"a null in a column that is not nullable", arrow.Field{Name: "c", Type: arrow.PrimitiveTypes.Int32},
			`[1, 2]`, func() arrow.Array { return fromJSON(t, arrow.PrimitiveTypes.Int32, `[1, null]`) },
			"c", 1, mapper.ErrNull},
		{"a null in a struct's child that is not nullable", arrow.Field{Name: "c", Type: required, Nullable: true},
			`[{"n": 1}, null]`, func() arrow.Array { return fromJSON(t, required, `[null, {"n": null}]`) },
			"c.n", 1, mapper.ErrNull},
		{"a null list element that is not nullable", arrow.Field{Name: "c", Type: arrow.ListOfNonNullable(arrow.PrimitiveTypes.Int32), Nullable: true},
			`[[1], null]`, func() arrow.Array {
				return fromJSON(t, arrow.ListOfNonNullable(arrow.PrimitiveTypes.Int32), `[[1, 2], [3, null]]`)
			},
			"c.item", 1, mapper.ErrNull},
		{"a null map value that is not nullable", arrow.Field{Name: "c", Type: requiredValues, Nullable: true},
			`[[{"key": "a", "value": 1}], null]`, func() arrow.Array {
				// Built from its data: arrow-go's map builder panics.
				keys, values := fromJSON(t, arrow.BinaryTypes.String, `["a", "b"]`), fromJSON(t, arrow.PrimitiveTypes.Int32, `[1, null]`)
				entries := array.NewData(requiredValues.Elem(), 2, []*memory.Buffer{nil}, []arrow.ArrayData{keys.Data(), values.Data()}, 0, 0)
				defer entries.Release()
				offsets := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 1, 2}))
				d := array.NewData(requiredValues, 2, []*memory.Buffer{nil, offsets}, []arrow.ArrayData{entries}, 0, 0)
				defer d.Release()
				m := array.MakeFromData(d)
				t.Cleanup(m.Release)
				return m
			},
			"c.entries.value", 1, mapper.ErrNull},
		{"a dictionary value past its precision that a row refers to", arrow.Field{Name: "c", Type: dict, Nullable: true},
			`["1.00", "2.00"]`, func() arrow.Array {
				d := array.NewDictionaryArray(dict, fromJSON(t, arrow.PrimitiveTypes.Int8, `[0, 1]`), decimal128s(t, d128, "1.00", "100.00"))
				t.Cleanup(d.Release)
				return d
			},
			"c", 1, mapper.ErrInvalidData},
	}
}

type forbiddenCase struct {
	name     string
	field    arrow.Field
	good     string // two rows
	bad      func() arrow.Array
	column   string
	row      int // in bad
	sentinel error
}

func (c forbiddenCase) records(t *testing.T) (schema *arrow.Schema, good, bad arrow.RecordBatch) {
	schema = arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, c.field}, nil)
	good = array.NewRecordBatch(schema, []arrow.Array{fromJSON(t, arrow.PrimitiveTypes.Int64, `[0, 1]`), fromJSON(t, c.field.Type, c.good)}, 2)
	t.Cleanup(good.Release)
	col := c.bad()
	ids := array.MakeArrayOfNull(memory.DefaultAllocator, arrow.PrimitiveTypes.Int64, col.Len())
	defer ids.Release()
	bad = array.NewRecordBatch(schema, []arrow.Array{ids, col}, int64(col.Len()))
	t.Cleanup(bad.Release)
	return schema, good, bad
}

func TestRecordWriterRefusesEveryValueTheSpecForbidsAndGoesOn(t *testing.T) {
	for _, tt := range forbiddenCases(t) {
		t.Run(tt.name, func(t *testing.T) {
			schema, good, bad := tt.records(t)
			var buf bytes.Buffer
			w, err := amparquet.NewRecordWriter(&buf, schema, amparquet.WriteConfig{})
			require.NoError(t, err)
			require.NoError(t, w.Write(good))
			err = w.Write(bad)
			var me *mapper.Error
			require.ErrorAs(t, err, &me)
			require.ErrorIs(t, err, tt.sentinel)
			require.Equal(t, tt.column, me.Column)
			require.Equal(t, 2+tt.row, me.Row, "counted from the first row written")
			require.NoError(t, w.Write(good), "the writer goes on")
			require.NoError(t, w.Close())

			gotSchema, recs := readRecords(t, buf.Bytes())
			got := oneTable(t, gotSchema, recs)
			require.Equal(t, int64(4), got.NumRows(), "the good records, and nothing of the refused one")
			for _, part := range []arrow.RecordBatch{got.NewSlice(0, 2), got.NewSlice(2, 4)} {
				requireSameRecord(t, good, part)
				part.Release()
			}
		})
	}
}

func TestANullWhereNoRowReachesItIsWrittenThoughTheFieldIsNotNullable(t *testing.T) {
	required := arrow.StructOf(arrow.Field{Name: "n", Type: arrow.PrimitiveTypes.Int32})
	fixed := arrow.FixedSizeListOfNonNullable(2, arrow.PrimitiveTypes.Int32)
	for _, col := range []arrow.Array{
		fromJSON(t, required, `[{"n": 1}, null, {"n": 3}]`), // the builder appends a null child under the null row
		fromJSON(t, fixed, `[[1, 2], null, [3, 4]]`),
		fromJSON(t, arrow.ListOfNonNullable(required), `[[{"n": 1}], null, [{"n": 2}, {"n": 3}]]`),
	} {
		t.Run(col.DataType().String(), func(t *testing.T) {
			schema := arrow.NewSchema([]arrow.Field{{Name: "c", Type: col.DataType(), Nullable: true}}, nil)
			rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))
			defer rec.Release()
			data, err := writeRecords(schema, rec)
			require.NoError(t, err)
			gotSchema, recs := readRecords(t, data)
			requireSameRows(t, col, oneTable(t, gotSchema, recs).Column(0))
		})
	}
}
