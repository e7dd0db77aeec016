package views_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/views"
)

// prefixData is an array of dt of n rows over bufs and children, crafted.
func prefixData(dt arrow.DataType, n int, bufs []*memory.Buffer, children ...arrow.ArrayData) arrow.ArrayData {
	return array.NewData(dt, n, bufs, children, 0, 0)
}

func prefixInt32s(v ...int32) *memory.Buffer {
	return memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(v))
}

// prefixStrings is a utf8 child of len(offsets)-1 rows.
func prefixStrings(data string, offsets ...int32) arrow.ArrayData {
	return prefixData(arrow.BinaryTypes.String, len(offsets)-1, []*memory.Buffer{nil, prefixInt32s(offsets...), memory.NewBufferBytes([]byte(data))})
}

func TestOfPrefixValidatesTheRowsOfThePrefixAndWhatTheyReach(t *testing.T) {
	// Strings whose offsets go backwards between rows 4 and 5.
	backwards := func() arrow.ArrayData { return prefixStrings("abcdef", 0, 1, 2, 3, 5, 4, 6) }
	dict := arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	cases := []struct {
		name string
		data func() arrow.ArrayData
		// rows is the array's length, valid the longest prefix that
		// validates: rows when no row reaches the fault, -1 when not even
		// the empty prefix does, a fault of no row's.
		rows, valid int
		column      string
	}{
		{"a struct whose field's offsets go backwards at its row 4", func() arrow.ArrayData {
			return prefixData(arrow.StructOf(arrow.Field{Name: "s", Type: arrow.BinaryTypes.String}), 6, []*memory.Buffer{nil}, backwards())
		}, 6, 4, "s"},
		{"a list whose elements' offsets go backwards in its row 2", func() arrow.ArrayData {
			// Rows [a b] [c d] [e f]: elements 4 and 5 are row 2's.
			return prefixData(arrow.ListOf(arrow.BinaryTypes.String), 3, []*memory.Buffer{nil, prefixInt32s(0, 2, 4, 6)}, backwards())
		}, 3, 2, "item"},
		{"a list view whose row 1 reaches the bad elements", func() arrow.ArrayData {
			return prefixData(arrow.ListViewOf(arrow.BinaryTypes.String), 3, []*memory.Buffer{nil, prefixInt32s(0, 3, 0), prefixInt32s(2, 3, 1)}, backwards())
		}, 3, 1, "item"},
		{"a fixed-size list whose row 2 holds the bad elements", func() arrow.ArrayData {
			return prefixData(arrow.FixedSizeListOf(2, arrow.BinaryTypes.String), 3, []*memory.Buffer{nil}, backwards())
		}, 3, 2, "item"},
		{"a map whose row 1 holds the bad keys", func() arrow.ArrayData {
			mt := arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32)
			values := prefixData(arrow.PrimitiveTypes.Int32, 6, []*memory.Buffer{nil, prefixInt32s(1, 2, 3, 4, 5, 6)})
			entries := prefixData(mt.Elem(), 6, []*memory.Buffer{nil}, backwards(), values)
			return prefixData(mt, 2, []*memory.Buffer{nil, prefixInt32s(0, 3, 6)}, entries)
		}, 2, 1, "entries.key"},
		{"a sparse union whose child's offsets go backwards at its row 4", func() arrow.ArrayData {
			ut := arrow.SparseUnionOf([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, []arrow.UnionTypeCode{0})
			return prefixData(ut, 6, []*memory.Buffer{nil, memory.NewBufferBytes(make([]byte, 6))}, backwards())
		}, 6, 4, "s"},
		{"a dense union whose row 2 selects the bad child row", func() arrow.ArrayData {
			ut := arrow.DenseUnionOf([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, []arrow.UnionTypeCode{0})
			return prefixData(ut, 3, []*memory.Buffer{nil, memory.NewBufferBytes(make([]byte, 3)), prefixInt32s(0, 2, 4)}, backwards())
		}, 3, 2, "s"},
		{"a list whose bad elements no row reaches", func() arrow.ArrayData {
			return prefixData(arrow.ListOf(arrow.BinaryTypes.String), 2, []*memory.Buffer{nil, prefixInt32s(0, 2, 4)}, backwards())
		}, 2, 2, "item"},
		{"a dictionary whose entries' offsets go backwards, whichever rows use them", func() arrow.ArrayData {
			d := prefixData(&dict, 3, []*memory.Buffer{nil, prefixInt32s(0, 0, 0)}).(*array.Data)
			d.SetDictionary(backwards())
			return d
		}, 3, -1, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.data()
			arr := craftedArrayOf(t, d)
			typ := views.TypeOf(d.DataType())

			_, err := views.Of(arr, &typ)
			require.Error(t, err, "the array is malformed")
			for k := 0; k <= tc.rows; k++ {
				v, err := views.OfPrefix(arr, &typ, k)
				if k <= tc.valid {
					require.NoError(t, err, "the prefix of %d rows", k)
					assert.Equal(t, k, v.Len())
					continue
				}
				require.ErrorIs(t, err, views.ErrInvalidData, "the prefix of %d rows", k)
				var ve *views.Error
				require.ErrorAs(t, err, &ve)
				assert.Equal(t, tc.column, ve.Column)
			}
		})
	}
	t.Run("a prefix longer than the array is an error, not a panic", func(t *testing.T) {
		arr := craftedArrayOf(t, prefixStrings("ab", 0, 1, 2))
		typ := views.TypeOf(arr.DataType())
		_, err := views.OfPrefix(arr, &typ, 3)
		require.ErrorIs(t, err, views.ErrInvalidData)
		_, err = views.OfPrefix(arr, &typ, -1)
		require.ErrorIs(t, err, views.ErrInvalidData)
	})
}

