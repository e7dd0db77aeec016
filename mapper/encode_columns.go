package mapper

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// columnBuilder is where an encoder's values go: one of the builders below
// for the plain layouts (fixed-width values, bool, utf8 and binary, list,
// struct), or an arrow-go builder for the others. Ours write their buffers
// directly: arrow-go's binary builder appends each value through an
// indirect call, which made strings the largest part of encoding.
type columnBuilder interface {
	Len() int
	// NewArray is the values appended since the last call, which the caller
	// releases; the builder starts afresh.
	NewArray() arrow.Array
	Release()
}

// newColumnBuilder is a builder of arrays of dt: one of ours where dt and,
// for lists and structs, its children have plain layouts, else arrow-go's,
// which then builds every level below.
func newColumnBuilder(mem memory.Allocator, dt arrow.DataType) columnBuilder {
	switch dt.ID() {
	case arrow.INT8:
		return newFixedBuilder[int8](mem, dt)
	case arrow.INT16:
		return newFixedBuilder[int16](mem, dt)
	case arrow.INT32:
		return newFixedBuilder[int32](mem, dt)
	case arrow.INT64:
		return newFixedBuilder[int64](mem, dt)
	case arrow.UINT8:
		return newFixedBuilder[uint8](mem, dt)
	case arrow.UINT16:
		return newFixedBuilder[uint16](mem, dt)
	case arrow.UINT32:
		return newFixedBuilder[uint32](mem, dt)
	case arrow.UINT64:
		return newFixedBuilder[uint64](mem, dt)
	case arrow.FLOAT16:
		return newFixedBuilder[float16.Num](mem, dt)
	case arrow.FLOAT32:
		return newFixedBuilder[float32](mem, dt)
	case arrow.FLOAT64:
		return newFixedBuilder[float64](mem, dt)
	case arrow.DATE32:
		return newFixedBuilder[arrow.Date32](mem, dt)
	case arrow.DATE64:
		return newFixedBuilder[arrow.Date64](mem, dt)
	case arrow.TIME32:
		return newFixedBuilder[arrow.Time32](mem, dt)
	case arrow.TIME64:
		return newFixedBuilder[arrow.Time64](mem, dt)
	case arrow.TIMESTAMP:
		return newFixedBuilder[arrow.Timestamp](mem, dt)
	case arrow.DURATION:
		return newFixedBuilder[arrow.Duration](mem, dt)
	case arrow.BOOL:
		return &boolBuilder{validity: newValidity(mem), dt: dt, values: growable{mem: mem}}
	case arrow.STRING, arrow.BINARY:
		return newBinaryBuilder[int32](mem, dt)
	case arrow.LARGE_STRING, arrow.LARGE_BINARY:
		return newBinaryBuilder[int64](mem, dt)
	case arrow.LIST:
		return newListBuilder[int32](mem, dt, dt.(*arrow.ListType).Elem())
	case arrow.LARGE_LIST:
		return newListBuilder[int64](mem, dt, dt.(*arrow.LargeListType).Elem())
	case arrow.STRUCT:
		st := dt.(*arrow.StructType)
		sb := &structBuilder{validity: newValidity(mem), dt: dt, fields: make([]columnBuilder, st.NumFields())}
		for i, f := range st.Fields() {
			sb.fields[i] = newColumnBuilder(mem, f.Type)
		}
		return sb
	}
	return array.NewBuilder(mem, dt)
}

// growable is a buffer that grows by doubling, from the size of the last
// one it handed over: a Builder's batches, and Encode's calls, tend to be
// alike, so the second and later ones are allocated once.
type growable struct {
	mem  memory.Allocator
	buf  *memory.Buffer
	last int // bytes of the last buffer taken
}

// grow makes room for n bytes in all and returns the buffer's memory, of
// at least n bytes.
func (g *growable) grow(n int) []byte {
	if g.buf == nil {
		g.buf = memory.NewResizableBuffer(g.mem)
		g.buf.Reserve(max(n, g.last))
	}
	if n > g.buf.Cap() {
		g.buf.Reserve(max(n, 2*g.buf.Cap()))
	}
	return g.buf.Buf()[:g.buf.Cap()]
}

