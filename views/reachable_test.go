package views_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/views"
)

// Types no level of which may hold nulls.

func requiredOf(ids ...arrow.Type) views.Type { return views.Type{Accept: views.AcceptOf(ids...)} }

func requiredList(elem views.Type) views.Type {
	return views.Type{Accept: views.Lists | views.AcceptOf(arrow.FIXED_SIZE_LIST), Elem: &elem}
}

func requiredStruct(fields ...views.Field) views.Type {
	return views.Type{Accept: views.AcceptOf(arrow.STRUCT), Fields: fields}
}

func requiredMap(key, value views.Type) views.Type {
	return views.Type{Accept: views.AcceptOf(arrow.MAP), Key: &key, Value: &value}
}

func labeled(t views.Type, label string) views.Type {
	t.Label = label
	return t
}

func asNullable(t views.Type) views.Type {
	t.Nullable = true
	return t
}

// everyLevelNullable is t with every level, down to the leaves, nullable.
func everyLevelNullable(t views.Type) views.Type {
	t.Nullable = true
	for _, child := range []**views.Type{&t.Elem, &t.Key, &t.Value} {
		if *child != nil {
			c := everyLevelNullable(**child)
			*child = &c
		}
	}
	if t.Fields != nil {
		fields := make([]views.Field, len(t.Fields))
		for i, f := range t.Fields {
			fields[i] = views.Field{Name: f.Name, Type: everyLevelNullable(f.Type)}
		}
		t.Fields = fields
	}
	return t
}

// rowsOf slices arr to rows [i, j) and releases arr.
func rowsOf(arr arrow.Array, i, j int) arrow.Array {
	defer arr.Release()
	return array.NewSlice(arr, int64(i), int64(j))
}

// viewError is the *views.Error New must fail with.
type viewError struct {
	kind   error
	column string
	row    int
	label  string
}

func requireViewError(t *testing.T, want viewError, err error) {
	t.Helper()
	require.Error(t, err)
	var e *views.Error
	require.ErrorAs(t, err, &e)
	require.ErrorIs(t, err, want.kind, "%v", err)
	require.Equal(t, want.column, e.Column, "Column of %v", err)
	require.Equal(t, want.row, e.Row, "Row of %v", err)
	require.Equal(t, want.label, e.Label, "Label of %v", err)
	require.NotEmpty(t, e.Detail)
}

// reachableCase is an array, the type it is viewed as, and the error New
// gives, if any.
type reachableCase struct {
	name  string
	build func(t *testing.T, mem memory.Allocator) arrow.Array
	typ   views.Type
	want  *viewError
}

func nullAt(column string, row int) *viewError {
	return &viewError{kind: views.ErrNull, column: column, row: row}
}

