package mapper

import (
	"cmp"
	"fmt"
	"math"
	"reflect"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/internal/dictindex"
	"github.com/arrowmap/arrowmap/tags"
)

// dictEncoder writes a level dictionary-encoded: its values go to the
// dictionary builder's child, which builds them as a plain array, and the
// dictionary builder then keeps each distinct value once.
type dictEncoder struct {
	encLevel
	value encoder // the dictionary builder's child, made from the schema, builds the values
}

type dictWriter struct {
	lv    *encLevel
	b     columnBuilder
	own   *dictionaryBuilder // b, when it is ours
	value writer
	n     int
}

func (e *dictEncoder) newWriter(b columnBuilder) writer {
	own, _ := b.(*dictionaryBuilder)
	return &dictWriter{lv: &e.encLevel, b: b, own: own, value: e.value.newWriter(b.child(0))}
}

func (w *dictWriter) prepare(s *goValues) error {
	w.n = s.n
	if err := w.value.prepare(s); err != nil {
		return err
	}
	if w.own == nil {
		return nil
	}
	// Our dictionary builder's values builder is its own: the values are
	// built now, so that an index past the index type fails the Append.
	w.value.write()
	if k, err := w.own.stage(); err != nil {
		return w.lv.fail(s, k, err)
	}
	return nil
}

func (w *dictWriter) write() {
	if w.own != nil {
		w.own.commit()
		return
	}
	w.value.write()
	w.b.appendSlots(w.n, nil)
}

// memoizedByArrowGo reports whether arrow-go's dictionary builder builds
// the dictionary dt: it memoizes values of dt's type, and dt's indexes,
// 32 or 64 bits wide, do not run out.
func memoizedByArrowGo(dt arrow.DataType) bool {
	index, _ := arrowtype.DictionaryIndices(dt)
	values, _ := arrowtype.Encoded(dt)
	return arrowtype.OfType(index).Bytes >= 4 && memoizedValues(arrowtype.OfType(values))
}

// memoizedValues is whether arrowmap leaves dictionaries of r's values to
// arrow-go's builders, which memoize them: the numbers, the temporal types
// but the intervals, the decimals, utf8, binary and fixed_size_binary.
func memoizedValues(r *arrowtype.Row) bool {
	switch r.Layout {
	case arrowtype.Fixed:
		return r.Integer || r.Float || r.Decimal || r.Counts()
	case arrowtype.Binary:
		return !r.Large
	case arrowtype.FixedBinary:
		return true
	}
	return false
}

// dictionaryBuilder builds dictionaries arrow-go's builder does not:
// values of any type (lists, structs, extensions, …), and narrow indexes,
// whose overflow fails the Append. Values are told apart by their text
// (ValueStr), which is exact for every type, nested ones included; it is
// slower than arrow-go's memo tables, which build the common dictionaries.
type dictionaryBuilder struct {
	layout
	mem      memory.Allocator
	index    arrow.DataType // of the indices
	valueDT  arrow.DataType // of the values
	values   columnBuilder
	maxIndex int
	seen     map[string]int // a value's text → its index
	uniques  []valueAt      // the dictionary, by index
	indices  []int          // per slot, -1 for a null
	pending  struct {
		arr     arrow.Array
		indices []int
		keys    []string // of the values new to the dictionary
		uniques []valueAt
	}
}

// valueAt is value row of arr.
type valueAt struct {
	arr arrow.Array
	row int
}

// newDictionaryBuilder is a builder of the dictionary dt, its values built
// by a builder of newValues.
func newDictionaryBuilder(mem memory.Allocator, dt arrow.DataType, newValues func(memory.Allocator, arrow.DataType) columnBuilder) *dictionaryBuilder {
	index, _ := arrowtype.DictionaryIndices(dt)
	values, _ := arrowtype.Encoded(dt)
	maxIndex := int(min(dictindex.Max(index), math.MaxInt32))
	return &dictionaryBuilder{layout: layout{dt}, mem: mem, index: index, valueDT: values,
		values: newValues(mem, values), maxIndex: maxIndex, seen: map[string]int{}}
}

