package mapper_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
)

// Rows whose map columns are entries slices, one shape per test row.
type (
	taggedEntries struct {
		M []entry `arrow:"m,map"`
	}
	listEntry struct {
		Key   string
		Value []int64
	}
	mapOfLists struct {
		M []listEntry `arrow:"m,map"`
	}
	listOfMaps struct {
		L [][]entry `arrow:"l" arrow-elem:"map"`
	}
	inStruct struct {
		S struct {
			ID int32   `arrow:"id"`
			M  []entry `arrow:"m,map"`
		} `arrow:"s"`
	}
	binaryKeys struct {
		M []struct {
			Key   []byte
			Value *string
		} `arrow:"m,map"`
	}
	pointerEntries struct {
		M []*entry `arrow:"m,map"`
	}
)

func str(s string) *string { return &s }

// encodeCase is rows of one shape, the record arrow-go reads from want as
// JSON, the same schema, and what Encode must write.
type encodeCase struct {
	name   string
	encode func(memory.Allocator) (arrow.RecordBatch, error)
	decode func(arrow.RecordBatch) (any, error)
	rows   any
	schema *arrow.Schema
	want   string
}

func caseOf[T any](name string, rows []T, schema *arrow.Schema, want string) encodeCase {
	return encodeCase{
		name: name,
		encode: func(mem memory.Allocator) (arrow.RecordBatch, error) {
			return mapper.Encode(rows, mapper.Allocator(mem))
		},
		decode: func(rec arrow.RecordBatch) (any, error) { return mapper.Decode[T](rec) },
		rows:   rows, schema: schema, want: want,
	}
}

func schemaOf(fields ...arrow.Field) *arrow.Schema { return arrow.NewSchema(fields, nil) }

// TestEntriesEncodeToAMapAsTheyAre: a []E tagged map writes a map whose
// entries are the slice's, in order and with every duplicate key, as
// arrow-go reads the same rows from JSON; decoding gives the rows back.
func TestEntriesEncodeToAMapAsTheyAre(t *testing.T) {
	strInt := arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64)
	strList := arrow.MapOf(arrow.BinaryTypes.String, arrow.ListOfField(arrow.Field{Name: "item", Type: arrow.PrimitiveTypes.Int64}))
	tests := []encodeCase{
		caseOf("nulls, empty maps, duplicates and order are kept", []taggedEntries{
			{M: []entry{{"b", i64(3)}, {"a", nil}, {"b", i64(5)}}},
			{M: nil},
			{M: []entry{}},
			{M: []entry{{"z", i64(1)}}},
		}, schemaOf(arrow.Field{Name: "m", Type: strInt, Nullable: true}), `[
			{"m": [{"key": "b", "value": 3}, {"key": "a", "value": null}, {"key": "b", "value": 5}]},
			{"m": null}, {"m": []}, {"m": [{"key": "z", "value": 1}]}]`),
		caseOf("a map of lists keeps its lists", []mapOfLists{
			{M: []listEntry{{"x", []int64{1, 2}}, {"y", nil}, {"x", []int64{}}}},
			{M: []listEntry{}},
		}, schemaOf(arrow.Field{Name: "m", Type: strList, Nullable: true}), `[
			{"m": [{"key": "x", "value": [1, 2]}, {"key": "y", "value": null}, {"key": "x", "value": []}]},
			{"m": []}]`),
		caseOf("a list of maps keeps its maps", []listOfMaps{
			{L: [][]entry{{{"a", i64(1)}, {"a", i64(2)}}, nil, {}}},
			{L: nil},
			{L: [][]entry{{{"c", nil}}}},
		}, schemaOf(arrow.Field{Name: "l", Type: arrow.ListOfField(arrow.Field{Name: "item", Type: strInt, Nullable: true}), Nullable: true}), `[
			{"l": [[{"key": "a", "value": 1}, {"key": "a", "value": 2}], null, []]},
			{"l": null}, {"l": [[{"key": "c", "value": null}]]}]`),
		caseOf("a map inside a struct", []inStruct{
			{S: struct {
				ID int32   `arrow:"id"`
				M  []entry `arrow:"m,map"`
			}{ID: 7, M: []entry{{"q", i64(9)}, {"p", i64(8)}}}},
		}, schemaOf(arrow.Field{Name: "s", Type: arrow.StructOf(
			arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int32},
			arrow.Field{Name: "m", Type: strInt, Nullable: true})}), `[
			{"s": {"id": 7, "m": [{"key": "q", "value": 9}, {"key": "p", "value": 8}]}}]`),
		caseOf("binary keys, empty and repeated, which no Go map takes", []binaryKeys{
			{M: []struct {
				Key   []byte
				Value *string
			}{{[]byte{}, str("empty")}, {[]byte("k"), nil}, {[]byte("k"), str("again")}}},
		}, schemaOf(arrow.Field{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.Binary, arrow.BinaryTypes.String), Nullable: true}), `[
			{"m": [{"key": "", "value": "empty"}, {"key": "aw==", "value": null}, {"key": "aw==", "value": "again"}]}]`),
		caseOf("pointer entries", []pointerEntries{
			{M: []*entry{{"b", i64(2)}, {"a", i64(1)}}}, {M: nil},
		}, schemaOf(arrow.Field{Name: "m", Type: strInt, Nullable: true}), `[
			{"m": [{"key": "b", "value": 2}, {"key": "a", "value": 1}]}, {"m": null}]`),
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			want, _, err := array.RecordFromJSON(mem, tt.schema, strings.NewReader(tt.want))
			require.NoError(t, err)
			defer want.Release()
			got, err := tt.encode(mem)
			require.NoError(t, err)
			defer got.Release()
			require.True(t, got.Schema().Equal(tt.schema), "schema\n%s\nwant\n%s", got.Schema(), tt.schema)
			require.True(t, array.RecordEqual(want, got), "got\n%v\nwant\n%v", got, want)
			back, err := tt.decode(got)
			require.NoError(t, err)
			assert.Equal(t, tt.rows, back)
			// Windows of the encoded record decode to the rows they hold.
			n := int(got.NumRows())
			for i := 0; i < n; i++ {
				for j := i + 1; j <= n; j++ {
					w := got.NewSlice(int64(i), int64(j))
					part, err := tt.decode(w)
					w.Release()
					require.NoError(t, err, "rows [%d, %d)", i, j)
					assert.Equal(t, sliceOf(tt.rows, i, j), part, "rows [%d, %d)", i, j)
				}
			}
		})
	}
}