// take hands the first n bytes over to an array and starts afresh. A
// buffer mostly unused, after a smaller batch than the last, is shrunk
// first: an array does not keep the memory of another.
func (g *growable) take(n int) *memory.Buffer {
	b := g.buf
	g.buf, g.last = nil, n
	if b == nil {
		return memory.NewBufferBytes(nil)
	}
	b.ResizeNoShrink(n)
	if b.Cap() > 2*n+4096 {
		small := memory.NewResizableBuffer(g.mem)
		small.Resize(n)
		copy(small.Bytes(), b.Bytes())
		b.Release()
		return small
	}
	return b
}

func (g *growable) release() {
	if g.buf != nil {
		g.buf.Release()
		g.buf = nil
	}
}

// validity is the validity bitmap and length of one of our builders. The
// bitmap is written once the first null comes, until then every value is
// valid and there is none.
type validity struct {
	bits  growable
	n     int
	nulls int
}

func newValidity(mem memory.Allocator) validity { return validity{bits: growable{mem: mem}} }

// append appends the validity of n values, valid[i] for each, or all valid
// when valid is nil.
func (v *validity) append(valid []bool, n int) {
	if valid != nil && v.nulls == 0 {
		for _, ok := range valid {
			if !ok {
				v.materialize()
				break
			}
		}
	}
	if v.nulls == 0 && v.bits.buf == nil {
		v.n += n
		return
	}
	bits := v.bits.grow(bitBytes(v.n + n))
	for i := range n {
		ok := valid == nil || valid[i]
		setBit(bits, v.n+i, ok)
		if !ok {
			v.nulls++
		}
	}
	v.n += n
}

// appendNulls appends the validity of n values, of which those at the
// indexes nulls are null.
func (v *validity) appendNulls(n int, nulls []int) {
	if len(nulls) > 0 {
		v.materialize()
	}
	if v.bits.buf == nil {
		v.n += n
		return
	}
	bits := v.bits.grow(bitBytes(v.n + n))
	for i := range n {
		setBit(bits, v.n+i, true)
	}
	for _, k := range nulls {
		setBit(bits, v.n+k, false)
	}
	v.n += n
	v.nulls += len(nulls)
}

// materialize writes the bitmap of the values so far: all valid.
func (v *validity) materialize() {
	if v.bits.buf != nil {
		return
	}
	bits := v.bits.grow(bitBytes(v.n))
	for i := range v.n {
		setBit(bits, i, true)
	}
}

// take is the bitmap for an array (nil when every value is valid), the
// number of values and of nulls; the validity starts afresh.
func (v *validity) take() (bitmap *memory.Buffer, n, nulls int) {
	n, nulls = v.n, v.nulls
	if v.bits.buf != nil {
		bitmap = v.bits.take(bitBytes(n))
	}
	v.n, v.nulls = 0, 0
	return bitmap, n, nulls
}

func (v *validity) release() { v.bits.release() }

func bitBytes(n int) int { return (n + 7) / 8 }

func setBit(bits []byte, i int, on bool) {
	if on {
		bits[i>>3] |= 1 << (i & 7)
	} else {
		bits[i>>3] &^= 1 << (i & 7)
	}
}

// arrayOf is an array of dt over buffers and children, which it takes
// over.
func arrayOf(dt arrow.DataType, n, nulls int, buffers []*memory.Buffer, children []arrow.ArrayData) arrow.Array {
	data := array.NewData(dt, n, buffers, children, nulls, 0)
	for _, b := range buffers {
		if b != nil {
			b.Release()
		}
	}
	arr := array.MakeFromData(data)
	data.Release()
	return arr
}

// fixedBuilder builds arrays of fixed-width values of Go type V.
type fixedBuilder[V any] struct {
	validity
	dt     arrow.DataType
	values growable
}

func newFixedBuilder[V any](mem memory.Allocator, dt arrow.DataType) *fixedBuilder[V] {
	return &fixedBuilder[V]{validity: newValidity(mem), dt: dt, values: growable{mem: mem}}
}

func (b *fixedBuilder[V]) Len() int { return b.n }

// AppendValues appends values, valid[i] saying whether values[i] is valid
// (all are when valid is nil), as arrow-go's builders do.
func (b *fixedBuilder[V]) AppendValues(values []V, valid []bool) {
	size := int(unsafe.Sizeof(*new(V)))
	buf := b.values.grow((b.n + len(values)) * size)
	copy(unsafe.Slice((*V)(unsafe.Pointer(unsafe.SliceData(buf))), b.n+len(values))[b.n:], values)
	b.append(valid, len(values))
}

