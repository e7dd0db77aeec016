package mapper_test

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

func TestDecodeMaps(t *testing.T) {
	fxRun(t, []fxCase{
		{"map<utf8, int64> decodes into map[string]int64", func(t *testing.T, mem memory.Allocator) {
			dt := arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64)
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, `[
				[{"key": "a", "value": 1}, {"key": "b", "value": 2}],
				[],
				null,
				[{"key": "c", "value": -3}],
				[{"key": "a", "value": 4}, {"key": "a long key, past twelve bytes", "value": 5}]]`)})
			defer rec.Release()
			require.Equal(t, []fxMapRow{
				{map[string]int64{"a": 1, "b": 2}},
				{map[string]int64{}},
				{nil},
				{map[string]int64{"c": -3}},
				{map[string]int64{"a": 4, "a long key, past twelve bytes": 5}},
			}, fxDecodeAll[fxMapRow](t, rec))
		}},
		{"map<utf8, list<int64>> decodes into map[string][]int64", func(t *testing.T, mem memory.Allocator) {
			dt := arrow.MapOf(arrow.BinaryTypes.String, arrow.ListOf(arrow.PrimitiveTypes.Int64))
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, `[
				[{"key": "a", "value": [1, 2]}, {"key": "b", "value": []}],
				null,
				[{"key": "c", "value": null}],
				[],
				[{"key": "d", "value": [3]}]]`)})
			defer rec.Release()
			require.Equal(t, []fxMapListRow{
				{map[string][]int64{"a": {1, 2}, "b": {}}},
				{nil},
				{map[string][]int64{"c": nil}},
				{map[string][]int64{}},
				{map[string][]int64{"d": {3}}},
			}, fxDecodeAll[fxMapListRow](t, rec))
		}},
	})
}

type fxMapRow struct {
	V map[string]int64 `arrow:"v"`
}

type fxMapListRow struct {
	V map[string][]int64 `arrow:"v"`
}

// TestEntriesTaggedMapReadOnlyAMapUnderStrict: the map pin, and Strict,
// keep the entries shape to map columns; a list of the same structs is
// another type.
func TestEntriesTaggedMapReadOnlyAMapUnderStrict(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rows := []taggedEntries{{M: []entry{{"b", i64(3)}, {"b", nil}}}, {M: nil}}
	maps, err := mapper.Encode(rows, mapper.Allocator(mem))
	require.NoError(t, err)
	defer maps.Release()
	lists, err := mapper.Encode([]orderedMap{{M: []entry{{"b", i64(3)}}}}, mapper.Allocator(mem))
	require.NoError(t, err)
	defer lists.Release()

	got, err := mapper.Decode[taggedEntries](maps, mapper.Strict())
	require.NoError(t, err)
	assert.Equal(t, rows, got)
	got2, err := mapper.Decode[orderedMap](maps, mapper.Strict())
	require.NoError(t, err, "untagged entries read a map under Strict too")
	assert.Equal(t, []orderedMap{{M: rows[0].M}, {M: nil}}, got2)

	for _, opts := range [][]mapper.ReadOption{nil, {mapper.Strict()}} {
		_, err = mapper.Decode[taggedEntries](lists, opts...)
		require.ErrorIs(t, err, mapper.ErrTypeMismatch, "the map pin reads no list")
	}
	_, err = mapper.Decode[orderedMap](lists, mapper.Strict())
	require.NoError(t, err, "untagged, they are a list of structs")
}

type entry struct {
	Key   string `arrow:"key"`
	Value *int64 `arrow:"value"`
}

type orderedMap struct {
	M []entry `arrow:"m"`
}

func i64(v int64) *int64 { return &v }

// TestAMapDecodesIntoItsEntriesInOrder: a slice of key/value structs reads
// a map's entries as they are stored, in order and with every duplicate
// key, so nothing a Go map would drop is lost.
func TestAMapDecodesIntoItsEntriesInOrder(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dt := arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64)
	schema := arrow.NewSchema([]arrow.Field{{Name: "m", Type: dt, Nullable: true}}, nil)
	rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(`[
		{"m": [{"key": "b", "value": 3}, {"key": "a", "value": null}, {"key": "b", "value": 5}]},
		{"m": null},
		{"m": []},
		{"m": [{"key": "z", "value": 1}]}]`))
	require.NoError(t, err)
	defer rec.Release()
	want := []orderedMap{
		{M: []entry{{"b", i64(3)}, {"a", nil}, {"b", i64(5)}}},
		{M: nil},
		{M: []entry{}},
		{M: []entry{{"z", i64(1)}}},
	}
	got, err := mapper.Decode[orderedMap](rec)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	for i := 0; i <= len(want); i++ {
		for j := i; j <= len(want); j++ {
			window := rec.NewSlice(int64(i), int64(j))
			got, err := mapper.Decode[orderedMap](window)
			window.Release()
			require.NoError(t, err, "rows [%d, %d)", i, j)
			require.Len(t, got, j-i)
			if j > i {
				assert.Equal(t, want[i:j], got, "rows [%d, %d)", i, j)
			}
		}
	}
	// The same column into a Go map is refused for the duplicate key: the
	// entries are the shape that holds it.
	_, err = mapper.Decode[struct {
		M map[string]*int64 `arrow:"m"`
	}](rec)
	require.ErrorIs(t, err, mapper.ErrDuplicateKey)
}