// sliceOf is rows[i:j] for a slice of any type.
func sliceOf(rows any, i, j int) any {
	switch r := rows.(type) {
	case []taggedEntries:
		return r[i:j]
	case []mapOfLists:
		return r[i:j]
	case []listOfMaps:
		return r[i:j]
	case []inStruct:
		return r[i:j]
	case []binaryKeys:
		return r[i:j]
	case []pointerEntries:
		return r[i:j]
	}
	panic("sliceOf: add the type")
}

// TestEncodedEntriesReadThroughArrowGosMapAccessors checks the encoded
// array with arrow-go's own accessors: offsets, keys and items as the
// rows have them, the entries never null.
func TestEncodedEntriesReadThroughArrowGosMapAccessors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rows := []taggedEntries{
		{M: []entry{{"b", i64(3)}, {"a", nil}, {"b", i64(5)}}},
		{M: nil},
		{M: []entry{}},
		{M: []entry{{"z", i64(1)}}},
	}
	rec, err := mapper.Encode(rows, mapper.Allocator(mem))
	require.NoError(t, err)
	defer rec.Release()
	m := rec.Column(0).(*array.Map)
	assert.Equal(t, []int32{0, 3, 3, 3, 4}, m.Offsets())
	assert.Equal(t, []bool{false, true, false, false}, []bool{m.IsNull(0), m.IsNull(1), m.IsNull(2), m.IsNull(3)})
	keys := m.Keys().(*array.String)
	items := m.Items().(*array.Int64)
	require.Equal(t, 4, keys.Len())
	var gotKeys []string
	var gotItems []*int64
	for i := range keys.Len() {
		gotKeys = append(gotKeys, keys.Value(i))
		if items.IsNull(i) {
			gotItems = append(gotItems, nil)
		} else {
			gotItems = append(gotItems, i64(items.Value(i)))
		}
	}
	assert.Equal(t, []string{"b", "a", "b", "z"}, gotKeys)
	assert.Equal(t, []*int64{i64(3), nil, i64(5), i64(1)}, gotItems)
	assert.Zero(t, m.ListValues().NullN(), "entries are never null")
	assert.Zero(t, keys.NullN())
	mt := m.DataType().(*arrow.MapType)
	assert.False(t, mt.KeysSorted)
	assert.Equal(t, "key", mt.KeyField().Name)
	assert.Equal(t, "value", mt.ItemField().Name)
	assert.False(t, mt.KeyField().Nullable)
	assert.True(t, mt.ItemField().Nullable)
	schema, err := mapper.SchemaOf[taggedEntries]()
	require.NoError(t, err)
	assert.True(t, schema.Equal(rec.Schema()), "SchemaOf gives the type Encode writes")

	// Typed columns read the encoded map.
	cols, err := mapper.Columns[struct {
		M views.MapColumn[views.StringColumn, views.PrimitiveColumn[int64]] `arrow:"m,nullable" arrow-value:"nullable"`
	}](rec)
	require.NoError(t, err)
	first := cols.M.Value(0)
	assert.Equal(t, 3, first.Keys.Len())
	assert.Equal(t, "a", first.Keys.Value(1))
	assert.Equal(t, int64(5), first.Values.Value(2))
	assert.True(t, cols.M.IsNull(1))
}

