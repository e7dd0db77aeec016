package mapper_test

import (
	"errors"
	"net/netip"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/require"
)

// The Go types of the error tests: a struct three levels deep, a list of
// structs, a list of scores and a map.

type errOwner struct {
	Age  int32  `arrow:"age"`
	Name string `arrow:"name"`
}

type errMeta struct {
	Owner errOwner `arrow:"owner"`
}

type errDeep struct {
	Meta errMeta `arrow:"meta"`
}

type errItem struct {
	SKU string `arrow:"sku"`
}

type errItems struct {
	Items []errItem `arrow:"items"`
}

type errScores struct {
	Scores []int64 `arrow:"scores"`
}

type errAttrs struct {
	Attrs map[string]int32 `arrow:"attrs"`
}

func errOwnerOf(age arrow.DataType) arrow.DataType {
	return arrow.StructOf(
		arrow.Field{Name: "owner", Type: arrow.StructOf(
			arrow.Field{Name: "age", Type: age},
			arrow.Field{Name: "name", Type: arrow.BinaryTypes.String}),
		})
}

// fxNewErr is the error of New[T] for schema.
func fxNewErr[T any](schema *arrow.Schema, opts ...mapper.ReadOption) error {
	_, err := mapper.New[T](schema, opts...)
	return err
}