func (b *dictionaryBuilder) Len() int                { return len(b.indices) }
func (b *dictionaryBuilder) child(int) columnBuilder { return b.values }

// stage takes the values built since the last stage and finds their
// indexes, committing nothing: k is the value whose index does not fit.
func (b *dictionaryBuilder) stage() (k int, err error) {
	b.dropPending()
	arr := b.values.NewArray()
	p := &b.pending
	p.arr = arr
	p.indices = resize(p.indices, arr.Len())
	fresh := map[string]int{}
	for i := range p.indices {
		if arr.IsNull(i) {
			p.indices[i] = -1
			continue
		}
		key := arr.ValueStr(i)
		idx, ok := b.seen[key]
		if !ok {
			if idx, ok = fresh[key]; !ok {
				idx = len(b.uniques) + len(p.uniques)
				if idx > b.maxIndex {
					b.dropPending()
					return i, overflow("a dictionary of %s indexes holds at most %d values", b.index, b.maxIndex+1)
				}
				fresh[key] = idx
				p.keys = append(p.keys, key)
				p.uniques = append(p.uniques, valueAt{arr, i})
			}
		}
		p.indices[i] = idx
	}
	return -1, nil
}

func (b *dictionaryBuilder) commit() {
	p := &b.pending
	for i, key := range p.keys {
		b.seen[key] = len(b.uniques) + i
	}
	b.uniques = append(b.uniques, p.uniques...)
	b.indices = append(b.indices, p.indices...)
	if len(p.uniques) == 0 && p.arr != nil {
		p.arr.Release() // no value of it is in the dictionary
	}
	*p = struct {
		arr     arrow.Array
		indices []int
		keys    []string
		uniques []valueAt
	}{indices: p.indices[:0], keys: p.keys[:0], uniques: p.uniques[:0]}
}

func (b *dictionaryBuilder) dropPending() {
	p := &b.pending
	if p.arr != nil {
		p.arr.Release()
	}
	p.arr, p.indices, p.keys, p.uniques = nil, p.indices[:0], p.keys[:0], p.uniques[:0]
}

func (b *dictionaryBuilder) NewArray() arrow.Array {
	slices := make([]arrow.Array, len(b.uniques))
	for i, u := range b.uniques {
		slices[i] = array.NewSlice(u.arr, int64(u.row), int64(u.row+1))
	}
	var dict arrow.Array
	if len(slices) == 0 {
		dict = array.MakeArrayOfNull(b.mem, b.valueDT, 0)
	} else {
		var err error
		if dict, err = array.Concatenate(slices, b.mem); err != nil {
			panic(fmt.Sprintf("arrowmap: dictionary of %s: %v", b.valueDT, err)) // slices of arrays of one type concatenate
		}
	}
	for _, s := range slices {
		s.Release()
	}
	indices := dictindex.Array(b.mem, b.index, b.indices)
	arr := array.NewDictionaryArray(b.dt, indices, dict)
	indices.Release()
	dict.Release()
	b.releaseValues()
	b.indices = b.indices[:0]
	clear(b.seen)
	return arr
}

// releaseValues releases the arrays the dictionary's values are in.
func (b *dictionaryBuilder) releaseValues() {
	var last arrow.Array
	for _, u := range b.uniques {
		if u.arr != last {
			u.arr.Release()
			last = u.arr
		}
	}
	b.uniques = b.uniques[:0]
}

func (b *dictionaryBuilder) Release() {
	b.dropPending()
	b.releaseValues()
	b.values.Release()
}

// reeEncoder writes a level run-end encoded: consecutive equal values are
// one run, whose value is written once.
type reeEncoder struct {
	encLevel
	runEnds arrow.DataType
	maxLen  int // the rows runEnds can end
	value   encoder
	equal   func(a, b unsafe.Pointer) bool
	size    uintptr // of a value
}

type reeWriter struct {
	*reeEncoder
	b       columnBuilder
	value   writer
	addrs   []unsafe.Pointer
	runs    []valueRun // the first value of each run
	lengths []uint64
	values  goValues
}