// appendGathered appends the values of s, gathered straight into the
// buffer, with their validity as AppendValues takes it.
func (b *fixedBuilder[V]) appendGathered(s *goValues, valid []bool) {
	size := int(unsafe.Sizeof(*new(V)))
	buf := b.values.grow((b.n + s.n) * size)
	gather(s, unsafe.Slice((*V)(unsafe.Pointer(unsafe.SliceData(buf))), b.n+s.n)[b.n:])
	b.append(valid, s.n)
}

func (b *fixedBuilder[V]) NewArray() arrow.Array {
	n := b.n
	values := b.values.take(n * int(unsafe.Sizeof(*new(V))))
	bitmap, n, nulls := b.take()
	return arrayOf(b.dt, n, nulls, []*memory.Buffer{bitmap, values}, nil)
}

func (b *fixedBuilder[V]) Release() {
	b.validity.release()
	b.values.release()
}

// boolBuilder builds bool arrays.
type boolBuilder struct {
	validity
	dt     arrow.DataType
	values growable
}

func (b *boolBuilder) Len() int { return b.n }

// AppendValues appends values, as arrow-go's BooleanBuilder does.
func (b *boolBuilder) AppendValues(values []bool, valid []bool) {
	bits := b.values.grow(bitBytes(b.n + len(values)))
	for i, v := range values {
		setBit(bits, b.n+i, v)
	}
	b.append(valid, len(values))
}

func (b *boolBuilder) NewArray() arrow.Array {
	values := b.values.take(bitBytes(b.n))
	bitmap, n, nulls := b.take()
	return arrayOf(b.dt, n, nulls, []*memory.Buffer{bitmap, values}, nil)
}

func (b *boolBuilder) Release() {
	b.validity.release()
	b.values.release()
}

// binaryBuilder builds utf8, binary, large_utf8 and large_binary arrays.
type binaryBuilder[O int32 | int64] struct {
	validity
	dt      arrow.DataType
	offsets growable // n+1 offsets once anything is appended
	data    growable
	size    int // bytes of data
}

func newBinaryBuilder[O int32 | int64](mem memory.Allocator, dt arrow.DataType) *binaryBuilder[O] {
	return &binaryBuilder[O]{validity: newValidity(mem), dt: dt, offsets: growable{mem: mem}, data: growable{mem: mem}}
}

func (b *binaryBuilder[O]) Len() int { return b.n }

// Type is the datatype of the arrays built.
func (b *binaryBuilder[O]) Type() arrow.DataType { return b.dt }

// DataLen is the bytes of the values appended so far.
func (b *binaryBuilder[O]) DataLen() int { return b.size }

// offsetsFor is the offsets buffer with room for n values, as []O.
func (b *binaryBuilder[O]) offsetsFor(n int) []O {
	buf := b.offsets.grow((n + 1) * int(unsafe.Sizeof(O(0))))
	return unsafe.Slice((*O)(unsafe.Pointer(unsafe.SliceData(buf))), n+1)
}

// Reserve makes room for n more values.
func (b *binaryBuilder[O]) Reserve(n int) { b.offsetsFor(b.n + n) }

// ReserveData makes room for n more bytes.
func (b *binaryBuilder[O]) ReserveData(n int) { b.data.grow(b.size + n) }

// AppendValues appends values, valid[i] saying whether values[i] is valid
// (all are when valid is nil). A null's bytes are written as they are:
// the writers hand over empty ones.
func (b *binaryBuilder[O]) AppendValues(values [][]byte, valid []bool) {
	total := 0
	for _, v := range values {
		total += len(v)
	}
	data := b.data.grow(b.size + total)
	offsets := b.offsetsFor(b.n + len(values))[b.n:]
	at := b.size
	for i, v := range values {
		offsets[i] = O(at)
		at += copy(data[at:], v)
	}
	offsets[len(values)] = O(at)
	b.size = at
	b.append(valid, len(values))
}

// commit takes in the n values stage wrote, up to end in the data, nulls
// being null.
func (b *binaryBuilder[O]) commit(n, end int, nulls []int) {
	b.size = end
	b.appendNulls(n, nulls)
}