func TestErrorsAtNew(t *testing.T) {
	type node struct {
		Name     string `arrow:"name"`
		Children []node `arrow:"children"`
	}
	type linked struct {
		Name string  `arrow:"name"`
		Next *linked `arrow:"next"`
	}
	leaf := arrow.StructOf(arrow.Field{Name: "name", Type: arrow.BinaryTypes.String})
	tree := arrow.StructOf(
		arrow.Field{Name: "name", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "children", Type: arrow.ListOf(leaf)})
	tests := []struct {
		name                 string
		err                  error
		kind                 error
		path, column, inText string
	}{
		{
			name: "a wrong type three levels deep names the Go path and the Arrow path",
			err:  fxNewErr[errDeep](fxSchema("meta", errOwnerOf(arrow.BinaryTypes.String))),
			kind: mapper.ErrTypeMismatch, path: "Meta.Owner.Age", column: "meta.owner.age",
		},
		{
			name: "a wrong type in a list of structs names the element",
			err: fxNewErr[errItems](fxSchema("items", arrow.ListOf(arrow.StructOf(
				arrow.Field{Name: "sku", Type: arrow.PrimitiveTypes.Int64})))),
			kind: mapper.ErrTypeMismatch, path: "Items[].SKU", column: "items.item.sku",
		},
		{
			name: "a wrong type in a large_list_view of structs names the element by its field name",
			err: fxNewErr[errItems](fxSchema("items", arrow.LargeListViewOfField(arrow.Field{Name: "entry", Nullable: true,
				Type: arrow.StructOf(arrow.Field{Name: "sku", Type: arrow.FixedWidthTypes.Boolean})}))),
			kind: mapper.ErrTypeMismatch, path: "Items[].SKU", column: "items.entry.sku",
		},
		{
			name: "an int64 column does not narrow into an int32 field",
			err:  fxNewErr[errDeep](fxSchema("meta", errOwnerOf(arrow.PrimitiveTypes.Int64))),
			kind: mapper.ErrTypeMismatch, path: "Meta.Owner.Age", column: "meta.owner.age",
		},
		{
			name: "a uint32 column does not fit an int32 field",
			err:  fxNewErr[fxCell[int32]](fxSchema("v", arrow.PrimitiveTypes.Uint32)),
			kind: mapper.ErrTypeMismatch, path: "V", column: "v",
		},
		{
			name: "a float column does not decode into an integer field",
			err:  fxNewErr[fxCell[int64]](fxSchema("v", arrow.PrimitiveTypes.Float64)),
			kind: mapper.ErrTypeMismatch, path: "V", column: "v",
		},
		{
			name: "an integer column does not decode into a float field",
			err:  fxNewErr[fxCell[float64]](fxSchema("v", arrow.PrimitiveTypes.Int32)),
			kind: mapper.ErrTypeMismatch, path: "V", column: "v",
		},
		{
			name: "a map value of the wrong type names the value",
			err:  fxNewErr[errAttrs](fxSchema("attrs", arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64))),
			kind: mapper.ErrTypeMismatch, path: "Attrs[value]", column: "attrs.entries.value",
		},
		{
			name: "a map key of the wrong type names the key",
			err:  fxNewErr[errAttrs](fxSchema("attrs", arrow.MapOf(arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int32))),
			kind: mapper.ErrTypeMismatch, path: "Attrs[key]", column: "attrs.entries.key",
		},
		{
			name: "a list column does not decode into a map field",
			err:  fxNewErr[errAttrs](fxSchema("attrs", arrow.ListOf(arrow.PrimitiveTypes.Int32))),
			kind: mapper.ErrTypeMismatch, path: "Attrs", column: "attrs",
		},
		{
			name: "a missing column names the field and the column it looked for",
			err:  fxNewErr[errDeep](fxSchema("other", arrow.PrimitiveTypes.Int64)),
			kind: mapper.ErrMissingColumn, path: "Meta", column: "meta",
		},
		{
			name: "a missing struct field names its full path",
			err: fxNewErr[errDeep](fxSchema("meta", arrow.StructOf(arrow.Field{Name: "owner", Type: arrow.StructOf(
				arrow.Field{Name: "age", Type: arrow.PrimitiveTypes.Int32})}))),
			kind: mapper.ErrMissingColumn, path: "Meta.Owner.Name", column: "meta.owner.name",
		},
		{
			name: "an unknown tag option is a tag error naming the field",
			err: fxNewErr[struct {
				ID   int64 `arrow:"id"`
				Name int64 `arrow:"name,nulable"`
			}](fxSchema("id", arrow.PrimitiveTypes.Int64, "name", arrow.PrimitiveTypes.Int64)),
			kind: mapper.ErrTag, path: "Name", inText: "nulable",
		},
		{
			name: "an unknown arrow-elem option in a nested struct is a tag error naming the field",
			err: fxNewErr[struct {
				Meta struct {
					Tags []string `arrow:"tags" arrow-elem:"bogus"`
				} `arrow:"meta"`
			}](fxSchema("meta", arrow.StructOf(arrow.Field{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String)}))),
			kind: mapper.ErrTag, path: "Meta.Tags", inText: "bogus",
		},
		{
			name: "a channel field is unsupported",
			err: fxNewErr[struct {
				C chan int `arrow:"c"`
			}](fxSchema("c", arrow.PrimitiveTypes.Int64)),
			kind: mapper.ErrUnsupported, path: "C", column: "c",
		},
		{
			name: "a func field is unsupported",
			err: fxNewErr[struct {
				F func() `arrow:"f"`
			}](fxSchema("f", arrow.PrimitiveTypes.Int64)),
			kind: mapper.ErrUnsupported, path: "F", column: "f",
		},
		{
			name: "a complex128 field is unsupported",
			err: fxNewErr[struct {
				Z complex128 `arrow:"z"`
			}](fxSchema("z", arrow.PrimitiveTypes.Float64)),
			kind: mapper.ErrUnsupported, path: "Z", column: "z",
		},
		{
			name: "an interface field is unsupported",
			err: fxNewErr[struct {
				A any `arrow:"a"`
			}](fxSchema("a", arrow.PrimitiveTypes.Float64)),
			kind: mapper.ErrUnsupported, path: "A", column: "a",
		},
		{
			name: "a recursive struct through a slice is unsupported, not a stack overflow",
			err:  fxNewErr[node](fxSchema("name", arrow.BinaryTypes.String, "children", arrow.ListOf(tree))),
			kind: mapper.ErrUnsupported, path: "Children[]", column: "children.item",
		},
		{
			name: "a recursive struct through a pointer is unsupported",
			err: fxNewErr[linked](fxSchema("name", arrow.BinaryTypes.String, "next", arrow.StructOf(
				arrow.Field{Name: "name", Type: arrow.BinaryTypes.String},
				arrow.Field{Name: "next", Type: leaf}))),
			kind: mapper.ErrUnsupported, path: "Next", column: "next",
		},
		{
			name: "a row type that is not a struct is unsupported",
			err:  fxNewErr[int64](fxSchema("v", arrow.PrimitiveTypes.Int64)),
			kind: mapper.ErrUnsupported,
		},
		{
			name: "a dictionary column under Strict without a dict tag is a type mismatch",
			err: fxNewErr[fxCell[string]](fxSchema("v", &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}),
				mapper.Strict()),
			kind: mapper.ErrTypeMismatch, path: "V", column: "v",
		},
		{
			name: "a tag pinning large_utf8 rejects a utf8 column",
			err: fxNewErr[struct {
				V string `arrow:"v,large_utf8"`
			}](fxSchema("v", arrow.BinaryTypes.String)),
			kind: mapper.ErrTypeMismatch, path: "V", column: "v",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			me := fxRequireError(t, tc.err, tc.kind, tc.path, tc.column, -1)
			for _, other := range []error{mapper.ErrTypeMismatch, mapper.ErrNull, mapper.ErrMissingColumn, mapper.ErrInvalidData,
				mapper.ErrUnsupported, mapper.ErrTag, mapper.ErrOverflow} {
				if other != tc.kind {
					require.NotErrorIs(t, tc.err, other)
				}
			}
			require.Contains(t, me.Error(), tc.inText)
			if tc.path != "" {
				require.Contains(t, me.Error(), "field "+tc.path)
			}
		})
	}
}

