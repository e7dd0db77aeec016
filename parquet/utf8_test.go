package parquet_test

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/require"
)

// notUTF8 is a's data with every "ÿ" (C3 BF) made FF FF, two bytes that
// are not UTF-8, in every buffer at every depth: inline views and
// dictionary values too.
func notUTF8(t *testing.T, a arrow.Array) arrow.Array {
	t.Helper()
	var walk func(d arrow.ArrayData)
	walk = func(d arrow.ArrayData) {
		for k, b := range d.Buffers() {
			if k > 0 && b != nil {
				copy(b.Bytes(), bytes.ReplaceAll(b.Bytes(), []byte("ÿ"), []byte{0xff, 0xff}))
			}
		}
		for _, c := range d.Children() {
			walk(c)
		}
		if dict, ok := d.Dictionary().(*array.Data); ok && dict != nil {
			walk(dict)
		}
	}
	walk(a.Data())
	return a
}

// writeTwo writes a good record of 2 rows of schema, then rec, and
// returns the file's bytes after Close and the second Write's error.
func writeTwo(t *testing.T, schema *arrow.Schema, good, rec arrow.RecordBatch) ([]byte, error) {
	t.Helper()
	var buf bytes.Buffer
	w, err := amparquet.NewRecordWriter(&buf, schema, amparquet.WriteConfig{})
	require.NoError(t, err)
	require.NoError(t, w.Write(good))
	err = w.Write(rec)
	require.NoError(t, w.Close(), "a refused record does not break the file")
	return buf.Bytes(), err
}

func TestRecordWriterRefusesTextThatIsNotUTF8AtEveryDepth(t *testing.T) {
	dict := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	tests := []struct {
		name   string
		dt     arrow.DataType
		good   string // two rows
		bad    string // "ÿ" is the value that is not UTF-8
		column string
		row    int // in bad
	}{
		{"utf8", arrow.BinaryTypes.String, `["a", "b"]`, `["ok", null, "aÿ", "ÿ"]`, "c", 2},
		{"large_utf8", arrow.BinaryTypes.LargeString, `["a", "b"]`, `["ÿ"]`, "c", 0},
		{"utf8_view inline", arrow.BinaryTypes.StringView, `["a", "b"]`, `["ok", "ÿ"]`, "c", 1},
		{"utf8_view in a data buffer", arrow.BinaryTypes.StringView, `["a", "b"]`, `["a string longer than twelve ÿ"]`, "c", 0},
		{"a struct's child", arrow.StructOf(arrow.Field{Name: "n", Type: arrow.PrimitiveTypes.Int8, Nullable: true}, arrow.Field{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true}),
			`[{"n": 1, "name": "a"}, null]`, `[{"n": 1, "name": "a"}, {"n": 2, "name": "ÿ"}]`, "c.name", 1},
		{"a list element", arrow.ListOf(arrow.BinaryTypes.String), `[["a"], []]`, `[["a", "b"], null, [], ["c", "ÿ"]]`, "c.item", 3},
		{"a fixed-size list element", arrow.FixedSizeListOf(2, arrow.BinaryTypes.String), `[["a", "b"], null]`, `[["a", "b"], ["ÿ", "c"]]`, "c.item", 1},
		{"a list view element", arrow.ListViewOf(arrow.BinaryTypes.String), `[["a"], []]`, `[["a"], ["ÿ"]]`, "c.item", 1},
		{"a map key", arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), `[[{"key": "a", "value": 1}], null]`,
			`[[{"key": "a", "value": 1}], [{"key": "ÿ", "value": 2}]]`, "c.entries.key", 1},
		{"a map value", arrow.MapOf(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String), `[[{"key": 1, "value": "a"}], null]`,
			`[[{"key": 1, "value": "a"}, {"key": 2, "value": "ÿ"}]]`, "c.entries.value", 0},
		{"a dictionary value a row refers to", dict, `["a", "b"]`, `["a", "a", "ÿ", "a"]`, "c", 2},
		{"run-end encoded values", arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String), `["a", "b"]`, `["a", "a", "ÿ", "ÿ"]`, "c", 2},
		{"deep: a list of structs of lists", arrow.ListOf(arrow.StructOf(arrow.Field{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true})),
			`[[{"tags": ["a"]}], null]`, `[[{"tags": ["a"]}], [{"tags": null}, {"tags": ["b", "ÿ"]}]]`, "c.item.tags.item", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "c", Type: tt.dt, Nullable: true}}, nil)
			good := array.NewRecordBatch(schema, []arrow.Array{fromJSON(t, arrow.PrimitiveTypes.Int64, `[0, 1]`), fromJSON(t, tt.dt, tt.good)}, 2)
			defer good.Release()
			bad := notUTF8(t, fromJSON(t, tt.dt, tt.bad))
			ids := array.MakeArrayOfNull(memory.DefaultAllocator, arrow.PrimitiveTypes.Int64, bad.Len())
			defer ids.Release()
			rec := array.NewRecordBatch(schema, []arrow.Array{ids, bad}, int64(bad.Len()))
			defer rec.Release()

			data, err := writeTwo(t, schema, good, rec)
			var me *mapper.Error
			require.ErrorAs(t, err, &me)
			require.ErrorIs(t, err, mapper.ErrInvalidData)
			require.Equal(t, tt.column, me.Column)
			require.Equal(t, 2+tt.row, me.Row, "counted from the first row written")
			require.ErrorContains(t, err, "not UTF-8")

			gotSchema, recs := readRecords(t, data)
			got := oneTable(t, gotSchema, recs)
			require.Equal(t, int64(2), got.NumRows(), "the file holds the rows before the refused record, and none of it")
			requireSameRecord(t, good, got)
		})
	}
}

