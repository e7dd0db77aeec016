package mapper

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"unicode/utf8"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/arrowcheck"
	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

// columnBuilder is where a writer's values go, whoever builds them: one of
// the builders below, which own their buffers, for the plain layouts
// (fixed-width values, bool, utf8 and binary, list, struct), or an adapter
// over arrow-go's builders for the others (encode_builders_arrowgo.go).
// Ours write their buffers directly: arrow-go's binary builder appends
// each value through an indirect call, which made strings the largest
// part of encoding.
//
// Writers hand a level over a whole Append at a time, never a value per
// call. What prepare computes goes past the end of what the builder holds
// (stageFixed, stageBytes), where it does not count until write appends
// it (appendSlots): a failed Append leaves the builder as it was. A builder
// has only the methods of its layout; the others panic, as the plan never
// pairs a writer with a builder of another layout.
type columnBuilder interface {
	// Len is the number of values appended so far.
	Len() int
	// NewArray is the values appended since the last call, which the caller
	// releases; the builder starts afresh.
	NewArray() arrow.Array
	Release()

	// child is the builder of child i: the elements of a list or
	// fixed-size list (0), field i of a struct, the keys (0) and items (1)
	// of a map, the values of a run-end or dictionary encoding (0).
	child(i int) columnBuilder
	// stageFixed is room for n more fixed-width values of width bytes each
	// (a bool is one byte, as in Go), past the end, for the caller to fill.
	stageFixed(n, width int) []byte
	// stageBytes writes the strings or []byte of s (as b says) past the
	// end: an absent value is null where nullable, else empty, and a nil
	// []byte is null. valid[k], for each value k of s, says whether k is
	// valid, and nulls whether any is not. bad is -1, or the first value
	// that does not fit the layout's offsets or, in a utf8 column, is not
	// UTF-8, and err says which.
	stageBytes(s *goValues, b bytesOf, valid []bool) (nulls bool, bad int, err error)
	// appendSlots appends n values: the n staged, or those the children
	// are given (struct, fixed-size list, dictionary). valid[k] says
	// whether value k is valid, nil when all are; a dictionary's nulls are
	// its values'.
	appendSlots(n int, valid []bool)
	// appendLists appends len(sizes) lists (list, list view, map) of
	// sizes[k] elements each: the next elements the child is given.
	appendLists(sizes []int, valid []bool)
	// appendRuns appends runs of lengths[k] values, one run per value the
	// child is given (run-end encoding).
	appendRuns(lengths []uint64)
	// appendUnion appends len(codes) union rows of type codes codes.
	appendUnion(codes []int8)
}

// layout is the datatype a builder builds, and the methods of the layouts
// it does not build, which panic.
type layout struct{ dt arrow.DataType }

func (l layout) child(int) columnBuilder                                  { panic(l.hasNo("children")) }
func (l layout) stageFixed(int, int) []byte                               { panic(l.hasNo("fixed-width values")) }
func (l layout) stageBytes(*goValues, bytesOf, []bool) (bool, int, error) { panic(l.hasNo("bytes")) }
func (l layout) appendSlots(int, []bool)                                  { panic(l.hasNo("slots")) }
func (l layout) appendLists([]int, []bool)                                { panic(l.hasNo("lists")) }
func (l layout) appendRuns([]uint64)                                      { panic(l.hasNo("runs")) }
func (l layout) appendUnion([]int8)                                       { panic(l.hasNo("union rows")) }

func (l layout) hasNo(what string) string {
	return fmt.Sprintf("arrowmap: a builder of %s takes no %s", l.dt, what)
}

