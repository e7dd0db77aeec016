package parquet_test

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/arrowmap/arrowmap/internal/testsupport/arrowtest"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/require"
)

func fixedOf(n int32, elem arrow.DataType, nullable bool) *arrow.FixedSizeListType {
	return arrow.FixedSizeListOfField(n, arrow.Field{Name: "item", Type: elem, Nullable: nullable})
}

// requireSameRows checks that got holds want's values row by row, as Arrow
// defines them: what a null row holds beneath it is no value.
func requireSameRows(t *testing.T, want, got arrow.Array) {
	t.Helper()
	require.Equal(t, want.Len(), got.Len())
	for r := range want.Len() {
		require.True(t, arrowtest.SameValue(want, r, got, r), "row %d: got %v, want %v", r, got, want)
	}
}

func TestAFixedSizeListWithNullRowsRoundTripsAtEveryDepth(t *testing.T) {
	ints := fixedOf(2, arrow.PrimitiveTypes.Int32, true)
	tests := []struct {
		name string
		dt   arrow.DataType
		js   string
	}{
		{"of nullable int32", ints, `[[1, 2], null, [null, 4], null]`},
		{"of non-nullable int32", fixedOf(2, arrow.PrimitiveTypes.Int32, false), `[[1, 2], null, [3, 4]]`},
		{"every row null", ints, `[null, null]`},
		{"of strings", fixedOf(3, arrow.BinaryTypes.String, true), `[["a", "b", null], null, ["c", "", "d"]]`},
		{"of views, converted too", fixedOf(1, arrow.BinaryTypes.StringView, true), `[["a string longer than twelve bytes"], null]`},
		{"in a struct", arrow.StructOf(arrow.Field{Name: "xy", Type: ints, Nullable: true}, arrow.Field{Name: "n", Type: arrow.PrimitiveTypes.Int8, Nullable: true}),
			`[{"xy": [1, 2], "n": 1}, {"xy": null, "n": 2}, null, {"xy": [5, null], "n": null}]`},
		{"in a list", arrow.ListOf(ints), `[[[1, 2], null, [3, 4]], null, [], [null, [5, 6]]]`},
		{"in a large list", arrow.LargeListOf(ints), `[[null, [3, 4]], null]`},
		{"in a map's values", arrow.MapOf(arrow.BinaryTypes.String, ints), `[[{"key": "a", "value": null}, {"key": "b", "value": [1, 2]}], null]`},
		{"in a fixed-size list", fixedOf(2, ints, true), `[[[1, 2], null], null, [null, [3, 4]]]`},
	}
	for _, through := range []string{"the direct writer", "pqarrow"} {
		cfg := amparquet.ThroughPqarrow(through == "pqarrow", amparquet.WriteConfig{})
		for _, tt := range tests {
			t.Run(through+"/"+tt.name, func(t *testing.T) {
				col := fromJSON(t, tt.dt, tt.js)
				schema := arrow.NewSchema([]arrow.Field{{Name: "c", Type: tt.dt, Nullable: true}}, nil)
				rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))
				defer rec.Release()
				data, err := writeRecordsWith(cfg, schema, rec)
				require.NoError(t, err)
				gotSchema, recs := readRecords(t, data)
				require.True(t, schema.Equal(gotSchema), "got %s\nwant %s", gotSchema, schema)
				requireSameRows(t, col, oneTable(t, gotSchema, recs).Column(0))
			})
		}
	}
}