func TestMapEntriesNeedAKeyAndAValueByName(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dt := arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64)
	schema := arrow.NewSchema([]arrow.Field{{Name: "m", Type: dt, Nullable: true}}, nil)
	rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(`[{"m": [{"key": "b", "value": 3}]}]`))
	require.NoError(t, err)
	defer rec.Release()
	type wrongNames struct {
		K string `arrow:"k"`
		V int64  `arrow:"value"`
	}
	_, err = mapper.Decode[struct {
		M []wrongNames `arrow:"m"`
	}](rec)
	require.ErrorIs(t, err, mapper.ErrMissingColumn)
	assert.Contains(t, err.Error(), `"m.entries.k"`)
	type nonNullValue struct {
		Key   string
		Value int64 // no null in the data: decodes
	}
	got, err := mapper.Decode[struct {
		M []nonNullValue `arrow:"m"`
	}](rec)
	require.NoError(t, err)
	assert.Equal(t, []nonNullValue{{"b", 3}}, got[0].M)
}

func TestDuplicateMapKeysAreAnError(t *testing.T) {
	strMap := arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64)
	rows := `[
		[{"key": "a", "value": 1}, {"key": "b", "value": 2}],
		null,
		[{"key": "b", "value": 3}, {"key": "a", "value": 4}, {"key": "b", "value": 5}],
		[{"key": "a", "value": 6}]]`
	fxRun(t, []fxCase{
		{"a string key twice in a row is ErrDuplicateKey naming the row and the key", func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, strMap, rows)})
			defer rec.Release()
			for _, opts := range [][]mapper.ReadOption{nil, {mapper.Strict()}, {mapper.ZeroCopy()}} {
				_, err := mapper.Decode[dupStringKeys](rec, opts...)
				fxRequireError(t, err, mapper.ErrDuplicateKey, "V", "v", 2)
				require.ErrorContains(t, err, `key "b" twice`)
			}
		}},
		{"LastKeyWins keeps the last entry of a key, as a map assignment would", func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, strMap, rows)})
			defer rec.Release()
			require.Equal(t, []dupStringKeys{{map[string]int64{"a": 1, "b": 2}}, {nil}, {map[string]int64{"a": 4, "b": 5}}, {map[string]int64{"a": 6}}},
				decodeOK[dupStringKeys](t, rec, mapper.LastKeyWins()))
		}},
		{"an integer key twice is ErrDuplicateKey too", func(t *testing.T, mem memory.Allocator) {
			dt := arrow.MapOf(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String)
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, `[
				[{"key": 1, "value": "x"}],
				[{"key": 7, "value": "x"}, {"key": 8, "value": "y"}, {"key": 7, "value": "z"}]]`)})
			defer rec.Release()
			_, err := mapper.Decode[dupIntKeys](rec)
			fxRequireError(t, err, mapper.ErrDuplicateKey, "V", "v", 1)
			require.ErrorContains(t, err, "key 7 twice")
		}},
		{"equal keys in different rows are fine, and so are distinct keys that share a prefix", func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, strMap, `[
				[{"key": "a", "value": 1}, {"key": "ab", "value": 2}],
				[{"key": "a", "value": 3}, {"key": "ab", "value": 4}]]`)})
			defer rec.Release()
			require.Equal(t, []dupStringKeys{{map[string]int64{"a": 1, "ab": 2}}, {map[string]int64{"a": 3, "ab": 4}}}, decodeOK[dupStringKeys](t, rec))
		}},
		{"a map in a struct or in a list names the record's row, and the rows before it come with the error", func(t *testing.T, mem memory.Allocator) {
			st := arrow.StructOf(arrow.Field{Name: "m", Type: strMap})
			rec := fxRecord(t, fxCol{"s", fxJSON(t, mem, st, `[{"m": []}, {"m": [{"key": "k", "value": 1}, {"key": "k", "value": 2}]}]`)})
			defer rec.Release()
			_, err := mapper.Decode[dupInStruct](rec)
			fxRequireError(t, err, mapper.ErrDuplicateKey, "S.M", "s.m", 1)

			lists := fxRecord(t, fxCol{"v", fxJSON(t, mem, arrow.ListOf(strMap), `[[[]], [[{"key": "k", "value": 1}], [{"key": "k", "value": 1}, {"key": "k", "value": 2}]]]`)})
			defer lists.Release()
			rows, err := mapper.Decode[dupInList](lists)
			fxRequireError(t, err, mapper.ErrDuplicateKey, "V[]", "v.item", 1)
			require.Len(t, rows, 1)
			require.Len(t, rows[0].V, 1)
			require.Empty(t, rows[0].V[0])
		}},
		{"the entries of a null map row are not its keys", func(t *testing.T, mem memory.Allocator) {
			// Row 1 is null but its offsets span two entries of one key.
			keys := fxJSON(t, mem, arrow.BinaryTypes.String, `["a", "k", "k", "b"]`)
			defer keys.Release()
			items := fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1, 2, 3, 4]`)
			defer items.Release()
			entries := array.NewData(strMap.Elem(), 4, []*memory.Buffer{nil}, []arrow.ArrayData{keys.Data(), items.Data()}, 0, 0)
			defer entries.Release()
			offsets := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 1, 3, 4}))
			validity := memory.NewBufferBytes([]byte{0b101})
			data := array.NewData(strMap, 3, []*memory.Buffer{validity, offsets}, []arrow.ArrayData{entries}, 1, 0)
			defer data.Release()
			m := array.NewMapData(data)
			rec := fxRecord(t, fxCol{"v", m})
			defer rec.Release()
			require.Equal(t, []dupStringKeys{{map[string]int64{"a": 1}}, {nil}, {map[string]int64{"b": 4}}}, decodeOK[dupStringKeys](t, rec))
		}},
	})
}

type dupStringKeys struct {
	V map[string]int64 `arrow:"v"`
}

type dupIntKeys struct {
	V map[int32]string `arrow:"v"`
}

type dupInList struct {
	V []map[string]int64 `arrow:"v"`
}

type dupInStruct struct {
	S struct {
		M map[string]int64 `arrow:"m"`
	} `arrow:"s"`
}