// errScoresRecord is ten rows of scores whose row 7 holds a null element.
// Row 2 is a null list over a null element, which no row reaches.
func errScoresRecord(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
	child := fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1, 2, null, 3, 4, 5, 6, 7, 8, null, 9, 10]`)
	defer child.Release()
	// Rows: [1 2] [] null→[null] [3] [4] [5] [6] [7 8 null] [9] [10]
	offsets := arrow.Int32Traits.CastToBytes([]int32{0, 2, 2, 3, 4, 5, 6, 7, 10, 11, 12})
	data := array.NewData(arrow.ListOf(arrow.PrimitiveTypes.Int64), 10,
		[]*memory.Buffer{memory.NewBufferBytes([]byte{0b11111011, 0b11}), memory.NewBufferBytes(offsets)},
		[]arrow.ArrayData{child.Data()}, 1, 0)
	defer data.Release()
	return fxRecord(t, fxCol{"scores", array.MakeFromData(data)})
}

func TestErrorsAtView(t *testing.T) {
	fxRun(t, []fxCase{
		{"a null element of a list names the element, its column and the first row that reaches it", func(t *testing.T, mem memory.Allocator) {
			rec := errScoresRecord(t, mem)
			defer rec.Release()
			m, err := mapper.New[errScores](rec.Schema())
			require.NoError(t, err)
			_, err = m.View(rec)
			fxRequireError(t, err, mapper.ErrNull, "Scores[]", "scores.item", 7)
			require.Contains(t, err.Error(), `field Scores[], column "scores.item", row 7`)
			_, err = m.Decode(rec)
			fxRequireError(t, err, mapper.ErrNull, "Scores[]", "scores.item", 7)

			sliced := rec.NewSlice(5, 10)
			defer sliced.Release()
			_, err = m.View(sliced)
			fxRequireError(t, err, mapper.ErrNull, "Scores[]", "scores.item", 2)

			head := rec.NewSlice(0, 7)
			defer head.Release()
			rows, err := m.Decode(head)
			require.NoError(t, err, "the null under the null row 2 is not reachable")
			require.Equal(t, []errScores{{[]int64{1, 2}}, {[]int64{}}, {nil}, {[]int64{3}}, {[]int64{4}}, {[]int64{5}}, {[]int64{6}}}, rows)
		}},
		{"a null in a column that is not nullable names the row", func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1, 2, 3, null, 5]`)})
			defer rec.Release()
			_, err := mapper.Decode[fxCell[int64]](rec)
			fxRequireError(t, err, mapper.ErrNull, "V", "v", 3)
		}},
		{"a null in a struct field three levels deep names its path", func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"meta", fxJSON(t, mem, errOwnerOf(arrow.PrimitiveTypes.Int32), `[
				{"owner": {"age": 1, "name": "a"}},
				{"owner": {"age": 2, "name": "b"}},
				{"owner": {"age": null, "name": "c"}},
				{"owner": {"age": 4, "name": "d"}}]`)})
			defer rec.Release()
			_, err := mapper.Decode[errDeep](rec)
			fxRequireError(t, err, mapper.ErrNull, "Meta.Owner.Age", "meta.owner.age", 2)
		}},
		{"a null map value names the value", func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"attrs", fxJSON(t, mem, arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), `[
				[{"key": "a", "value": 1}],
				[],
				[{"key": "b", "value": 2}, {"key": "c", "value": null}],
				null]`)})
			defer rec.Release()
			_, err := mapper.Decode[errAttrs](rec)
			fxRequireError(t, err, mapper.ErrNull, "Attrs[value]", "attrs.entries.value", 2)
		}},
		{"a null in a list of structs names the element's field", func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"items", fxJSON(t, mem, arrow.ListOf(arrow.StructOf(arrow.Field{Name: "sku", Type: arrow.BinaryTypes.String, Nullable: true})), `[
				[{"sku": "a"}], [], [{"sku": "b"}], [{"sku": "c"}, {"sku": null}]]`)})
			defer rec.Release()
			_, err := mapper.Decode[errItems](rec)
			fxRequireError(t, err, mapper.ErrNull, "Items[].SKU", "items.item.sku", 3)
		}},
		{"a duration that overflows is ErrOverflow naming its row", func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, arrow.FixedWidthTypes.Duration_s, `[0, 1, 2, 3, 4, 5, 100000000000]`)},
				fxCol{"p", fxJSON(t, mem, arrow.FixedWidthTypes.Duration_s, `[0, 1, 2, 3, 4, 5, 6]`)})
			defer rec.Release()
			_, err := mapper.Decode[fxDurationRow](rec)
			fxRequireError(t, err, mapper.ErrOverflow, "V", "v", 6)
		}},
		{"an UnmarshalText error in a struct field names the row", func(t *testing.T, mem memory.Allocator) {
			type row struct {
				Meta struct {
					Addr netip.Addr `arrow:"addr"`
				} `arrow:"meta"`
			}
			rec := fxRecord(t, fxCol{"meta", fxJSON(t, mem, arrow.StructOf(arrow.Field{Name: "addr", Type: arrow.BinaryTypes.String}),
				`[{"addr": "::1"}, {"addr": "::2"}, {"addr": "::3"}, {"addr": "::4"}, {"addr": "bad"}]`)})
			defer rec.Release()
			_, err := mapper.Decode[row](rec)
			fxRequireError(t, err, mapper.ErrInvalidData, "Meta.Addr", "meta.addr", 4)
			sliced := rec.NewSlice(2, 5)
			defer sliced.Release()
			_, err = mapper.Decode[row](sliced)
			fxRequireError(t, err, mapper.ErrInvalidData, "Meta.Addr", "meta.addr", 2)
		}},
		{"a dictionary index out of range is ErrInvalidData naming its row", func(t *testing.T, mem memory.Allocator) {
			dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
			indices := fxJSON(t, mem, arrow.PrimitiveTypes.Int8, `[0, 1, 1, 5, 0]`)
			defer indices.Release()
			values := fxJSON(t, mem, arrow.BinaryTypes.String, `["a", "b"]`)
			defer values.Release()
			rec := fxRecord(t, fxCol{"v", array.NewDictionaryArray(dt, indices, values)})
			defer rec.Release()
			_, err := mapper.Decode[fxCell[string]](rec)
			fxRequireError(t, err, mapper.ErrInvalidData, "V", "v", 3)
		}},
		{"a record of another schema is a type mismatch at View", func(t *testing.T, mem memory.Allocator) {
			m, err := mapper.New[fxCell[int64]](fxSchema("v", arrow.PrimitiveTypes.Int64))
			require.NoError(t, err)
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, arrow.PrimitiveTypes.Int32, `[1, 2, 3]`)})
			defer rec.Release()
			_, err = m.View(rec)
			fxRequireError(t, err, mapper.ErrTypeMismatch, "V", "v", -1)
		}},
		{"a nil record is ErrInvalidData", func(t *testing.T, mem memory.Allocator) {
			m, err := mapper.New[fxCell[int64]](fxSchema("v", arrow.PrimitiveTypes.Int64))
			require.NoError(t, err)
			_, err = m.View(nil)
			require.ErrorIs(t, err, mapper.ErrInvalidData)
			_, err = mapper.Decode[fxCell[int64]](nil)
			require.ErrorIs(t, err, mapper.ErrInvalidData)
		}},
	})
}

