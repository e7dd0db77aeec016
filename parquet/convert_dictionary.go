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