// newColumnBuilder is a builder of arrays of dt: one of ours where dt and,
// for lists and structs, its children have plain layouts, else arrow-go's,
// which then builds every level below but the values of dictionaries.
func newColumnBuilder(mem memory.Allocator, dt arrow.DataType) columnBuilder {
	switch r := arrowtype.OfType(dt); r.Layout {
	case arrowtype.Fixed, arrowtype.FixedBinary:
		return &fixedBuilder{layout: layout{dt}, validity: newValidity(mem), width: arrowtype.ByteWidth(dt), values: growable{mem: mem}}
	case arrowtype.Boolean:
		return &boolBuilder{layout: layout{dt}, validity: newValidity(mem), values: growable{mem: mem}}
	case arrowtype.Binary:
		if r.Large {
			return newBinaryBuilder[int64](mem, dt)
		}
		return newBinaryBuilder[int32](mem, dt)
	case arrowtype.List:
		if r.Map {
			break // arrow-go's
		}
		elem := dt.(arrow.ListLikeType).Elem()
		if r.Large {
			return newListBuilder[int64](mem, dt, elem)
		}
		return newListBuilder[int32](mem, dt, elem)
	case arrowtype.Struct:
		fields := dt.(arrow.NestedType).Fields()
		sb := &structBuilder{layout: layout{dt}, validity: newValidity(mem), fields: make([]columnBuilder, len(fields))}
		for i, f := range fields {
			sb.fields[i] = newColumnBuilder(mem, f.Type)
		}
		return sb
	case arrowtype.Extension:
		ext, _ := arrowtype.ExtensionOf(dt)
		return newExtensionBuilder(mem, ext, newColumnBuilder)
	case arrowtype.Dictionary:
		if !memoizedByArrowGo(dt) {
			return newDictionaryBuilder(mem, dt, newColumnBuilder)
		}
	case arrowtype.Union:
		return newUnionBuilder(mem, dt, newColumnBuilder)
	}
	return adaptArrowGo(mem, array.NewBuilder(mem, dt), newColumnBuilder, true)
}

// buildsChildren reports whether newColumnBuilder builds the children of
// a level of r as levels of their own, with builders of ours: a struct's,
// a union's and a list's (not a map's). Below any other level, arrow-go's
// builder of that level is in charge.
func buildsChildren(r *arrowtype.Row) bool {
	return r.Layout == arrowtype.Struct || r.Layout == arrowtype.Union || r.Layout == arrowtype.List && !r.Map
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

// fixedBuilder builds arrays of fixed-width values of width bytes: numbers,
// temporal values, decimals, fixed_size_binary.
type fixedBuilder struct {
	layout
	validity
	width  int
	values growable
}

func (b *fixedBuilder) Len() int { return b.n }

func (b *fixedBuilder) stageFixed(n, width int) []byte {
	if width != b.width {
		panic(fmt.Sprintf("arrowmap: %d-byte values staged into a builder of %s", width, b.dt))
	}
	buf := b.values.grow((b.n + n) * width)
	return buf[b.n*width : (b.n+n)*width]
}

func (b *fixedBuilder) appendSlots(n int, valid []bool) { b.append(valid, n) }

func (b *fixedBuilder) NewArray() arrow.Array {
	values := b.values.take(b.n * b.width)
	bitmap, n, nulls := b.take()
	return arrayOf(b.dt, n, nulls, []*memory.Buffer{bitmap, values}, nil)
}

func (b *fixedBuilder) Release() {
	b.validity.release()
	b.values.release()
}

// boolBuilder builds bool arrays. Values are staged a Go bool a byte, and
// packed into bits as they are appended.
type boolBuilder struct {
	layout
	validity
	values growable
	staged []bool
}

func (b *boolBuilder) Len() int { return b.n }

func (b *boolBuilder) stageFixed(n, width int) []byte {
	if width != 1 {
		panic(fmt.Sprintf("arrowmap: %d-byte values staged into a builder of %s", width, b.dt))
	}
	b.staged = resize(b.staged, n)
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(b.staged))), n)
}

func (b *boolBuilder) appendSlots(n int, valid []bool) {
	bits := b.values.grow(bitBytes(b.n + n))
	for i, v := range b.staged[:n] {
		setBit(bits, b.n+i, v)
	}
	b.append(valid, n)
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
	layout
	validity
	offsets growable // n+1 offsets once anything is appended
	data    growable
	size    int // bytes of data
	staged  int // the end of the data staged past size
}

func newBinaryBuilder[O int32 | int64](mem memory.Allocator, dt arrow.DataType) *binaryBuilder[O] {
	return &binaryBuilder[O]{layout: layout{dt}, validity: newValidity(mem), offsets: growable{mem: mem}, data: growable{mem: mem}}
}

func (b *binaryBuilder[O]) Len() int { return b.n }

// offsetsFor is the offsets buffer with room for n values, as []O.
func (b *binaryBuilder[O]) offsetsFor(n int) []O {
	buf := b.offsets.grow((n + 1) * int(unsafe.Sizeof(O(0))))
	return unsafe.Slice((*O)(unsafe.Pointer(unsafe.SliceData(buf))), n+1)
}