func TestNilSchemaIsAnErrorNotAPanic(t *testing.T) {
	err := fxNewErr[fxCell[int64]](nil)
	var me *mapper.Error
	require.ErrorAs(t, err, &me)
}

func TestAppendAppendsTheRowsBeforeAnErrorAndNothingElse(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rec := errScoresRecord(t, mem)
	defer rec.Release()
	m, err := mapper.New[errScores](rec.Schema())
	require.NoError(t, err)
	head := rec.NewSlice(0, 7)
	defer head.Release()
	want, err := m.Decode(head)
	require.NoError(t, err)

	sentinel := errScores{[]int64{-1}}
	fresh := func() (dst, before []errScores) {
		dst = make([]errScores, 2, 32)
		for i := range dst[:cap(dst)] {
			dst[:cap(dst)][i] = errScores{[]int64{int64(i)}}
		}
		dst[0] = sentinel
		return dst, append([]errScores(nil), dst[:cap(dst)]...)
	}

	dst, before := fresh()
	got, err := m.Append(dst, rec)
	fxRequireError(t, err, mapper.ErrNull, "Scores[]", "scores.item", 7)
	require.Len(t, got, 2+7, "dst and the 7 rows before row 7")
	require.Same(t, &dst[0], &got[0], "the same backing array")
	require.Equal(t, before[:2], got[:2], "dst's own rows unchanged")
	require.Equal(t, want, got[2:], "the rows before the error")
	require.Equal(t, before[9:], got[9:cap(got)], "nothing written past them")

	var nilDst []errScores
	got, err = m.Append(nilDst, rec)
	require.Error(t, err)
	require.Equal(t, want, got)

	// A fault about the record as a whole, an offsets buffer too short for
	// its rows, writes nothing, not even past dst's length.
	short := malRecord(t, []malformedColumn{malColumn("scores",
		malData(rec.Schema().Field(0).Type, 3, 0, 0, malBuffers(nil, malInt32Buf(0, 1)), malInt64s(1, 2)))}, 0)
	dst, before = fresh()
	got, err = m.Append(dst, short)
	fxRequireError(t, err, mapper.ErrInvalidData, "Scores", "scores", -1)
	require.Len(t, got, 2)
	require.Equal(t, before, got[:cap(got)], "nothing written, not even past len")
}

