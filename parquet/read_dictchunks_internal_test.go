package parquet

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/testsupport/racetest"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dictData is a dictionary array of indices (of index type indexType)
// into a dictionary of three strings, null where valid is false (nil:
// every row valid); no dictionary when noDict.
func dictData(t *testing.T, indexType arrow.DataType, indices []int64, valid []bool, noDict bool) arrow.ArrayData {
	t.Helper()
	mem := memory.DefaultAllocator
	b := array.NewBuilder(mem, indexType)
	defer b.Release()
	for i, v := range indices {
		switch {
		case valid != nil && !valid[i]:
			b.AppendNull()
		case indexType.ID() == arrow.INT8:
			b.(*array.Int8Builder).Append(int8(v))
		case indexType.ID() == arrow.UINT16:
			b.(*array.Uint16Builder).Append(uint16(v))
		case indexType.ID() == arrow.INT32:
			b.(*array.Int32Builder).Append(int32(v))
		case indexType.ID() == arrow.UINT64:
			b.(*array.Uint64Builder).Append(uint64(v))
		default:
			t.Fatalf("no index type %s in the test", indexType)
		}
	}
	idx := b.NewArray()
	defer idx.Release()
	dt := &arrow.DictionaryType{IndexType: indexType, ValueType: arrow.BinaryTypes.String}
	var dict *array.Data
	if !noDict {
		sb := array.NewStringBuilder(mem)
		defer sb.Release()
		sb.AppendValues([]string{"a", "b", "c"}, nil)
		values := sb.NewArray()
		defer values.Release()
		dict = values.Data().(*array.Data)
	}
	d := idx.Data()
	return array.NewDataWithDictionary(dt, d.Len(), d.Buffers(), d.NullN(), d.Offset(), dict)
}

func TestCheckDictionariesFindsTheFirstValidIndexPastItsDictionary(t *testing.T) {
	i32 := arrow.PrimitiveTypes.Int32
	for _, tt := range []struct {
		name    string
		data    func(t *testing.T) arrow.ArrayData
		wantRow int // -1: no row; -2: no error
		wantErr string
		column  string // the column the error names, when not "col"
	}{
		{"indices within the dictionary are no error", func(t *testing.T) arrow.ArrayData {
			return dictData(t, i32, []int64{0, 1, 2, 2}, nil, false)
		}, -2, "", ""},
		{"an index of the dictionary's length is an error at its row", func(t *testing.T) arrow.ArrayData {
			return dictData(t, i32, []int64{0, 1, 3, 9}, nil, false)
		}, 12, "dictionary index 3 out of range for 3 entries", ""},
		{"a negative index is an error", func(t *testing.T) arrow.ArrayData {
			return dictData(t, i32, []int64{0, -1}, nil, false)
		}, 11, "dictionary index -1 out of range for 3 entries", ""},
		{"an index under a null is none", func(t *testing.T) arrow.ArrayData {
			return dictData(t, i32, []int64{0, 1 << 30, 2}, []bool{true, false, true}, false)
		}, -2, "", ""},
		{"int8 indices are read as int8", func(t *testing.T) arrow.ArrayData {
			return dictData(t, arrow.PrimitiveTypes.Int8, []int64{2, -128}, nil, false)
		}, 11, "dictionary index -128 out of range", ""},
		{"uint16 indices are read as uint16", func(t *testing.T) arrow.ArrayData {
			return dictData(t, arrow.PrimitiveTypes.Uint16, []int64{2, 65535}, nil, false)
		}, 11, "dictionary index 65535 out of range", ""},
		{"a uint64 index past int64 is past the dictionary", func(t *testing.T) arrow.ArrayData {
			return dictData(t, arrow.PrimitiveTypes.Uint64, []int64{-1}, nil, false)
		}, 10, "out of range for 3 entries", ""},
		{"a slice is checked from its offset", func(t *testing.T) arrow.ArrayData {
			d := dictData(t, i32, []int64{7, 0, 1, 5}, nil, false)
			defer d.Release()
			return array.NewSliceData(d, 1, 3)
		}, -2, "", ""},
		{"a dictionary array without its dictionary is an error", func(t *testing.T) arrow.ArrayData {
			return dictData(t, i32, []int64{0}, nil, true)
		}, -1, "a dictionary array without its dictionary", ""},
		{"indices shorter than the rows are an error", func(t *testing.T) arrow.ArrayData {
			d := dictData(t, i32, []int64{0, 1}, nil, false)
			defer d.Release()
			short := memory.NewBufferBytes(d.Buffers()[1].Bytes()[:4])
			return array.NewDataWithDictionary(d.DataType(), 2, []*memory.Buffer{nil, short}, 0, 0, d.Dictionary().(*array.Data))
		}, -1, "the indices' buffer is shorter than the 2 rows", ""},
		{"a dictionary in a struct is checked, its rows not the column's", func(t *testing.T) arrow.ArrayData {
			child := dictData(t, i32, []int64{0, 4}, nil, false)
			defer child.Release()
			st := arrow.StructOf(arrow.Field{Name: "c", Type: child.DataType(), Nullable: true})
			return array.NewData(st, 2, []*memory.Buffer{nil}, []arrow.ArrayData{child}, 0, 0)
		}, -1, "dictionary index 4 out of range", "col.c"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.data(t)
			defer d.Release()
			err := checkDictionaries(d, "col", 10)
			if tt.wantRow == -2 {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, mapper.ErrInvalidData)
			assert.ErrorContains(t, err, tt.wantErr)
			var me *mapper.Error
			require.ErrorAs(t, err, &me)
			assert.Equal(t, tt.wantRow, me.Row)
			if tt.column == "" {
				tt.column = "col"
			}
			assert.Equal(t, tt.column, me.Column)
		})
	}
}

// arrow-go's builders append past what 32-bit offsets index, and their
// offsets wrap: a chunk whose values pass 2³¹-1 bytes is ErrTooLarge, at
// any depth, before it is handed on. The values buffer is made, not
// written: the pages of zeros the OS never maps.
func TestAChunkPastWhatItsOffsetsIndexIsErrTooLarge(t *testing.T) {
	racetest.Skip(t, "the race detector maps the shadow of a buffer of 2 GiB")
	values := memory.NewBufferBytes(make([]byte, math.MaxInt32+1))
	offsets := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, math.MaxInt32, math.MinInt32}))
	str := array.NewData(arrow.BinaryTypes.String, 2, []*memory.Buffer{nil, offsets, values}, nil, 0, 0)
	defer str.Release()
	err := checkOffsets(str, "s")
	require.ErrorIs(t, err, mapper.ErrTooLarge)
	var me *mapper.Error
	require.ErrorAs(t, err, &me)
	assert.Equal(t, "s", me.Column)
	assert.ErrorContains(t, err, "a record of 2147483648 bytes of utf8, past the 2³¹-1 its 32-bit offsets index: read fewer rows a record (ReadConfig.BatchRows)")

	listOffsets := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 2}))
	list := array.NewData(arrow.ListOf(arrow.BinaryTypes.String), 1, []*memory.Buffer{nil, listOffsets}, []arrow.ArrayData{str}, 0, 0)
	defer list.Release()
	require.ErrorIs(t, checkOffsets(list, "l"), mapper.ErrTooLarge, "below a list")

	large := array.NewData(arrow.BinaryTypes.LargeString, 0, []*memory.Buffer{nil, memory.NewBufferBytes(make([]byte, 8)), values}, nil, 0, 0)
	defer large.Release()
	assert.NoError(t, checkOffsets(large, "s"), "64-bit offsets index it")
}
