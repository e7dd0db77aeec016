package mapper

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
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
	dt := b.Type()
	switch r := arrowtype.OfType(dt); r.Layout {
	case arrowtype.Fixed:
		return kitOf(r.Value).adapter(base)
	case arrowtype.Boolean:
		return &fixedAdapter[bool]{arrowGoBuilder: base, values: b.(appender[bool]).AppendValues}
	case arrowtype.Null:
		return &nullAdapter{arrowGoBuilder: base}
	case arrowtype.FixedBinary:
		return &fixedBytesAdapter{arrowGoBuilder: base, fsb: b.(fixedBytesAppender), width: arrowtype.ByteWidth(dt)}
	case arrowtype.Binary, arrowtype.View:
		return newBytesAdapter(mem, base, r)
	case arrowtype.List, arrowtype.ListView:
		if r.Large {
			return newListAdapter[int64](base, adopt, r)
		}
		return newListAdapter[int32](base, adopt, r)
	case arrowtype.Struct:
		sb := b.(interface {
			NumField() int
			FieldBuilder(i int) array.Builder
			AppendValues(valid []bool)
		})
		fields := make([]array.Builder, sb.NumField())
		for i := range fields {
			fields[i] = sb.FieldBuilder(i)
		}
		return &slotsAdapter{arrowGoBuilder: adopt(fields...), append: sb.AppendValues}
	case arrowtype.FixedList:
		fb := b.(interface {
			ValueBuilder() array.Builder
			AppendValues(valid []bool)
		})
		return &slotsAdapter{arrowGoBuilder: adopt(fb.ValueBuilder()), append: fb.AppendValues}
	case arrowtype.RunEnd:
		rb := b.(interface {
			ValueBuilder() array.Builder
			AppendRuns(runs []uint64)
		})
		return &runsAdapter{arrowGoBuilder: adopt(rb.ValueBuilder()), runs: rb.AppendRuns}
	case arrowtype.Union:
		return adaptUnion(mem, b, r, base, newValues, own)
	case arrowtype.Dictionary:
		values, _ := arrowtype.Encoded(dt)
		base.children = []columnBuilder{newValues(mem, values)}
		return &dictAdapter{arrowGoBuilder: base, dict: b.(dictionaryAppender)}
	case arrowtype.Extension:
		storage := adaptArrowGo(mem, b.(interface{ StorageBuilder() array.Builder }).StorageBuilder(), newValues, false)
		return &extensionAdapter{columnBuilder: storage, b: b, own: own}
	}
	return &base // a layout no writer writes
}

// fixedAdapter adapts a builder of fixed-width values of Go type V: the
// values are staged in scratch memory, then appended at once.
type fixedAdapter[V any] struct {
	arrowGoBuilder
	values func(values []V, valid []bool)
	staged []V
}

// appender is an arrow-go builder that takes values of Go type V in bulk.
type appender[V any] interface {
	AppendValues(values []V, valid []bool)
}

// newFixedAdapter adapts a builder whose buffer holds values of V.
func newFixedAdapter[V arrowtype.FixedValue](base arrowGoBuilder) columnBuilder {
	values, ok := arrowtype.AppendValues[V](base.b)
	if !ok {
		panic(fmt.Sprintf("arrowmap: arrow-go's builder of %s takes no %T", base.dt, *new(V)))
	}
	return &fixedAdapter[V]{arrowGoBuilder: base, values: values}
}

func (a *fixedAdapter[V]) stageFixed(n, width int) []byte {
	if width != int(unsafe.Sizeof(*new(V))) {
		panic(fmt.Sprintf("arrowmap: %d-byte values staged into a builder of %s", width, a.dt))
	}
	a.staged = resize(a.staged, n)
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(a.staged))), n*width)
}

func (a *fixedAdapter[V]) appendSlots(n int, valid []bool) {
	a.values(a.staged[:n], valid)
}

// fixedBytesAppender is arrow-go's builder of fixed_size_binary.
type fixedBytesAppender interface {
	Reserve(n int)
	AppendNull()
	UnsafeAppend(v []byte)
}

// fixedBytesAdapter adapts a builder of fixed_size_binary, which has no
// bulk append of one buffer.
type fixedBytesAdapter struct {
	arrowGoBuilder
	fsb    fixedBytesAppender
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
// appended as slices (strings, for the text layouts) of the staged bytes.
type bytesAdapter struct {
	arrowGoBuilder
	bytes   func(values [][]byte, valid []bool) // binary layouts
	strings func(values []string, valid []bool) // text layouts
	dataLen func() int                          // the bytes held, where the offsets are 32-bit; else nil
	// staging holds the staged values at its start: nothing is ever
	// appended to it.
	staging *binaryBuilder[int64]
	slices  [][]byte
	texts   []string
}

func newBytesAdapter(mem memory.Allocator, base arrowGoBuilder, r *arrowtype.Row) *bytesAdapter {
	a := &bytesAdapter{arrowGoBuilder: base, staging: newBinaryBuilder[int64](mem, base.dt)}
	if r.Text {
		a.strings = base.b.(appender[string]).AppendValues
	} else {
		a.bytes = base.b.(appender[[]byte]).AppendValues
	}
	if r.Layout == arrowtype.Binary && !r.Large {
		a.dataLen = base.b.(interface{ DataLen() int }).DataLen
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
	if a.strings != nil {
		// The strings alias the staged bytes only while the builder copies
		// them.
		a.texts = resize(a.texts, n)
		for k := range a.texts {
			a.texts[k] = unsafe.String(unsafe.SliceData(data[offsets[k]:]), offsets[k+1]-offsets[k])
		}
		a.strings(a.texts, valid)
		clear(a.texts)
		return
	}
	a.slices = resize(a.slices, n)
	for k := range a.slices {
		a.slices[k] = data[offsets[k]:offsets[k+1]]
	}
	a.bytes(a.slices, valid)
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

// newListAdapter adapts the builder of a list layout of r with offsets
// of O, its children adopted by adopt: a map's keys and items, another
// list's elements.
func newListAdapter[O int32 | int64](base arrowGoBuilder, adopt func(...array.Builder) arrowGoBuilder, r *arrowtype.Row) *listAdapter[O] {
	a := &listAdapter[O]{}
	if r.Map {
		mb := base.b.(interface {
			KeyBuilder() array.Builder
			ItemBuilder() array.Builder
		})
		a.arrowGoBuilder = adopt(mb.KeyBuilder(), mb.ItemBuilder())
	} else {
		a.arrowGoBuilder = adopt(base.b.(interface{ ValueBuilder() array.Builder }).ValueBuilder())
	}
	if r.Layout == arrowtype.ListView {
		a.append = base.b.(interface {
			AppendValuesWithSizes(offsets, sizes []O, valid []bool)
		}).AppendValuesWithSizes
	} else {
		lb := base.b.(appender[O])
		a.append = func(offsets, _ []O, valid []bool) { lb.AppendValues(offsets, valid) }
	}
	return a
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
	runs func(lengths []uint64)
}

func (a *runsAdapter) appendRuns(lengths []uint64) { a.runs(lengths) }

// dictAdapter adapts a dictionary builder: its values are built as a
// plain array by its child, then added to the dictionary builder, which
// keeps each distinct value once.
type dictAdapter struct {
	arrowGoBuilder
	dict dictionaryAppender
}

// dictionaryAppender is arrow-go's dictionary builder as the adapter uses
// it.
type dictionaryAppender interface {
	Len() int
	ResetFull()
	AppendArray(values arrow.Array) error
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
