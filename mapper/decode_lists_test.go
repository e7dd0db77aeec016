package mapper_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

func TestDecodeLists(t *testing.T) {
	const js = `[[1, 2], [], null, [3], [4, 5, 6]]`
	want := []fxListRow{{[]int64{1, 2}}, {[]int64{}}, {nil}, {[]int64{3}}, {[]int64{4, 5, 6}}}
	listCase := func(dt arrow.DataType, js string, want []fxListRow) func(*testing.T, memory.Allocator) {
		return func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, js)})
			defer rec.Release()
			got := fxDecodeAll[fxListRow](t, rec)
			require.Equal(t, want, got)
			for i, r := range got {
				require.Equal(t, want[i].V == nil, r.V == nil, "row %d: nil is null, empty is not", i)
			}
		}
	}
	const strJS = `[["a", "b"], [], null, ["a value longer than twelve bytes"], ["c", "", "d"]]`
	strWant := []fxStringListRow{{[]string{"a", "b"}}, {[]string{}}, {nil}, {[]string{"a value longer than twelve bytes"}}, {[]string{"c", "", "d"}}}
	stringListCase := func(dt arrow.DataType) func(*testing.T, memory.Allocator) {
		return func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, strJS)})
			defer rec.Release()
			require.Equal(t, strWant, fxDecodeAll[fxStringListRow](t, rec))
		}
	}
	listViewWant := []fxListRow{{[]int64{13, 14}}, {[]int64{10, 11, 12}}, {[]int64{}}, {nil}, {[]int64{12, 13}}, {[]int64{11}}}
	fxRun(t, []fxCase{
		{"list decodes into a slice", listCase(arrow.ListOf(arrow.PrimitiveTypes.Int64), js, want)},
		{"large_list decodes into a slice", listCase(arrow.LargeListOf(arrow.PrimitiveTypes.Int64), js, want)},
		{"list_view decodes into a slice", listCase(arrow.ListViewOf(arrow.PrimitiveTypes.Int64), js, want)},
		{"large_list_view decodes into a slice", listCase(arrow.LargeListViewOf(arrow.PrimitiveTypes.Int64), js, want)},
		{"list<int32> widens into []int64", listCase(arrow.ListOf(arrow.PrimitiveTypes.Int32), js, want)},
		{"fixed_size_list(2) decodes into a slice", listCase(arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int64), `[[1, 2], null, [3, 4], [5, 6], [7, 8]]`,
			[]fxListRow{{[]int64{1, 2}}, {nil}, {[]int64{3, 4}}, {[]int64{5, 6}}, {[]int64{7, 8}}})},
		{"a list_view whose rows are out of order and overlap decodes into slices", func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"v", fxListView(t, mem, false)})
			defer rec.Release()
			require.Equal(t, listViewWant, fxDecodeAll[fxListRow](t, rec))
		}},
		{"a large_list_view whose rows are out of order and overlap decodes into slices", func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"v", fxListView(t, mem, true)})
			defer rec.Release()
			require.Equal(t, listViewWant, fxDecodeAll[fxListRow](t, rec))
		}},
		{"list<utf8> decodes into []string", stringListCase(arrow.ListOf(arrow.BinaryTypes.String))},
		{"large_list_view<utf8_view> decodes into []string", stringListCase(arrow.LargeListViewOf(arrow.BinaryTypes.StringView))},
		{"list<dictionary<int8, utf8>> decodes into []string", stringListCase(arrow.ListOf(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}))},
		{"fixed_size_list(3) decodes into [3]int32", func(t *testing.T, mem memory.Allocator) {
			type arrayRow struct {
				V [3]int32  `arrow:"v"`
				N [3]int32  `arrow:"n,nullable"`
				P *[3]int32 `arrow:"p"`
			}
			dt := arrow.FixedSizeListOf(3, arrow.PrimitiveTypes.Int32)
			const full = `[[1, 2, 3], [4, 5, 6], [-1, 0, 1], [7, 8, 9], [10, 11, 12]]`
			const holes = `[[1, 2, 3], null, [-1, 0, 1], null, [10, 11, 12]]`
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, dt, full)}, fxCol{"n", fxJSON(t, mem, dt, holes)}, fxCol{"p", fxJSON(t, mem, dt, holes)})
			defer rec.Release()
			require.Equal(t, []arrayRow{
				{V: [3]int32{1, 2, 3}, N: [3]int32{1, 2, 3}, P: &[3]int32{1, 2, 3}},
				{V: [3]int32{4, 5, 6}},
				{V: [3]int32{-1, 0, 1}, N: [3]int32{-1, 0, 1}, P: &[3]int32{-1, 0, 1}},
				{V: [3]int32{7, 8, 9}},
				{V: [3]int32{10, 11, 12}, N: [3]int32{10, 11, 12}, P: &[3]int32{10, 11, 12}},
			}, fxDecodeAll[arrayRow](t, rec))
		}},
		{"fixed_size_list(2) does not decode into [3]int32", func(t *testing.T, mem memory.Allocator) {
			_, err := mapper.New[fxCell[[3]int32]](fxSchema("v", arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int32)))
			fxRequireError(t, err, mapper.ErrTypeMismatch, "V", "v", -1)
		}},
		{"a nullable element accepts null elements as zero", func(t *testing.T, mem memory.Allocator) {
			type nullableElems struct {
				V []int64 `arrow:"v" arrow-elem:"nullable"`
			}
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, arrow.ListOf(arrow.PrimitiveTypes.Int64), `[[1, null, 3], null, [], [null], [5]]`)})
			defer rec.Release()
			require.Equal(t, []nullableElems{{[]int64{1, 0, 3}}, {nil}, {[]int64{}}, {[]int64{0}}, {[]int64{5}}}, fxDecodeAll[nullableElems](t, rec))
		}},
		{"a null element without arrow-elem nullable is ErrNull", func(t *testing.T, mem memory.Allocator) {
			rec := fxRecord(t, fxCol{"v", fxJSON(t, mem, arrow.ListOf(arrow.PrimitiveTypes.Int64), `[[1, 2], null, [], [3, null], [5]]`)})
			defer rec.Release()
			m, err := mapper.New[fxListRow](rec.Schema())
			require.NoError(t, err)
			_, err = m.View(rec)
			fxRequireError(t, err, mapper.ErrNull, "V[]", "v.item", 3)
			// A slice of the record that leaves the null out views fine.
			head := rec.NewSlice(0, 3)
			defer head.Release()
			got, err := m.Decode(head)
			require.NoError(t, err)
			require.Equal(t, want[:1], got[:1])
		}},
	})
}