func (b *binaryBuilder[O]) stageBytes(s *goValues, how bytesOf, valid []bool) (nulls bool, bad int, err error) {
	room := math.MaxInt
	if unsafe.Sizeof(O(0)) == 4 {
		room = maxOffset32 - b.size
	}
	b.staged, nulls, bad, err = stage(b, s, how, room, valid)
	return nulls, bad, err
}

func (b *binaryBuilder[O]) appendSlots(n int, valid []bool) {
	b.size = b.staged
	b.append(valid, n)
}

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

// bytesOf says what stageBytes reads and what the column takes.
type bytesOf struct {
	text     bool // the values are strings, else []byte
	utf8     bool // the column is utf8 (large_utf8, utf8_view): every value must be UTF-8
	nullable bool // an absent value is null, else empty
}

// stage writes the strings or []byte of s past the end of b, as
// stageBytes: offsets and bytes straight from the Go values, no more than
// room bytes; in a utf8 column, the bytes copied are then checked to be
// UTF-8 while they are in cache. It returns the end of the data, whether a
// value is null, and -1 or the first value past room or not UTF-8, with
// why.
func stage[O int32 | int64](b *binaryBuilder[O], s *goValues, how bytesOf, room int, valid []bool) (end int, nulls bool, bad int, err error) {
	offsets := b.offsetsFor(b.n + s.n)[b.n:]
	data := b.data.grow(b.size)
	at, k := b.size, 0
	limit := b.size + room // past it, a value does not fit
	if room > math.MaxInt-b.size {
		limit = math.MaxInt
	}
	for i := range s.numSpans() {
		sp := s.span(i)
		p, n := sp.p, sp.n
		switch {
		case p == nil:
			for j := range n {
				offsets[k+j] = O(at)
				valid[k+j] = !how.nullable
			}
			nulls = nulls || how.nullable && n > 0
		case how.text:
			for j := range n {
				v := *(*string)(s.at(p, j))
				offsets[k+j] = O(at)
				valid[k+j] = true
				if len(v) > limit-at {
					bad, err := pastRoom(offsets[:k+j+1], data, how)
					return at, nulls, bad, err
				}
				if len(v) > len(data)-at {
					data = b.data.grow(at + len(v))
				}
				at += copy(data[at:], v)
			}
		default:
			for j := range n {
				v := *(*[]byte)(s.at(p, j))
				offsets[k+j] = O(at)
				valid[k+j] = v != nil
				nulls = nulls || v == nil
				if len(v) > limit-at {
					bad, err := pastRoom(offsets[:k+j+1], data, how)
					return at, nulls, bad, err
				}
				if len(v) > len(data)-at {
					data = b.data.grow(at + len(v))
				}
				at += copy(data[at:], v)
			}
		}
		k += n
	}
	offsets[k] = O(at)
	if how.utf8 {
		if bad := firstNotUTF8(offsets[:k+1], data); bad >= 0 {
			return at, nulls, bad, notUTF8(string(data[offsets[bad]:offsets[bad+1]]))
		}
	}
	return at, nulls, -1, nil
}

// pastRoom is the value stage stops at when the value after those of
// offsets does not fit the room left: a value before it that is not UTF-8,
// in a utf8 column, else that value.
func pastRoom[O int32 | int64](offsets []O, data []byte, how bytesOf) (int, error) {
	if how.utf8 {
		if bad := firstNotUTF8(offsets, data); bad >= 0 {
			return bad, notUTF8(string(data[offsets[bad]:offsets[bad+1]]))
		}
	}
	return len(offsets) - 1, offsetsOverflow(how)
}

// firstNotUTF8 is the first value of data, cut at offsets, that is not
// UTF-8, or -1. The values are scanned as one text for their first byte
// past ASCII, 32 bytes at a time: the values before it are UTF-8, the
// one holding it is checked alone, and the scan goes on after it. ASCII
// costs one pass at memory speed, whatever the values' sizes.
func firstNotUTF8[O int32 | int64](offsets []O, data []byte) int {
	n := len(offsets) - 1
	end := int(offsets[n])
	for k := 0; k < n; k++ {
		at := int(offsets[k])
		at += asciiPrefix(data[at:end])
		if at == end {
			return -1
		}
		for int(offsets[k+1]) <= at { // the value holding byte at
			k++
		}
		// Its bytes before at are ASCII, whole runes: the rest decides.
		if !arrowcheck.ValidUTF8(data[at:offsets[k+1]]) {
			return k
		}
	}
	return -1
}