func reachableCases() []reachableCase {
	i64 := arrow.PrimitiveTypes.Int64
	utf8 := arrow.BinaryTypes.String
	reqI64 := requiredOf(arrow.INT64)
	reqUTF8 := requiredOf(arrow.STRING)
	encodedI64 := orEncoded(reqI64)
	encodedUTF8 := orEncoded(reqUTF8)
	listList := arrow.ListOf(arrow.ListOf(i64))

	// Its only null, the grandchild of row 2.
	nestedNull := func(t *testing.T, mem memory.Allocator) arrow.Array {
		return jsonArray(t, mem, listList, `[[[1, 2]], [[3], []], [[4, null]], [[5]]]`)
	}
	// Values entries 1 and 3 are null.
	dictionary := func(indices string) func(t *testing.T, mem memory.Allocator) arrow.Array {
		return func(t *testing.T, mem memory.Allocator) arrow.Array {
			return dictionaryArrayOf(t, mem, arrow.PrimitiveTypes.Int8, utf8, indices, `["a", null, "c", null]`)
		}
	}
	// Entry 1 has a null field a; entry 2 is a null struct with a null a.
	structDictionary := func(indices string) func(t *testing.T, mem memory.Allocator) arrow.Array {
		return func(t *testing.T, mem memory.Allocator) arrow.Array {
			idx := jsonArray(t, mem, arrow.PrimitiveTypes.Uint32, indices)
			defer idx.Release()
			entries := structArrayOf(t, mem, []string{"a"}, []arrow.Array{jsonArray(t, mem, i64, `[1, null, null, 4]`)}, true, true, false, true)
			defer entries.Release()
			return array.NewDictionaryArray(&arrow.DictionaryType{IndexType: idx.DataType(), ValueType: entries.DataType()}, idx, entries)
		}
	}
	// Like structDictionary, but the indices are raw: a null index keeps
	// the value stored under it.
	rawStructDictionary := func(valid []bool, indices ...int32) func(t *testing.T, mem memory.Allocator) arrow.Array {
		return func(t *testing.T, mem memory.Allocator) arrow.Array {
			idx := rawArray(mem, arrow.PrimitiveTypes.Int32, len(indices), [][]byte{validBits(valid...), int32Bytes(indices...)}, nil, 0)
			defer idx.Release()
			entries := structArrayOf(t, mem, []string{"a"}, []arrow.Array{jsonArray(t, mem, i64, `[1, null, null, 4]`)}, true, true, false, true)
			defer entries.Release()
			return array.NewDictionaryArray(&arrow.DictionaryType{IndexType: idx.DataType(), ValueType: entries.DataType()}, idx, entries)
		}
	}
	// Rows [2, 4) are a null run.
	runs := func(t *testing.T, mem memory.Allocator) arrow.Array {
		return runEndArrayOf(t, mem, arrow.PrimitiveTypes.Int32, i64, `[2, 4, 6]`, `[1, null, 3]`, 6)
	}
	// The child's nulls are rows 1 and 4, and row r refers to child rows
	// [offsets[r], offsets[r]+sizes[r]).
	listView := func(offsets, sizes []int32, valid ...bool) func(t *testing.T, mem memory.Allocator) arrow.Array {
		return func(t *testing.T, mem memory.Allocator) arrow.Array {
			child := jsonArray(t, mem, i64, `[10, null, 20, 30, null, 40]`)
			defer child.Release()
			var validity []byte
			if valid != nil {
				validity = validBits(valid...)
			}
			return rawArray(mem, arrow.ListViewOf(i64), len(offsets), [][]byte{validity, int32Bytes(offsets...), int32Bytes(sizes...)}, []arrow.Array{child}, 0)
		}
	}
	// Ten rows [i, i], but row 7 is [7, null].
	row7 := func(t *testing.T, mem memory.Allocator) arrow.Array {
		rows := make([]string, 10)
		for i := range rows {
			rows[i] = fmt.Sprintf("[%d, %d]", i, i)
		}
		rows[7] = "[7, null]"
		return jsonArray(t, mem, arrow.ListOf(i64), "["+strings.Join(rows, ", ")+"]")
	}
	itemsType := arrow.ListOf(arrow.StructOf(arrow.Field{Name: "sku", Type: utf8, Nullable: true}, arrow.Field{Name: "qty", Type: i64, Nullable: true}))

	return []reachableCase{
		// Nulls outside the window.
		{"a null grandchild fails New at the row that reaches it", nestedNull,
			requiredList(requiredList(reqI64)), nullAt("item.item", 2)},
		{"the same array sliced to the rows before the null is clean", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return rowsOf(nestedNull(t, mem), 0, 2)
		}, requiredList(requiredList(reqI64)), nil},
		{"the same array sliced to the rows after the null is clean", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return rowsOf(nestedNull(t, mem), 3, 4)
		}, requiredList(requiredList(reqI64)), nil},
		{"sliced to start a row before the null, the bad row counts from the slice", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return rowsOf(nestedNull(t, mem), 1, 4)
		}, requiredList(requiredList(reqI64)), nullAt("item.item", 1)},

		// Nulls under null parent rows.
		{"a null item under a null list row is fine", func(t *testing.T, mem memory.Allocator) arrow.Array {
			child := jsonArray(t, mem, i64, `[1, 2, null, null, 3]`)
			defer child.Release()
			return rawArray(mem, arrow.ListOf(i64), 3, [][]byte{validBits(true, false, true), int32Bytes(0, 2, 4, 5)}, []arrow.Array{child}, 0)
		}, asNullable(requiredList(reqI64)), nil},
		{"a null item under a valid list row is not", func(t *testing.T, mem memory.Allocator) arrow.Array {
			child := jsonArray(t, mem, i64, `[1, 2, null, null, 3]`)
			defer child.Release()
			return rawArray(mem, arrow.ListOf(i64), 3, [][]byte{validBits(true, true, true), int32Bytes(0, 2, 4, 5)}, []arrow.Array{child}, 0)
		}, asNullable(requiredList(reqI64)), nullAt("item", 1)},
		{"a null inner list under a null outer row is fine", func(t *testing.T, mem memory.Allocator) arrow.Array {
			items := jsonArray(t, mem, i64, `[1, null, 2]`)
			defer items.Release()
			inner := rawArray(mem, arrow.ListOf(i64), 4, [][]byte{validBits(true, false, true, true), int32Bytes(0, 1, 1, 2, 3)}, []arrow.Array{items}, 0)
			defer inner.Release()
			return rawArray(mem, listList, 3, [][]byte{validBits(true, false, true), int32Bytes(0, 1, 3, 4)}, []arrow.Array{inner}, 0)
		}, asNullable(requiredList(requiredList(reqI64))), nil},
		{"a null inner list under a valid outer row is not", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return jsonArray(t, mem, listList, `[[[1]], [[2], null], [[3]]]`)
		}, requiredList(requiredList(reqI64)), nullAt("item", 1)},
		{"a null field under a null struct row is fine", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return structArrayOf(t, mem, []string{"a"}, []arrow.Array{jsonArray(t, mem, i64, `[1, null, 3, 4]`)}, true, false, true, true)
		}, asNullable(requiredStruct(views.Field{Name: "a", Type: reqI64})), nil},
		{"a null field in a valid struct row is not", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return structArrayOf(t, mem, []string{"a"}, []arrow.Array{jsonArray(t, mem, i64, `[1, null, null, 4]`)}, true, false, true, true)
		}, asNullable(requiredStruct(views.Field{Name: "a", Type: reqI64})), nullAt("a", 2)},
		{"a null row of a struct that is not nullable is reported at the struct", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return structArrayOf(t, mem, []string{"a"}, []arrow.Array{jsonArray(t, mem, i64, `[1, null, 3, 4]`)}, true, false, true, true)
		}, requiredStruct(views.Field{Name: "a", Type: reqI64}), nullAt("", 1)},
		{"a null field the type does not view is fine", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return structArrayOf(t, mem, []string{"a", "b"},
				[]arrow.Array{jsonArray(t, mem, i64, `[1, 2]`), jsonArray(t, mem, i64, `[null, null]`)})
		}, requiredStruct(views.Field{Name: "a", Type: reqI64}), nil},
		{"a null run under a null struct row is fine", func(t *testing.T, mem memory.Allocator) arrow.Array {
			r := runEndArrayOf(t, mem, arrow.PrimitiveTypes.Int16, i64, `[1, 2, 4]`, `[1, null, 3]`, 4)
			return structArrayOf(t, mem, []string{"r"}, []arrow.Array{r}, true, false, true, true)
		}, asNullable(requiredStruct(views.Field{Name: "r", Type: encodedI64})), nil},
		{"a null run under a valid struct row is not", func(t *testing.T, mem memory.Allocator) arrow.Array {
			r := runEndArrayOf(t, mem, arrow.PrimitiveTypes.Int16, i64, `[1, 2, 4]`, `[1, null, 3]`, 4)
			return structArrayOf(t, mem, []string{"r"}, []arrow.Array{r}, true, true, false, true)
		}, asNullable(requiredStruct(views.Field{Name: "r", Type: encodedI64})), nullAt("r", 1)},
		{"a null dictionary entry under a null struct row is fine", func(t *testing.T, mem memory.Allocator) arrow.Array {
			d := dictionaryArrayOf(t, mem, arrow.PrimitiveTypes.Uint8, utf8, `[0, 1, 0]`, `["a", null]`)
			return structArrayOf(t, mem, []string{"d"}, []arrow.Array{d}, true, false, true)
		}, asNullable(requiredStruct(views.Field{Name: "d", Type: encodedUTF8})), nil},
		{"a null fixed-size list row covering null items is fine", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return jsonArray(t, mem, arrow.FixedSizeListOf(2, i64), `[[1, 2], null, [3, 4]]`)
		}, asNullable(requiredList(reqI64)), nil},

		// Dictionaries.
		{"a null dictionary entry no index refers to is fine", dictionary(`[0, 2, 0, 2]`), encodedUTF8, nil},
		{"a null dictionary entry a valid index refers to fails at that row", dictionary(`[0, 2, 1, 0]`), encodedUTF8, nullAt("", 2)},
		{"a null entry referred to only outside the window is fine", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return rowsOf(dictionary(`[0, 2, 1, 0]`)(t, mem), 0, 2)
		}, encodedUTF8, nil},
		{"a null entry referred to in a sliced window fails at the sliced row", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return rowsOf(dictionary(`[0, 2, 1, 0]`)(t, mem), 1, 4)
		}, encodedUTF8, nullAt("", 1)},
		{"a null index fails at its row", dictionary(`[0, null, 2]`), encodedUTF8, nullAt("", 1)},
		{"a null field in a struct entry no index refers to is fine", structDictionary(`[0, 3, 3, 0]`),
			orEncoded(requiredStruct(views.Field{Name: "a", Type: reqI64})), nil},
		{"a null field in a struct entry a valid index refers to is not", structDictionary(`[0, 3, 1, 0]`),
			orEncoded(requiredStruct(views.Field{Name: "a", Type: reqI64})), nullAt("a", 2)},
		{"a null field in a null struct entry is fine when the struct is nullable", structDictionary(`[0, 2, 3]`),
			orEncoded(asNullable(requiredStruct(views.Field{Name: "a", Type: reqI64}))), nil},
		{"a null index over an entry with a null field is fine", rawStructDictionary([]bool{true, false, true}, 0, 1, 3),
			orEncoded(asNullable(requiredStruct(views.Field{Name: "a", Type: reqI64}))), nil},
		{"a null index holding an out-of-range value is fine", rawStructDictionary([]bool{true, false, true}, 0, 100, 3),
			orEncoded(asNullable(requiredStruct(views.Field{Name: "a", Type: reqI64}))), nil},
		{"a valid index over an entry with a null field fails at its row", rawStructDictionary([]bool{true, false, true}, 0, 3, 1),
			orEncoded(asNullable(requiredStruct(views.Field{Name: "a", Type: reqI64}))), nullAt("a", 2)},

		// Run-end encoding.
		{"a null run fails at its first row", runs, encodedI64, nullAt("", 2)},
		{"a null run outside the window after it is fine", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return rowsOf(runs(t, mem), 0, 2)
		}, encodedI64, nil},
		{"a null run outside the window before it is fine", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return rowsOf(runs(t, mem), 4, 6)
		}, encodedI64, nil},
		{"a null run the window starts inside fails at row 0", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return rowsOf(runs(t, mem), 3, 6)
		}, encodedI64, nullAt("", 0)},
		{"a null run the window reaches fails at its first row in the window", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return rowsOf(runs(t, mem), 1, 5)
		}, encodedI64, nullAt("", 1)},
		{"a null field in a run outside the window is fine", func(t *testing.T, mem memory.Allocator) arrow.Array {
			ends := jsonArray(t, mem, arrow.PrimitiveTypes.Int16, `[2, 4, 6]`)
			defer ends.Release()
			values := structArrayOf(t, mem, []string{"a"}, []arrow.Array{jsonArray(t, mem, i64, `[1, null, 3]`)})
			defer values.Release()
			return rowsOf(array.NewRunEndEncodedArray(ends, values, 6, 0), 4, 6)
		}, orEncoded(requiredStruct(views.Field{Name: "a", Type: reqI64})), nil},

		// List views.
		{"list view rows out of order around null child rows are fine",
			listView([]int32{3, 0, 5, 2}, []int32{1, 1, 1, 2}), requiredList(reqI64), nil},
		{"a null list view row over a null child row is fine",
			listView([]int32{3, 0, 5, 2, 1}, []int32{1, 1, 1, 2, 1}, true, true, true, true, false), asNullable(requiredList(reqI64)), nil},
		{"a list view row over a null child row fails at that row",
			listView([]int32{3, 0, 4, 2}, []int32{1, 1, 1, 2}), requiredList(reqI64), nullAt("item", 2)},
		{"a list view row over a null child row outside the window is fine", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return rowsOf(listView([]int32{3, 0, 4, 2}, []int32{1, 1, 1, 2})(t, mem), 3, 4)
		}, requiredList(reqI64), nil},
		{"a later list view row over an earlier null child row fails at the later row",
			listView([]int32{5, 3, 2, 0}, []int32{1, 1, 2, 2}), requiredList(reqI64), nullAt("item", 3)},

		// The first bad row.
		{"a null in row 7 of a non-nullable list element fails at row 7", row7,
			requiredList(labeled(reqI64, "Order.Lines")), &viewError{kind: views.ErrNull, column: "item", row: 7, label: "Order.Lines"}},
		{"the same null, sliced from row 5, fails at row 2", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return rowsOf(row7(t, mem), 5, 10)
		}, requiredList(labeled(reqI64, "Order.Lines")), &viewError{kind: views.ErrNull, column: "item", row: 2, label: "Order.Lines"}},
		{"a null in row 5 of a non-nullable int64 fails at row 5", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return jsonArray(t, mem, i64, `[0, 1, 2, 3, 4, null, 6, null]`)
		}, labeled(reqI64, "ID"), &viewError{kind: views.ErrNull, column: "", row: 5, label: "ID"}},
		{"a null sku in row 3 fails at item.sku", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return jsonArray(t, mem, itemsType, `[[{"sku": "a", "qty": null}], [], [{"sku": "b"}, {"sku": "c"}], [{"sku": "d"}, {"sku": null}], [{"sku": null}]]`)
		}, requiredList(requiredStruct(views.Field{Name: "sku", Type: labeled(reqUTF8, "Order.Items.SKU")})),
			&viewError{kind: views.ErrNull, column: "item.sku", row: 3, label: "Order.Items.SKU"}},
		{"a null map value in row 3 fails at entries.value", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return jsonArray(t, mem, arrow.MapOf(utf8, i64), `[[{"key": "a", "value": 1}], [], [{"key": "b", "value": 2}],
				[{"key": "c", "value": 3}, {"key": "d", "value": null}], [{"key": "e", "value": null}]]`)
		}, requiredMap(reqUTF8, reqI64), nullAt("entries.value", 3)},
		{"a null item of a fixed-size list fails at the row that holds it", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return jsonArray(t, mem, arrow.FixedSizeListOf(2, i64), `[[0, 1], [2, 3], [4, 5], [6, 7], [8, null], [null, 11]]`)
		}, requiredList(reqI64), nullAt("item", 4)},
		{"a null in row 777 of 1000 fails at row 777", func(t *testing.T, mem memory.Allocator) arrow.Array {
			rows := make([]string, 1000)
			for i := range rows {
				rows[i] = fmt.Sprintf("[%d]", i)
			}
			rows[777], rows[900] = "[1, null]", "[null]"
			return jsonArray(t, mem, arrow.ListOf(i64), "["+strings.Join(rows, ", ")+"]")
		}, requiredList(reqI64), nullAt("item", 777)},
		{"a null array that is not nullable fails at row 0", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return jsonArray(t, mem, arrow.Null, `[null, null]`)
		}, requiredOf(arrow.NULL), nullAt("", 0)},
		{"an empty null array is fine", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return jsonArray(t, mem, arrow.Null, `[]`)
		}, requiredOf(arrow.NULL), nil},

		// What is reported first.
		{"a datatype error in the item is reported before its nulls", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return jsonArray(t, mem, arrow.ListOf(arrow.PrimitiveTypes.Int32), `[[1, null], null]`)
		}, requiredList(reqI64), &viewError{kind: views.ErrTypeMismatch, column: "item", row: -1}},
		{"a datatype error in a later field is reported before nulls in an earlier one", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return structArrayOf(t, mem, []string{"a", "b"},
				[]arrow.Array{jsonArray(t, mem, i64, `[null, 1]`), jsonArray(t, mem, utf8, `["x", "y"]`)}, false, true)
		}, requiredStruct(views.Field{Name: "a", Type: reqI64}, views.Field{Name: "b", Type: reqI64}),
			&viewError{kind: views.ErrTypeMismatch, column: "b", row: -1}},
		{"a datatype error in dictionary values is reported before a null index", func(t *testing.T, mem memory.Allocator) arrow.Array {
			return dictionaryArrayOf(t, mem, arrow.PrimitiveTypes.Int8, i64, `[null, 0]`, `[1]`)
		}, encodedUTF8, &viewError{kind: views.ErrTypeMismatch, column: "", row: -1}},
		{"malformed offsets are reported before nulls", func(t *testing.T, mem memory.Allocator) arrow.Array {
			child := jsonArray(t, mem, i64, `[null, 1, 2]`)
			defer child.Release()
			return rawArray(mem, arrow.ListOf(i64), 3, [][]byte{nil, int32Bytes(0, 2, 1, 3)}, []arrow.Array{child}, 0)
		}, requiredList(reqI64), &viewError{kind: views.ErrInvalidData, column: "", row: 1}},
	}
}

