package arrowtest

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Ints is an array of dt, a fixed-width type of 32 or 64 bits (a date, a
// time, a timestamp, a duration, an integer), holding values, each null
// where nulls holds true: arrow-go's builder of an integer of that width,
// its buffers given dt.
func Ints(mem memory.Allocator, dt arrow.DataType, values []int64, nulls ...bool) arrow.Array {
	wide := dt.(arrow.FixedWidthDataType).BitWidth() == 64
	var b array.Builder = array.NewInt32Builder(mem)
	if wide {
		b = array.NewInt64Builder(mem)
	}
	defer b.Release()
	for i, v := range values {
		switch {
		case i < len(nulls) && nulls[i]:
			b.AppendNull()
		case wide:
			b.(*array.Int64Builder).Append(v)
		default:
			b.(*array.Int32Builder).Append(int32(v))
		}
	}
	ints := b.NewArray()
	defer ints.Release()
	d := array.NewData(dt, ints.Len(), ints.Data().Buffers(), nil, ints.NullN(), 0)
	defer d.Release()
	return array.MakeFromData(d)
}