func (e *reeEncoder) newWriter(b columnBuilder) writer {
	return &reeWriter{reeEncoder: e, b: b, value: e.value.newWriter(b.child(0))}
}

func (w *reeWriter) prepare(s *goValues) error {
	if room := w.maxLen - w.b.Len(); s.n > room {
		return w.fail(s, max(room, 0), overflow("%s run ends end at most %d rows", w.runEnds, w.maxLen))
	}
	w.addrs = s.addresses(w.addrs)
	w.runs, w.lengths = resize(w.runs, s.n)[:0], resize(w.lengths, s.n)[:0]
	for k, p := range w.addrs {
		if k > 0 && w.same(w.addrs[k-1], p) {
			w.lengths[len(w.lengths)-1]++
			continue
		}
		w.runs = append(w.runs, valueRun{base: p, n: 1, from: k})
		w.lengths = append(w.lengths, 1)
	}
	w.values = goValues{runs: w.runs, stride: w.size, n: len(w.runs), parent: s}
	return w.value.prepare(&w.values)
}

// same reports whether values a and b (nil when absent) encode alike.
func (w *reeWriter) same(a, b unsafe.Pointer) bool {
	if a == nil || b == nil {
		return a == b
	}
	return w.equal(a, b)
}

func (w *reeWriter) write() {
	w.b.appendRuns(w.lengths)
	w.value.write()
}

// equalOf reports whether two values of t are equal enough to encode alike:
// by memory, strings by content, times by instant and zone, other types
// through reflect.DeepEqual.
func equalOf(t reflect.Type) func(a, b unsafe.Pointer) bool {
	switch k := kindOf(t); {
	case k == kindTime:
		return func(a, b unsafe.Pointer) bool {
			x, y := (*time.Time)(a), (*time.Time)(b)
			return x.Equal(*y) && x.Location() == y.Location()
		}
	case k == kindString:
		return func(a, b unsafe.Pointer) bool { return *(*string)(a) == *(*string)(b) }
	case !hasPointers(t):
		size := t.Size()
		return func(a, b unsafe.Pointer) bool {
			return string(unsafe.Slice((*byte)(a), size)) == string(unsafe.Slice((*byte)(b), size))
		}
	}
	return func(a, b unsafe.Pointer) bool {
		return reflect.DeepEqual(reflect.NewAt(t, a).Elem().Interface(), reflect.NewAt(t, b).Elem().Interface())
	}
}

// notNullEncoder refuses a nil pointer, slice or map where the tag says
// notnull: the field is not nullable, and a nil would be written as an
// empty value, silently.
type notNullEncoder struct {
	encLevel
	elem encoder
	why  string // what the nil is, for the error; "" for notnull's
}

// notNull is enc, refusing nils when the tag says notnull.
func notNull(tag tags.Tag, enc encoder, at where) encoder {
	if !tag.NotNull {
		return enc
	}
	return &notNullEncoder{encLevel: encLevel{at: at}, elem: enc}
}

type notNullWriter struct {
	*notNullEncoder
	elem writer
}

func (e *notNullEncoder) newWriter(b columnBuilder) writer {
	return &notNullWriter{notNullEncoder: e, elem: e.elem.newWriter(b)}
}

func (w *notNullWriter) prepare(s *goValues) error {
	// A pointer, a map and a slice are nil when their first word is: an
	// empty slice that is not nil points somewhere.
	k := 0
	for i := range s.numSpans() {
		sp := s.span(i)
		if sp.p != nil { // an absent value is below a null, where nothing is written
			for j := range sp.n {
				if *(*unsafe.Pointer)(s.at(sp.p, j)) == nil {
					return w.fail(s, k+j, &detail{kind: ErrNull, msg: "a nil " + cmp.Or(w.why, "where the tag says notnull")})
				}
			}
		}
		k += sp.n
	}
	return w.elem.prepare(s)
}

func (w *notNullWriter) write() { w.elem.write() }