// TestOfPrefixOfAValidArrayIsItsSlice checks, on random nested arrays, that
// OfPrefix views the rows Of views, value for value, and that a null the
// type refuses fails exactly the prefixes that reach it.
func TestOfPrefixOfAValidArrayIsItsSlice(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	dt := arrow.ListOf(arrow.StructOf(
		arrow.Field{Name: "n", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		arrow.Field{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true}))
	for round := range 20 {
		b := array.NewListBuilder(mem, dt.Elem())
		sb := b.ValueBuilder().(*array.StructBuilder)
		nb := sb.FieldBuilder(0).(*array.Int64Builder)
		tb := sb.FieldBuilder(1).(*array.ListBuilder)
		strs := tb.ValueBuilder().(*array.StringBuilder)
		rows := 1 + rng.IntN(40)
		nullAt := -1 // the first row that reaches a null n
		for i := range rows {
			if rng.IntN(8) == 0 {
				b.AppendNull()
				continue
			}
			b.Append(true)
			for range rng.IntN(3) {
				sb.Append(true)
				if rng.IntN(30) == 0 {
					nb.AppendNull()
					if nullAt < 0 {
						nullAt = i
					}
				} else {
					nb.Append(rng.Int64N(100))
				}
				tb.Append(true)
				for range rng.IntN(3) {
					strs.Append(fmt.Sprint(rng.IntN(1000)))
				}
			}
		}
		arr := b.NewArray()
		b.Release()
		nullable := views.TypeOf(dt)
		whole, err := views.Of(arr, &nullable)
		require.NoError(t, err)
		strict := views.TypeOf(dt)
		strict.Elem.Fields[0].Type.Nullable = false // n
		for k := 0; k <= rows; k++ {
			v, err := views.OfPrefix(arr, &nullable, k)
			require.NoError(t, err, "round %d, prefix %d", round, k)
			for i := range k {
				require.Equal(t, whole.Value(i), v.Value(i), "round %d, prefix %d, row %d", round, k, i)
			}
			_, err = views.OfPrefix(arr, &strict, k)
			if nullAt < 0 || k <= nullAt {
				require.NoError(t, err, "round %d: no row of the prefix of %d reaches the null of row %d", round, k, nullAt)
			} else {
				var ve *views.Error
				require.ErrorAs(t, err, &ve, "round %d, prefix %d", round, k)
				require.ErrorIs(t, err, views.ErrNull)
				require.Equal(t, nullAt, ve.Row, "round %d, prefix %d", round, k)
			}
		}
		arr.Release()
	}
}
