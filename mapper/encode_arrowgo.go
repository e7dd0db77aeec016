package mapper

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The adapters below put arrow-go's builders behind columnBuilder, for the
// layouts that have no builder of ours (views, dictionaries, run-end, maps,
// fixed-size lists) and every level below them, and, in tests, for every
// level (NewArrowGoBuilder). Each turns a level's worth of values into
// arrow-go's bulk appends; what arrow-go has no bulk append for, it appends
// value by value itself, without a call through an interface.

// arrowGoBuilder is what every adapter has: the arrow-go builder and the
// adapters of its children.
type arrowGoBuilder struct {
	layout
	b array.Builder
	// own is whether Release releases b: not below another arrow-go
	// builder, which releases its children itself.
	own      bool
	children []columnBuilder
	valid    []bool // scratch for validOf
}

func (a *arrowGoBuilder) Len() int                  { return a.b.Len() }
func (a *arrowGoBuilder) NewArray() arrow.Array     { return a.b.NewArray() }
func (a *arrowGoBuilder) child(i int) columnBuilder { return a.children[i] }

func (a *arrowGoBuilder) Release() {
	for _, c := range a.children {
		c.Release()
	}
	if a.own {
		a.b.Release()
	}
}

// validOf is valid as the bulk appends of arrow-go's nested builders take
// it: one per value even when all are valid.
func (a *arrowGoBuilder) validOf(valid []bool, n int) []bool {
	if valid != nil {
		return valid
	}
	a.valid = allValid(a.valid, n)
	return a.valid
}