func TestEntriesWithoutTheMapTagAreAListOfStructs(t *testing.T) {
	schema, err := mapper.SchemaOf[orderedMap]()
	require.NoError(t, err)
	want := arrow.ListOfField(arrow.Field{Name: "item", Type: arrow.StructOf(
		arrow.Field{Name: "key", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "value", Type: arrow.PrimitiveTypes.Int64, Nullable: true})})
	assert.True(t, arrow.TypeEqual(want, schema.Field(0).Type), "got %s", schema.Field(0).Type)
}

func TestEntriesRefuse(t *testing.T) {
	type ptrKey struct {
		Key   *string
		Value int64
	}
	tests := []struct {
		name   string
		encode func() error
		kind   error
		row    int
		path   string
		detail string
	}{
		{"a nil pointer key, naming the row and the key", func() error {
			_, err := mapper.Encode([]struct {
				M []ptrKey `arrow:"m,map"`
			}{{M: []ptrKey{{str("a"), 1}}}, {M: []ptrKey{{str("b"), 2}, {nil, 3}}}})
			return err
		}, mapper.ErrNull, 1, "M[].Key", "map keys cannot be null"},
		{"a nil binary key", func() error {
			_, err := mapper.Encode([]binaryKeys{{M: []struct {
				Key   []byte
				Value *string
			}{{nil, nil}}}})
			return err
		}, mapper.ErrNull, 0, "M[].Key", "map keys cannot be null"},
		{"a nil entry", func() error {
			_, err := mapper.Encode([]pointerEntries{{M: nil}, {M: []*entry{{"a", nil}, nil}}})
			return err
		}, mapper.ErrNull, 1, "M[]", "a map's entries cannot be null"},
		{"fields not named key and value", func() error {
			_, err := mapper.SchemaOf[struct {
				M []struct {
					K string
					V int64
				} `arrow:"m,map"`
			}]()
			return err
		}, mapper.ErrTag, -1, "M[]", "name them key and value"},
		{"a tag name in another case", func() error {
			_, err := mapper.SchemaOf[struct {
				M []struct {
					Key   string `arrow:"KEY"`
					Value int64
				} `arrow:"m,map"`
			}]()
			return err
		}, mapper.ErrTag, -1, "M[]", "name them key and value"},
		{"a nullable key", func() error {
			_, err := mapper.SchemaOf[struct {
				M []struct {
					Key   string `arrow:"key,nullable"`
					Value int64
				} `arrow:"m,map"`
			}]()
			return err
		}, mapper.ErrTag, -1, "M[].Key", "map keys cannot be nullable"},
		{"map on a slice of numbers", func() error {
			_, err := mapper.SchemaOf[struct {
				M []int64 `arrow:"m,map"`
			}]()
			return err
		}, mapper.ErrTag, -1, "M", "map does not apply to []int64"},
		{"large on entries", func() error {
			_, err := mapper.SchemaOf[struct {
				M []entry `arrow:"m,map,large"`
			}]()
			return err
		}, mapper.ErrTag, -1, "M", `"large": conflicts with "map"`},
		{"keys_sorted with a row out of order", func() error {
			_, err := mapper.Encode([]struct {
				M []entry `arrow:"m,map,keys_sorted"`
			}{{M: []entry{{"a", nil}, {"a", nil}, {"b", nil}}}, {M: []entry{{"b", nil}, {"a", nil}}}})
			return err
		}, mapper.ErrInvalidData, 1, "M[].Key", "entry 1's key is less than the one before"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.encode()
			require.ErrorIs(t, err, tt.kind)
			var me *mapper.Error
			require.ErrorAs(t, err, &me)
			assert.Equal(t, tt.row, me.Row)
			assert.Equal(t, tt.path, me.Path)
			assert.Contains(t, err.Error(), tt.detail)
		})
	}
}