func TestNullsCountOnlyWhereReachable(t *testing.T) {
	for _, tc := range reachableCases() {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			arr := tc.build(t, mem)
			defer arr.Release()
			v, err := views.New(arr, tc.typ)
			if tc.want != nil {
				requireViewError(t, *tc.want, err)
				return
			}
			require.NoError(t, err)
			// The view reads what arrow-go reads, nulls under null parents
			// included.
			requireArrowRows(t, arr, v, "the accepted view")
		})
	}
}

func TestNullableLevelsAcceptNulls(t *testing.T) {
	for _, tc := range reachableCases() {
		if tc.want == nil || tc.want.kind != views.ErrNull {
			continue
		}
		t.Run(fmt.Sprintf("every level nullable accepts the array of %q", tc.name), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			arr := tc.build(t, mem)
			defer arr.Release()
			v, err := views.New(arr, everyLevelNullable(tc.typ))
			require.NoError(t, err)
			requireArrowRows(t, arr, v, "the nullable view")
		})
	}

	t.Run("only the level made nullable accepts its nulls", func(t *testing.T) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		arr := jsonArray(t, mem, arrow.ListOf(arrow.ListOf(arrow.PrimitiveTypes.Int64)), `[[[1]], null, [null, [2, null]]]`)
		defer arr.Release()
		reqI64 := requiredOf(arrow.INT64)

		_, err := views.New(arr, asNullable(requiredList(requiredList(reqI64))))
		requireViewError(t, *nullAt("item", 2), err)
		_, err = views.New(arr, asNullable(requiredList(asNullable(requiredList(reqI64)))))
		requireViewError(t, *nullAt("item.item", 2), err)
		v, err := views.New(arr, asNullable(requiredList(asNullable(requiredList(asNullable(reqI64))))))
		require.NoError(t, err)
		require.Nil(t, v.Value(1))
		require.Equal(t, []any{nil, []any{int64(2), nil}}, v.Value(2))
	})
}