// UnsafeAppend appends one valid value.
func (b *binaryBuilder[O]) UnsafeAppend(v []byte) { b.AppendValues([][]byte{v}, nil) }

// AppendNull appends a null.
func (b *binaryBuilder[O]) AppendNull() { b.AppendValues([][]byte{nil}, []bool{false}) }

// AppendEmptyValue appends an empty, valid value.
func (b *binaryBuilder[O]) AppendEmptyValue() { b.AppendValues([][]byte{nil}, nil) }

func (b *binaryBuilder[O]) NewArray() arrow.Array {
	offsets := b.offsetsFor(b.n) // writes offset 0 of an empty array
	offsets[b.n] = O(b.size)
	offsetBuf := b.offsets.take((b.n + 1) * int(unsafe.Sizeof(O(0))))
	data := b.data.take(b.size)
	b.size = 0
	bitmap, n, nulls := b.take()
	return arrayOf(b.dt, n, nulls, []*memory.Buffer{bitmap, offsetBuf, data}, nil)
}

func (b *binaryBuilder[O]) Release() {
	b.validity.release()
	b.offsets.release()
	b.data.release()
}

// listBuilder builds list and large_list arrays.
type listBuilder[O int32 | int64] struct {
	validity
	dt      arrow.DataType
	offsets growable
	child   columnBuilder
}

func newListBuilder[O int32 | int64](mem memory.Allocator, dt, elem arrow.DataType) *listBuilder[O] {
	return &listBuilder[O]{validity: newValidity(mem), dt: dt, offsets: growable{mem: mem}, child: newColumnBuilder(mem, elem)}
}

func (b *listBuilder[O]) Len() int { return b.n }

// AppendValues appends lists that start at offsets in the child, as
// arrow-go's ListBuilder does; the last ends where the child does.
func (b *listBuilder[O]) AppendValues(offsets []O, valid []bool) {
	buf := b.offsets.grow((b.n + len(offsets) + 1) * int(unsafe.Sizeof(O(0))))
	copy(unsafe.Slice((*O)(unsafe.Pointer(unsafe.SliceData(buf))), b.n+len(offsets))[b.n:], offsets)
	b.append(valid, len(offsets))
}

// ValueBuilder is the builder of the elements.
func (b *listBuilder[O]) ValueBuilder() columnBuilder { return b.child }

func (b *listBuilder[O]) NewArray() arrow.Array {
	buf := b.offsets.grow((b.n + 1) * int(unsafe.Sizeof(O(0))))
	unsafe.Slice((*O)(unsafe.Pointer(unsafe.SliceData(buf))), b.n+1)[b.n] = O(b.child.Len())
	offsets := b.offsets.take((b.n + 1) * int(unsafe.Sizeof(O(0))))
	child := b.child.NewArray()
	defer child.Release()
	bitmap, n, nulls := b.take()
	return arrayOf(b.dt, n, nulls, []*memory.Buffer{bitmap, offsets}, []arrow.ArrayData{child.Data()})
}

func (b *listBuilder[O]) Release() {
	b.validity.release()
	b.offsets.release()
	b.child.Release()
}

// structBuilder builds struct arrays.
type structBuilder struct {
	validity
	dt     arrow.DataType
	fields []columnBuilder
}

func (b *structBuilder) Len() int { return b.n }

// AppendValues appends len(valid) structs, as arrow-go's StructBuilder
// does: their fields go to the field builders.
func (b *structBuilder) AppendValues(valid []bool) { b.append(valid, len(valid)) }

// FieldBuilder is the builder of field i.
func (b *structBuilder) FieldBuilder(i int) columnBuilder { return b.fields[i] }

func (b *structBuilder) NewArray() arrow.Array {
	children := make([]arrow.ArrayData, len(b.fields))
	for i, f := range b.fields {
		arr := f.NewArray()
		defer arr.Release()
		children[i] = arr.Data()
	}
	bitmap, n, nulls := b.take()
	return arrayOf(b.dt, n, nulls, []*memory.Buffer{bitmap}, children)
}

func (b *structBuilder) Release() {
	b.validity.release()
	for _, f := range b.fields {
		f.Release()
	}
}