func TestKeysSortedIsWrittenAndChecked(t *testing.T) {
	type sorted struct {
		M []entry           `arrow:"m,map,keys_sorted"`
		G map[string]*int64 `arrow:"g,map,keys_sorted"`
	}
	rows := []sorted{{M: []entry{{"a", i64(1)}, {"a", i64(2)}, {"c", nil}}, G: map[string]*int64{"y": nil, "x": i64(1)}}}
	rec, err := mapper.Encode(rows)
	require.NoError(t, err)
	defer rec.Release()
	for i := range 2 {
		assert.True(t, rec.Schema().Field(i).Type.(*arrow.MapType).KeysSorted, rec.Schema().Field(i).Name)
	}
	back, err := mapper.Decode[sorted](rec)
	require.NoError(t, err)
	assert.Equal(t, rows, back)
	schema, err := mapper.SchemaOf[sorted]()
	require.NoError(t, err)
	assert.True(t, schema.Equal(rec.Schema()))
}

// TestIntegrationMapFilesRoundTripExactly: Arrow C++'s map files, the one
// with non-canonical field names too (arrow-go's reader names them
// entries, key and value), through GoTypeOf, Decode and Encode, are the
// records read.
func TestIntegrationMapFilesRoundTripExactly(t *testing.T) {
	for _, name := range []string{"generated_map", "generated_map_non_canonical"} {
		t.Run(name, func(t *testing.T) {
			schema, recs := readIntegrationFile(t, integrationDir+"/"+name+".arrow_file")
			defer func() {
				for _, r := range recs {
					r.Release()
				}
			}()
			require.NotEmpty(t, recs)
			typ, err := mapper.GoTypeOf(schema)
			require.NoError(t, err)
			for i, rec := range recs {
				rows, err := mapper.DecodeTo(typ, rec)
				require.NoError(t, err, "record %d", i)
				mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
				again, err := mapper.EncodeTo(rows, mapper.Allocator(mem))
				require.NoError(t, err, "record %d", i)
				assert.True(t, again.Schema().Equal(rec.Schema()), "record %d: schema\n%s\nwant\n%s", i, again.Schema(), rec.Schema())
				assert.True(t, array.RecordEqual(rec, again), "record %d: re-encoded\n%v\nwant\n%v", i, again, rec)
				again.Release()
				mem.AssertSize(t, 0)
			}
		})
	}
}

type encMapRow struct{ M map[string]int32 }

func TestEncodeSortsMapEntriesByKey(t *testing.T) {
	m := map[string]int32{}
	for i := range 50 {
		m[fmt.Sprintf("k%02d", 49-i)] = int32(i)
	}
	rec, err := mapper.Encode([]encMapRow{{m}, {nil}, {map[string]int32{}}})
	require.NoError(t, err)
	defer rec.Release()
	col := rec.Column(0).(*array.Map)
	keys := col.Keys().(*array.String)
	for i := 1; i < keys.Len(); i++ {
		require.Less(t, keys.Value(i-1), keys.Value(i))
	}
	assert.True(t, col.IsNull(1))
	assert.True(t, col.IsValid(2))
	again, err := mapper.Encode([]encMapRow{{m}, {nil}, {map[string]int32{}}})
	require.NoError(t, err)
	defer again.Release()
	assert.True(t, array.RecordEqual(rec, again), "equal maps encode equally")
}

// A map of float16.Num keys writes them in the order of their values, as a
// map of float32 keys does: not in that of their bits, which put the
// negative ones last.
func TestFloat16KeysAreWrittenInTheOrderOfTheirValues(t *testing.T) {
	type row struct {
		M map[float16.Num]int32 `arrow:"m"`
	}
	keys := []float32{1, -2, 0.5, -0.25, 0, 65504, -65504}
	m := map[float16.Num]int32{}
	for i, k := range keys {
		m[float16.New(k)] = int32(i)
	}
	rec, err := mapper.Encode([]row{{M: m}})
	require.NoError(t, err)
	defer rec.Release()
	got := rec.Column(0).(*array.Map).Keys().(*array.Float16)
	var order []float32
	for i := range got.Len() {
		order = append(order, got.Value(i).Float32())
	}
	assert.Equal(t, []float32{-65504, -2, -0.25, 0, 0.5, 1, 65504}, order)
}
