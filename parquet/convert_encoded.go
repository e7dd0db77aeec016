package parquet

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/internal/dictindex"
	"github.com/arrowmap/arrowmap/mapper"
)

// decodeRunEnds is the values of the run-end encoded a, one a row, as to.
func decodeRunEnds(a arrowtype.RunEndArray, to arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	values, err := convertArray(a.Values(), to, mem)
	if err != nil {
		return nil, err
	}
	defer values.Release()
	idx := array.NewInt64Builder(mem)
	defer idx.Release()
	idx.Reserve(a.Len())
	off, n := int64(a.Data().Offset()), int64(a.Len())
	ends := runEnds(a.RunEndsArr())
	for p := a.GetPhysicalOffset(); p < len(ends) && off < int64(a.Data().Offset())+n; p++ {
		end := min(ends[p], int64(a.Data().Offset())+n)
		for ; off < end; off++ {
			idx.UnsafeAppend(int64(p))
		}
	}
	if idx.Len() != a.Len() {
		return nil, fmt.Errorf("%w: run ends cover %d of %d rows", mapper.ErrInvalidData, idx.Len(), a.Len())
	}
	indices := idx.NewArray()
	defer indices.Release()
	return take(values, indices, mem)
}

// runEnds is the run ends of an array of run-end encoded rows (int16,
// int32 or int64) as int64s.
func runEnds(ends arrow.Array) []int64 {
	switch arrowtype.OfType(ends.DataType()).Value {
	case arrowtype.Int16:
		return widen(arrowtype.Values[int16](ends.Data()))
	case arrowtype.Int32:
		return widen(arrowtype.Values[int32](ends.Data()))
	case arrowtype.Int64:
		return arrowtype.Values[int64](ends.Data())
	}
	return nil
}

func widen[T int16 | int32](vals []T) []int64 {
	out := make([]int64, len(vals))
	for i, v := range vals {
		out[i] = int64(v)
	}
	return out
}

// encodeRunEnds is values as the run-end encoded to: equal neighbours one
// run.
func encodeRunEnds(values arrow.Array, to arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	n := values.Len()
	starts := array.NewInt64Builder(mem)
	defer starts.Release()
	var ends []int
	for i := 0; i < n; {
		j := i + 1
		for j < n && array.SliceEqual(values, int64(i), int64(i+1), values, int64(j), int64(j+1)) {
			j++
		}
		starts.Append(int64(i))
		ends = append(ends, j)
		i = j
	}
	endsType, _ := arrowtype.RunEnds(to)
	if r := arrowtype.OfType(endsType); !r.Integer || !r.Signed || uint64(n) > dictindex.Max(endsType) {
		return nil, fmt.Errorf("%w: %d rows overflow run ends of %s", mapper.ErrInvalidData, n, endsType)
	}
	runEnds := dictindex.Array(mem, endsType, ends)
	defer runEnds.Release()
	si := starts.NewArray()
	defer si.Release()
	runValues, err := take(values, si, mem)
	if err != nil {
		return nil, err
	}
	defer runValues.Release()
	d := array.NewData(to, n, []*memory.Buffer{nil}, []arrow.ArrayData{runEnds.Data(), runValues.Data()}, 0, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// convertDictionary is the dictionary a as the dictionary to: its values
// converted, its indices of to's index type, and null where the entry they
// point to is null, so that the dictionary holds no null (which pqarrow
// does not write, and Parquet's dictionary pages have no place for).
func convertDictionary(a arrowtype.DictionaryArray, to arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	dict := a.Dictionary()
	valueType, _ := arrowtype.Encoded(to)
	values, err := convertArray(dict, valueType, mem)
	if err != nil {
		return nil, err
	}
	defer values.Release()
	fromIndex, _ := arrowtype.DictionaryIndices(a.DataType())
	toIndex, _ := arrowtype.DictionaryIndices(to)
	if dict.NullN() == 0 && arrow.TypeEqual(fromIndex, toIndex) {
		return array.NewDictionaryArray(to, a.Indices(), values), nil
	}
	if values.NullN() > 0 {
		vd := values.Data()
		bufs := append([]*memory.Buffer{nil}, vd.Buffers()[1:]...)
		nd := array.NewData(vd.DataType(), vd.Len(), bufs, vd.Children(), 0, vd.Offset())
		defer nd.Release()
		values.Release()
		values = array.MakeFromData(nd)
	}
	indices, err := indexArray(toIndex, a.Len(), func(i int) (int, bool) {
		if a.IsNull(i) || dict.IsNull(a.GetValueIndex(i)) {
			return 0, false
		}
		return a.GetValueIndex(i), true
	}, mem)
	if err != nil {
		return nil, err
	}
	defer indices.Release()
	return array.NewDictionaryArray(to, indices, values), nil
}

// encodeDictionary is a as the dictionary to: its values looked up, for
// values arrow-go's dictionary builder takes, else each value its own
// entry.
func encodeDictionary(a arrow.Array, to arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	valueType, _ := arrowtype.Encoded(to)
	values, err := convertArray(a, valueType, mem)
	if err != nil {
		return nil, err
	}
	defer values.Release()
	if flatDictionary(valueType) {
		b := array.NewBuilder(mem, to) // a dictionary builder, which looks values up
		defer b.Release()
		if err := b.(interface{ AppendArray(arrow.Array) error }).AppendArray(values); err != nil {
			return nil, err
		}
		return b.NewArray(), nil
	}
	indexType, _ := arrowtype.DictionaryIndices(to)
	indices, err := indexArray(indexType, a.Len(), func(i int) (int, bool) { return i, values.IsValid(i) }, mem)
	if err != nil {
		return nil, err
	}
	defer indices.Release()
	return array.NewDictionaryArray(to, indices, values), nil
}

// indexArray is n indices of dt, index(i) for each (null when not ok).
func indexArray(dt arrow.DataType, n int, index func(int) (int, bool), mem memory.Allocator) (arrow.Array, error) {
	limit := dictindex.Max(dt)
	indices := make([]int, n)
	for i := range indices {
		v, ok := index(i)
		switch {
		case !ok:
			v = -1
		case uint64(v) > limit:
			return nil, &rowError{i, fmt.Errorf("%w: dictionary index %d overflows %s", mapper.ErrInvalidData, v, dt)}
		}
		indices[i] = v
	}
	return dictindex.Array(mem, dt, indices), nil
}