func TestASlicedFixedSizeListWithNullRowsRoundTrips(t *testing.T) {
	dt := fixedOf(2, arrow.PrimitiveTypes.Int32, true)
	col := fromJSON(t, dt, `[[1, 2], null, [3, 4], [5, 6], null, [7, 8]]`)
	schema := arrow.NewSchema([]arrow.Field{{Name: "c", Type: dt, Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))
	defer rec.Release()
	part := rec.NewSlice(1, 5) // an offset into the child: rows at child rows 2..10
	defer part.Release()
	data, err := writeRecords(schema, part)
	require.NoError(t, err)
	gotSchema, recs := readRecords(t, data)
	requireSameRows(t, part.Column(0), oneTable(t, gotSchema, recs).Column(0))
}

func TestOtherReadersSeeAFixedSizeListWithItsNullRows(t *testing.T) {
	dt := fixedOf(2, arrow.PrimitiveTypes.Int32, true)
	col := fromJSON(t, dt, `[[1, 2], null, [null, 4]]`)
	schema := arrow.NewSchema([]arrow.Field{{Name: "c", Type: dt, Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))
	defer rec.Release()
	data, err := writeRecords(schema, rec)
	require.NoError(t, err)

	pf, err := file.NewParquetReader(bytes.NewReader(data))
	require.NoError(t, err)
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	require.NoError(t, err)
	tbl, err := fr.ReadTable(context.Background())
	require.NoError(t, err)
	defer tbl.Release()
	got := tbl.Column(0).Data().Chunk(0).(*array.FixedSizeList)
	require.Equal(t, arrow.FIXED_SIZE_LIST, got.DataType().ID(), "the stored Arrow schema keeps the fixed-size list")
	require.Equal(t, int32(2), got.DataType().(*arrow.FixedSizeListType).Len())
	require.True(t, got.IsNull(1))
	require.Equal(t, 1, got.NullN())
	values := got.ListValues().(*array.Int32)
	require.Equal(t, 6, values.Len(), "two values a row, null rows too")
	require.Equal(t, []int32{1, 2}, values.Int32Values()[0:2])
	require.True(t, values.IsNull(2) && values.IsNull(3), "a null row's elements are null")
	require.True(t, values.IsNull(4))
	require.Equal(t, int32(4), values.Value(5))
}

type fixedRows struct {
	Point  *[2]int32              `arrow:"point"`
	Elems  [2]*int32              `arrow:"elems"`
	Inner  *struct{ P *[2]int32 } `arrow:"inner"`
	Points []*[2]int32            `arrow:"points"`
}

type fixedRowsNullable struct {
	Point [2]int32 `arrow:"point,nullable"`
}

func TestWriterOfFixedSizeArraysWithNilRowsRoundTrips(t *testing.T) {
	one, two := int32(1), int32(2)
	rows := []fixedRows{
		{Point: &[2]int32{1, 2}, Elems: [2]*int32{&one, nil}, Inner: &struct{ P *[2]int32 }{P: &[2]int32{3, 4}}, Points: []*[2]int32{{5, 6}, nil}},
		{},
		{Elems: [2]*int32{nil, &two}, Inner: &struct{ P *[2]int32 }{}, Points: []*[2]int32{nil}},
		{Point: &[2]int32{-7, 0}},
	}
	for _, through := range []string{"the direct writer", "pqarrow"} {
		t.Run(through, func(t *testing.T) {
			// roundTrip checks ReadFile, and what pqarrow alone reads.
			path := roundTrip(t, rows, amparquet.ThroughPqarrow(through == "pqarrow", amparquet.WriteConfig{}))
			got, err := amparquet.ReadFile[fixedRowsNullable](path)
			require.NoError(t, err)
			require.Equal(t, []fixedRowsNullable{{Point: [2]int32{1, 2}}, {}, {}, {Point: [2]int32{-7, 0}}}, got, "a null row is the zero array of a nullable field")
		})
	}
}

func TestANullRowOfAFixedSizeListIsNullToANonNullableField(t *testing.T) {
	type strict struct {
		Point [2]int32 `arrow:"point"`
	}
	path := filepath.Join(t.TempDir(), "nil.parquet")
	require.NoError(t, amparquet.WriteFile(path, []fixedRows{{Point: &[2]int32{1, 2}}, {}}, amparquet.WriteConfig{}))
	_, err := amparquet.ReadFile[strict](path)
	var me *mapper.Error
	require.ErrorAs(t, err, &me)
	require.ErrorIs(t, err, mapper.ErrNull)
	require.Equal(t, 1, me.Row)
}

func TestAStructWhoseNullRowsHoldListsRoundTrips(t *testing.T) {
	// Built by hand: the struct's null row 1 is over a list row and a
	// fixed-size list row that hold elements, which pqarrow visits none of.
	for _, through := range []string{"the direct writer", "pqarrow"} {
		for _, dt := range []arrow.DataType{arrow.ListOf(arrow.PrimitiveTypes.Int32), fixedOf(1, arrow.PrimitiveTypes.Int32, true), arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32)} {
			t.Run(through+"/"+dt.String(), func(t *testing.T) {
				cfg := amparquet.ThroughPqarrow(through == "pqarrow", amparquet.WriteConfig{})
				js := `[[1], [2], [4]]`
				if dt.ID() == arrow.MAP {
					js = `[[{"key": "a", "value": 1}], [{"key": "b", "value": 2}], [{"key": "c", "value": 4}]]`
				}
				child := fromJSON(t, dt, js)
				st := arrow.StructOf(arrow.Field{Name: "l", Type: dt, Nullable: true})
				d := array.NewData(st, 3, []*memory.Buffer{memory.NewBufferBytes([]byte{0b101})}, []arrow.ArrayData{child.Data()}, 1, 0)
				col := array.MakeFromData(d)
				d.Release()
				defer col.Release()
				schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: st, Nullable: true}}, nil)
				rec := array.NewRecordBatch(schema, []arrow.Array{col}, 3)
				defer rec.Release()
				data, err := writeRecordsWith(cfg, schema, rec)
				require.NoError(t, err)
				gotSchema, recs := readRecords(t, data)
				got := oneTable(t, gotSchema, recs).Column(0)
				require.True(t, got.IsNull(1))
				requireSameRows(t, col, got)
			})
		}
	}
}