// adaptArrowGo puts b and its children behind columnBuilder; Release
// releases b when own. The values of a dictionary are built by a builder
// of newValues, not arrow-go's own: the dictionary builder takes them as
// an array.
func adaptArrowGo(mem memory.Allocator, b array.Builder, newValues func(memory.Allocator, arrow.DataType) columnBuilder, own bool) columnBuilder {
	base := arrowGoBuilder{layout: layout{b.Type()}, b: b, own: own}
	adopt := func(children ...array.Builder) arrowGoBuilder {
		for _, c := range children {
			base.children = append(base.children, adaptArrowGo(mem, c, newValues, false))
		}
		return base
	}
	switch dt := b.Type(); dt.ID() {
	case arrow.INT8:
		return newFixedAdapter[int8](base)
	case arrow.INT16:
		return newFixedAdapter[int16](base)
	case arrow.INT32:
		return newFixedAdapter[int32](base)
	case arrow.INT64:
		return newFixedAdapter[int64](base)
	case arrow.UINT8:
		return newFixedAdapter[uint8](base)
	case arrow.UINT16:
		return newFixedAdapter[uint16](base)
	case arrow.UINT32:
		return newFixedAdapter[uint32](base)
	case arrow.UINT64:
		return newFixedAdapter[uint64](base)
	case arrow.FLOAT16:
		return newFixedAdapter[float16.Num](base)
	case arrow.FLOAT32:
		return newFixedAdapter[float32](base)
	case arrow.FLOAT64:
		return newFixedAdapter[float64](base)
	case arrow.BOOL:
		return newFixedAdapter[bool](base)
	case arrow.DATE32:
		return newFixedAdapter[arrow.Date32](base)
	case arrow.DATE64:
		return newFixedAdapter[arrow.Date64](base)
	case arrow.TIME32:
		return newFixedAdapter[arrow.Time32](base)
	case arrow.TIME64:
		return newFixedAdapter[arrow.Time64](base)
	case arrow.TIMESTAMP:
		return newFixedAdapter[arrow.Timestamp](base)
	case arrow.DURATION:
		return newFixedAdapter[arrow.Duration](base)
	case arrow.DECIMAL32:
		return newFixedAdapter[decimal.Decimal32](base)
	case arrow.DECIMAL64:
		return newFixedAdapter[decimal.Decimal64](base)
	case arrow.DECIMAL128:
		return newFixedAdapter[decimal.Decimal128](base)
	case arrow.DECIMAL256:
		return newFixedAdapter[decimal.Decimal256](base)
	case arrow.NULL:
		return &nullAdapter{arrowGoBuilder: base}
	case arrow.INTERVAL_MONTHS:
		return newFixedAdapter[arrow.MonthInterval](base)
	case arrow.INTERVAL_DAY_TIME:
		return newFixedAdapter[arrow.DayTimeInterval](base)
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return newFixedAdapter[arrow.MonthDayNanoInterval](base)
	case arrow.FIXED_SIZE_BINARY:
		return &fixedBytesAdapter{arrowGoBuilder: base, fsb: b.(*array.FixedSizeBinaryBuilder), width: dt.(*arrow.FixedSizeBinaryType).ByteWidth}
	case arrow.STRING:
		return newBytesAdapter(mem, base, b.(*array.StringBuilder).BinaryBuilder)
	case arrow.LARGE_STRING:
		return newBytesAdapter(mem, base, b.(*array.LargeStringBuilder).BinaryBuilder)
	case arrow.BINARY, arrow.LARGE_BINARY:
		return newBytesAdapter(mem, base, b.(*array.BinaryBuilder))
	case arrow.STRING_VIEW:
		return newBytesAdapter(mem, base, b.(*array.StringViewBuilder).BinaryViewBuilder)
	case arrow.BINARY_VIEW:
		return newBytesAdapter(mem, base, b.(*array.BinaryViewBuilder))
	case arrow.LIST:
		lb := b.(*array.ListBuilder)
		return &listAdapter[int32]{arrowGoBuilder: adopt(lb.ValueBuilder()),
			append: func(offsets, _ []int32, valid []bool) { lb.AppendValues(offsets, valid) }}
	case arrow.LARGE_LIST:
		lb := b.(*array.LargeListBuilder)
		return &listAdapter[int64]{arrowGoBuilder: adopt(lb.ValueBuilder()),
			append: func(offsets, _ []int64, valid []bool) { lb.AppendValues(offsets, valid) }}
	case arrow.LIST_VIEW:
		lb := b.(*array.ListViewBuilder)
		return &listAdapter[int32]{arrowGoBuilder: adopt(lb.ValueBuilder()), append: lb.AppendValuesWithSizes}
	case arrow.LARGE_LIST_VIEW:
		lb := b.(*array.LargeListViewBuilder)
		return &listAdapter[int64]{arrowGoBuilder: adopt(lb.ValueBuilder()), append: lb.AppendValuesWithSizes}
	case arrow.MAP:
		mb := b.(*array.MapBuilder)
		return &listAdapter[int32]{arrowGoBuilder: adopt(mb.KeyBuilder(), mb.ItemBuilder()),
			append: func(offsets, _ []int32, valid []bool) { mb.AppendValues(offsets, valid) }}
	case arrow.STRUCT:
		sb := b.(*array.StructBuilder)
		fields := make([]array.Builder, sb.NumField())
		for i := range fields {
			fields[i] = sb.FieldBuilder(i)
		}
		return &slotsAdapter{arrowGoBuilder: adopt(fields...), append: sb.AppendValues}
	case arrow.FIXED_SIZE_LIST:
		fb := b.(*array.FixedSizeListBuilder)
		return &slotsAdapter{arrowGoBuilder: adopt(fb.ValueBuilder()), append: fb.AppendValues}
	case arrow.RUN_END_ENCODED:
		rb := b.(*array.RunEndEncodedBuilder)
		return &runsAdapter{arrowGoBuilder: adopt(rb.ValueBuilder()), ree: rb}
	case arrow.SPARSE_UNION, arrow.DENSE_UNION:
		return adaptUnion(mem, b, base, newValues, own)
	case arrow.DICTIONARY:
		base.children = []columnBuilder{newValues(mem, dt.(*arrow.DictionaryType).ValueType)}
		return &dictAdapter{arrowGoBuilder: base, dict: b.(array.DictionaryBuilder)}
	case arrow.EXTENSION:
		storage := adaptArrowGo(mem, b.(*array.ExtensionBuilder).Builder, newValues, false)
		return &extensionAdapter{columnBuilder: storage, b: b, own: own}
	}
	return &base // a layout no writer writes
}

// fixedAdapter adapts a builder of fixed-width values of Go type V: the
// values are staged in scratch memory, then appended at once.
type fixedAdapter[V any] struct {
	arrowGoBuilder
	values appender[V]
	staged []V
}

// appender is an arrow-go builder that takes values of Go type V in bulk.
type appender[V any] interface {
	AppendValues(values []V, valid []bool)
}

func newFixedAdapter[V any](base arrowGoBuilder) *fixedAdapter[V] {
	return &fixedAdapter[V]{arrowGoBuilder: base, values: base.b.(appender[V])}
}

func (a *fixedAdapter[V]) stageFixed(n, width int) []byte {
	if width != int(unsafe.Sizeof(*new(V))) {
		panic(fmt.Sprintf("arrowmap: %d-byte values staged into a builder of %s", width, a.dt))
	}
	a.staged = resize(a.staged, n)
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(a.staged))), n*width)
}

func (a *fixedAdapter[V]) appendSlots(n int, valid []bool) {
	a.values.AppendValues(a.staged[:n], valid)
}

// fixedBytesAdapter adapts a builder of fixed_size_binary, which has no
// bulk append of one buffer.
type fixedBytesAdapter struct {
	arrowGoBuilder
	fsb    *array.FixedSizeBinaryBuilder
	width  int
	staged []byte
}