func TestTextThatIsNotUTF8WhereNoRowReachesItIsWritten(t *testing.T) {
	str := fromJSON(t, arrow.BinaryTypes.String, `["a", "ÿ", "b"]`)
	notUTF8(t, str)
	nullAt1 := memory.NewBufferBytes([]byte{0b101})
	// A null utf8 row over bytes that are not UTF-8.
	d := array.NewData(arrow.BinaryTypes.String, 3, []*memory.Buffer{nullAt1, str.Data().Buffers()[1], str.Data().Buffers()[2]}, nil, 1, 0)
	nullText := array.MakeFromData(d)
	d.Release()
	defer nullText.Release()
	// A null struct row over such a value.
	st := arrow.StructOf(arrow.Field{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true})
	d = array.NewData(st, 3, []*memory.Buffer{nullAt1}, []arrow.ArrayData{str.Data()}, 1, 0)
	nullStruct := array.MakeFromData(d)
	d.Release()
	defer nullStruct.Release()
	// A null list row over it.
	offsets := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 1, 2, 3}))
	d = array.NewData(arrow.ListOf(arrow.BinaryTypes.String), 3, []*memory.Buffer{nullAt1, offsets}, []arrow.ArrayData{str.Data()}, 1, 0)
	nullList := array.MakeFromData(d)
	d.Release()
	defer nullList.Release()
	// A dictionary entry that no row refers to.
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	indices := fromJSON(t, arrow.PrimitiveTypes.Int8, `[0, 2, 0]`)
	unused := array.NewDictionaryArray(dt, indices, str)
	defer unused.Release()
	// A slice of the record that leaves the value out.
	sliced := array.NewSlice(str, 2, 3)
	defer sliced.Release()

	for _, col := range []arrow.Array{nullText, nullStruct, nullList, unused, sliced} {
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

func TestACharacterSplitBetweenTwoValuesIsNotUTF8(t *testing.T) {
	// "é" is C3 A9: the buffer is UTF-8 as a whole, neither value is.
	for _, vals := range [][]string{{"x", "\xc3", "\xa9"}, {"\xc3\xa9\xc3", "\xa9"}} {
		b := array.NewStringBuilder(memory.DefaultAllocator)
		b.AppendValues(vals, nil)
		col := b.NewArray()
		b.Release()
		defer col.Release()
		schema := arrow.NewSchema([]arrow.Field{{Name: "c", Type: col.DataType(), Nullable: true}}, nil)
		rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))
		defer rec.Release()
		_, err := writeRecords(schema, rec)
		var me *mapper.Error
		require.ErrorAs(t, err, &me)
		require.ErrorIs(t, err, mapper.ErrInvalidData)
		require.Equal(t, len(vals)-2, me.Row, "%q", vals)
	}
}