// asciiPrefix is the length of the ASCII bytes b starts with, read 32
// then eight at a time.
func asciiPrefix(b []byte) int {
	const high = 0x8080808080808080
	i := 0
	for ; i+32 <= len(b); i += 32 {
		if (binary.LittleEndian.Uint64(b[i:])|binary.LittleEndian.Uint64(b[i+8:])|
			binary.LittleEndian.Uint64(b[i+16:])|binary.LittleEndian.Uint64(b[i+24:]))&high != 0 {
			break
		}
	}
	for ; i+8 <= len(b); i += 8 {
		if w := binary.LittleEndian.Uint64(b[i:]) & high; w != 0 {
			return i + bits.TrailingZeros64(w)/8
		}
	}
	for ; i < len(b) && b[i] < utf8.RuneSelf; i++ {
	}
	return i
}

// offsetsOverflow is the ErrOverflow of a value past 32-bit offsets.
func offsetsOverflow(how bytesOf) error {
	if how.utf8 {
		return overflow("more than %d bytes do not fit 32-bit offsets: use large_utf8", maxOffset32)
	}
	return overflow("more than %d bytes do not fit 32-bit offsets: use large_binary", maxOffset32)
}

// notUTF8 is the ErrInvalidData of v, a value of a utf8 column that is not
// UTF-8, which the Arrow spec forbids: it says where, and shows a few
// bytes there.
func notUTF8(v string) error {
	at := 0
	for at < len(v) {
		r, size := utf8.DecodeRuneInString(v[at:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		at += size
	}
	from, to := max(0, at-8), min(len(v), at+8)
	return &detail{kind: ErrInvalidData, msg: fmt.Sprintf(
		"byte %d of %d is not UTF-8 (%q at %d), which a utf8 column must hold: write other bytes as []byte to a binary column",
		at, len(v), v[from:to], from)}
}

// listBuilder builds list and large_list arrays.
type listBuilder[O int32 | int64] struct {
	layout
	validity
	offsets growable
	elems   columnBuilder
}

func newListBuilder[O int32 | int64](mem memory.Allocator, dt, elem arrow.DataType) *listBuilder[O] {
	return &listBuilder[O]{layout: layout{dt}, validity: newValidity(mem), offsets: growable{mem: mem}, elems: newColumnBuilder(mem, elem)}
}

func (b *listBuilder[O]) Len() int { return b.n }

func (b *listBuilder[O]) child(int) columnBuilder { return b.elems }

// appendLists writes the offsets of the lists, counted from the elements
// the child holds; the last list ends where the child will.
func (b *listBuilder[O]) appendLists(sizes []int, valid []bool) {
	buf := b.offsets.grow((b.n + len(sizes) + 1) * int(unsafe.Sizeof(O(0))))
	offsets := unsafe.Slice((*O)(unsafe.Pointer(unsafe.SliceData(buf))), b.n+len(sizes))[b.n:]
	at := b.elems.Len()
	for k, size := range sizes {
		offsets[k] = O(at)
		at += size
	}
	b.append(valid, len(sizes))
}

func (b *listBuilder[O]) NewArray() arrow.Array {
	buf := b.offsets.grow((b.n + 1) * int(unsafe.Sizeof(O(0))))
	unsafe.Slice((*O)(unsafe.Pointer(unsafe.SliceData(buf))), b.n+1)[b.n] = O(b.elems.Len())
	offsets := b.offsets.take((b.n + 1) * int(unsafe.Sizeof(O(0))))
	child := b.elems.NewArray()
	defer child.Release()
	bitmap, n, nulls := b.take()
	return arrayOf(b.dt, n, nulls, []*memory.Buffer{bitmap, offsets}, []arrow.ArrayData{child.Data()})
}

func (b *listBuilder[O]) Release() {
	b.validity.release()
	b.offsets.release()
	b.elems.Release()
}

// structBuilder builds struct arrays.
type structBuilder struct {
	layout
	validity
	fields []columnBuilder
}

func (b *structBuilder) Len() int { return b.n }

func (b *structBuilder) child(i int) columnBuilder { return b.fields[i] }

func (b *structBuilder) appendSlots(n int, valid []bool) { b.append(valid, n) }

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