type fxListRow struct {
	V []int64 `arrow:"v"`
}

type fxStringListRow struct {
	V []string `arrow:"v"`
}

// fxListView is a list view (large when large is set) of int64 over the
// child 10, 11, 12, 13, 14, 15 whose rows come out of order and overlap:
// [13, 14], [10, 11, 12], [], null, [12, 13], [11].
func fxListView(t *testing.T, mem memory.Allocator, large bool) arrow.Array {
	child := fxJSON(t, mem, arrow.PrimitiveTypes.Int64, `[10, 11, 12, 13, 14, 15]`)
	defer child.Release()
	offsets := []int{3, 0, 5, 0, 2, 1}
	sizes := []int{2, 3, 0, 0, 2, 1}
	validity := memory.NewBufferBytes([]byte{0b110111})
	var dt arrow.DataType
	var offBuf, sizeBuf *memory.Buffer
	if large {
		dt = arrow.LargeListViewOf(arrow.PrimitiveTypes.Int64)
		o, s := make([]int64, len(offsets)), make([]int64, len(sizes))
		for i := range offsets {
			o[i], s[i] = int64(offsets[i]), int64(sizes[i])
		}
		offBuf, sizeBuf = memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(o)), memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(s))
	} else {
		dt = arrow.ListViewOf(arrow.PrimitiveTypes.Int64)
		o, s := make([]int32, len(offsets)), make([]int32, len(sizes))
		for i := range offsets {
			o[i], s[i] = int32(offsets[i]), int32(sizes[i])
		}
		offBuf, sizeBuf = memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(o)), memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(s))
	}
	data := array.NewData(dt, len(offsets), []*memory.Buffer{validity, offBuf, sizeBuf}, []arrow.ArrayData{child.Data()}, 1, 0)
	defer data.Release()
	return array.MakeFromData(data)
}
