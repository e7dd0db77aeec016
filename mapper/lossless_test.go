package mapper_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/views"
	"github.com/stretchr/testify/require"
)

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

type badTagRow struct {
	ID       int64 `arrow:"id"`
	Customer struct {
		Name string `arrow:"name,bogus"`
	} `arrow:"customer"`
}

type badTagColumns struct {
	ID       views.PrimitiveColumn[int64] `arrow:"id"`
	Customer struct {
		Name views.StringColumn `arrow:"name,bogus"`
	} `arrow:"customer"`
}

func TestABadTagHasOnePathThroughEveryEntryPoint(t *testing.T) {
	schema := fxSchema("id", arrow.PrimitiveTypes.Int64, "customer", arrow.StructOf(arrow.Field{Name: "name", Type: arrow.BinaryTypes.String}))
	_, decodeErr := mapper.New[badTagRow](schema)
	_, columnsErr := mapper.Columns[badTagColumns](array.NewRecordBatch(schema, []arrow.Array{
		fxJSON(t, memory.DefaultAllocator, arrow.PrimitiveTypes.Int64, `[]`),
		fxJSON(t, memory.DefaultAllocator, schema.Field(1).Type, `[]`)}, 0))
	_, schemaErr := mapper.SchemaOf[badTagRow]()
	_, encodeErr := mapper.Encode([]badTagRow{{}})
	for name, err := range map[string]error{"New": decodeErr, "Columns": columnsErr, "SchemaOf": schemaErr, "Encode": encodeErr} {
		me := fxRequireError(t, err, mapper.ErrTag, "Customer.Name", "", -1)
		require.ErrorContains(t, me, "bogus", name)
		require.Equal(t, decodeErr.Error(), err.Error(), name)
	}
}

// decodeOK is Decode of rec, which must succeed.
func decodeOK[T any](t *testing.T, rec arrow.RecordBatch, opts ...mapper.ReadOption) []T {
	t.Helper()
	rows, err := mapper.Decode[T](rec, opts...)
	require.NoError(t, err)
	return rows
}