func (a *fixedBytesAdapter) stageFixed(n, width int) []byte {
	if width != a.width {
		panic(fmt.Sprintf("arrowmap: %d-byte values staged into a builder of %s", width, a.dt))
	}
	a.staged = resize(a.staged, n*width)
	return a.staged
}

func (a *fixedBytesAdapter) appendSlots(n int, valid []bool) {
	a.fsb.Reserve(n)
	for k := range n {
		if valid != nil && !valid[k] {
			a.fsb.AppendNull()
		} else {
			a.fsb.UnsafeAppend(a.staged[k*a.width : (k+1)*a.width])
		}
	}
}

// bytesAdapter adapts a builder of utf8, binary or their large and view
// forms: the values are staged as one of our builders stages them, then
// appended as slices of the staged bytes.
type bytesAdapter struct {
	arrowGoBuilder
	values interface {
		AppendValues(values [][]byte, valid []bool)
	}
	dataLen func() int // the bytes held, where the offsets are 32-bit; else nil
	// staging holds the staged values at its start: nothing is ever
	// appended to it.
	staging *binaryBuilder[int64]
	slices  [][]byte
}

func newBytesAdapter(mem memory.Allocator, base arrowGoBuilder, values interface {
	AppendValues(values [][]byte, valid []bool)
}) *bytesAdapter {
	a := &bytesAdapter{arrowGoBuilder: base, values: values, staging: newBinaryBuilder[int64](mem, base.dt)}
	switch base.dt.ID() {
	case arrow.STRING, arrow.BINARY:
		a.dataLen = values.(interface{ DataLen() int }).DataLen
	}
	return a
}

func (a *bytesAdapter) stageBytes(s *goValues, how bytesOf, valid []bool) (nulls bool, bad int, err error) {
	room := math.MaxInt
	if a.dataLen != nil {
		room = maxOffset32 - a.dataLen()
	}
	_, nulls, bad, err = stage(a.staging, s, how, room, valid)
	return nulls, bad, err
}

func (a *bytesAdapter) appendSlots(n int, valid []bool) {
	offsets := a.staging.offsetsFor(n)
	data := a.staging.data.grow(int(offsets[n]))
	a.slices = resize(a.slices, n)
	for k := range a.slices {
		a.slices[k] = data[offsets[k]:offsets[k+1]]
	}
	a.values.AppendValues(a.slices, valid)
	clear(a.slices) // not to keep the staged bytes reachable
}

func (a *bytesAdapter) Release() {
	a.staging.Release()
	a.arrowGoBuilder.Release()
}

// listAdapter adapts a builder of list, large_list, their views, or map,
// whose bulk append takes offsets (and sizes, for views) of type O.
type listAdapter[O int32 | int64] struct {
	arrowGoBuilder
	append         func(offsets, sizes []O, valid []bool)
	offsets, sizes []O
}

func (a *listAdapter[O]) appendLists(sizes []int, valid []bool) {
	n := len(sizes)
	a.offsets, a.sizes = resize(a.offsets, n), resize(a.sizes, n)
	at := a.children[0].Len() // a map's keys
	for k, size := range sizes {
		a.offsets[k], a.sizes[k] = O(at), O(size)
		at += size
	}
	a.append(a.offsets, a.sizes, a.validOf(valid, n))
}

// slotsAdapter adapts a builder of struct or fixed_size_list, whose
// values are its children's.
type slotsAdapter struct {
	arrowGoBuilder
	append func(valid []bool)
}

func (a *slotsAdapter) appendSlots(n int, valid []bool) { a.append(a.validOf(valid, n)) }

// runsAdapter adapts a builder of run_end_encoded.
type runsAdapter struct {
	arrowGoBuilder
	ree *array.RunEndEncodedBuilder
}

func (a *runsAdapter) appendRuns(lengths []uint64) { a.ree.AppendRuns(lengths) }

// dictAdapter adapts a dictionary builder: its values are built as a
// plain array by its child, then added to the dictionary builder, which
// keeps each distinct value once.
type dictAdapter struct {
	arrowGoBuilder
	dict array.DictionaryBuilder
}

func (a *dictAdapter) appendSlots(int, []bool) {
	// arrow-go's dictionary builders remember every value they saw, past
	// NewArray: a record, or an Encode reusing the builders, must not
	// carry the last one's. A builder holding no value starts a record.
	if a.dict.Len() == 0 {
		a.dict.ResetFull()
	}
	values := a.children[0].NewArray()
	defer values.Release()
	if err := a.dict.AppendArray(values); err != nil {
		// The plan only lets through the value types arrow-go memoizes.
		panic(fmt.Sprintf("arrowmap: dictionary of %s: %v", values.DataType(), err))
	}
}

// nullAdapter adapts a builder of the null type: every slot is null.
type nullAdapter struct{ arrowGoBuilder }

func (a *nullAdapter) appendSlots(n int, _ []bool) { a.b.AppendNulls(n) }