func TestErrorMessage(t *testing.T) {
	err := &mapper.Error{Path: "Items[].SKU", Column: "items.item.sku", Row: 3, Err: mapper.ErrNull}
	require.Equal(t, `arrowmap: field Items[].SKU, column "items.item.sku", row 3: unexpected null`, err.Error())
	require.ErrorIs(t, err, mapper.ErrNull)
	err = &mapper.Error{Row: -1, Err: mapper.ErrUnsupported}
	require.Equal(t, "arrowmap: unsupported Go type", err.Error())
	err = &mapper.Error{Path: "Name", Column: "name", Row: 150000, Record: 8, Err: mapper.ErrNull}
	require.Equal(t, `arrowmap: field Name, column "name", row 150000 (record 8): unexpected null`, err.Error(),
		"a reader's error names the record past the first")
	err = &mapper.Error{Column: "name", Row: -1, Record: 2, Err: mapper.ErrInvalidData}
	require.Equal(t, `arrowmap: column "name", record 2: invalid data`, err.Error(), "a record but no row")
	err = &mapper.Error{Row: -1, Record: 2, Err: mapper.ErrTypeMismatch}
	require.Equal(t, `arrowmap: record 2: type mismatch`, err.Error())
	err = &mapper.Error{Row: 7, Record: 0, Err: mapper.ErrNull}
	require.Equal(t, `arrowmap: row 7: unexpected null`, err.Error(), "the first record goes unnamed: its rows are the stream's")
	wrapped := errors.Join(errors.New("context"), err)
	var me *mapper.Error
	require.ErrorAs(t, wrapped, &me)
	require.ErrorIs(t, wrapped, mapper.ErrNull)
}
