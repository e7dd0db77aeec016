package mapper

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"
	"unsafe"
)

// pointerEncoder writes *T as T, a nil pointer being a null.
type pointerEncoder struct{ elem encoder }

type pointerWriter struct {
	elem   writer
	ptrs   []unsafe.Pointer
	values goValues
}

func (e *pointerEncoder) newWriter(b columnBuilder) writer {
	return &pointerWriter{elem: e.elem.newWriter(b)}
}

func (w *pointerWriter) prepare(s *goValues) error {
	w.values = s.deref(w.ptrs)
	w.ptrs = w.values.ptrs
	return w.elem.prepare(&w.values)
}

func (w *pointerWriter) write() { w.elem.write() }

// asEncoder writes T as R through an As conversion.
type asEncoder struct {
	at    where
	conv  *conversion
	typ   reflect.Type // T
	slice reflect.Type // []R
	size  uintptr      // of an R
	elem  encoder      // R's
}

func newAsEncoder(t reflect.Type, conv *conversion, elem encoder, at where) *asEncoder {
	return &asEncoder{at: at, conv: conv, typ: t, slice: reflect.SliceOf(conv.from), size: conv.from.Size(), elem: elem}
}

type asWriter struct {
	*asEncoder
	elem    writer
	addrs   []unsafe.Pointer
	ptrs    []unsafe.Pointer
	scratch reflect.Value // a []R the converted values go to
	values  goValues
}

func (e *asEncoder) newWriter(b columnBuilder) writer {
	return &asWriter{asEncoder: e, elem: e.elem.newWriter(b), scratch: reflect.MakeSlice(e.slice, 0, 0)}
}

func (w *asWriter) prepare(s *goValues) error {
	w.addrs = s.addresses(w.addrs)
	if w.scratch.Len() < s.n {
		w.scratch = reflect.MakeSlice(w.slice, s.n, max(s.n, 2*w.scratch.Len()))
	}
	base := w.scratch.UnsafePointer()
	w.ptrs = resize(w.ptrs, s.n)
	for k, p := range w.addrs {
		w.ptrs[k] = nil
		if p == nil {
			continue
		}
		dst := unsafe.Add(base, uintptr(k)*w.size)
		if err := w.conv.encode(dst, p); err != nil {
			return &Error{Path: w.at.path, Column: w.at.column, Row: s.rowOf(k),
				Err: fmt.Errorf("%w: converting %s to %s: %w", ErrInvalidData, w.typ, w.conv.from, err)}
		}
		w.ptrs[k] = dst
	}
	w.values = goValues{ptrs: w.ptrs, n: s.n, parent: s}
	return w.elem.prepare(&w.values)
}

func (w *asWriter) write() { w.elem.write() }

// listEncoder writes []T as a list, large_list, list_view or
// large_list_view: the elements of every row go to the element level in
// one batch, and the sizes of the lists to the list builder in another.
type listEncoder[O int32 | int64] struct {
	encLevel
	size uintptr // of an element
	elem encoder
	// Lists and list views alike: the builder made from the schema writes
	// what its layout wants of the sizes.
}

type listWriter[O int32 | int64] struct {
	*listEncoder[O]
	b    columnBuilder
	elem writer
	sliceRows
}

// sliceRows is what a writer of Go slices (lists, a map's entries) reads
// of them: each row's length and validity, and its elements.
type sliceRows struct {
	sizes  []int
	valid  []bool
	nulls  bool
	runs   []valueRun
	values goValues // the elements, stride apart
}

// readSlices reads the slices s holds into r, their elements stride apart,
// failing when they would take a child of base elements past offsets of
// type O.
func readSlices[O int32 | int64](r *sliceRows, s *goValues, stride uintptr, base int) error {
	r.sizes = resize(r.sizes, s.n)
	r.valid = resize(r.valid, s.n)
	var total int
	r.runs, total, r.nulls = sliceRuns(s, r.sizes, r.valid, resize(r.runs, s.n)[:0])
	if err := checkOffsets[O](base, total); err != nil {
		return err
	}
	r.values = goValues{runs: r.runs, stride: stride, n: total, parent: s}
	return nil
}

func (e *listEncoder[O]) newWriter(b columnBuilder) writer {
	return &listWriter[O]{listEncoder: e, b: b, elem: e.elem.newWriter(b.child(0))}
}

func (w *listWriter[O]) prepare(s *goValues) error {
	if err := readSlices[O](&w.sliceRows, s, w.size, w.b.child(0).Len()); err != nil {
		return w.fail(s, s.n-1, err)
	}
	return w.elem.prepare(&w.values)
}

// sliceRuns reads the slices s holds: each one's length into sizes and
// whether it is non-nil into valid, its elements appended to runs as a
// run. It returns the runs, how many elements they hold and whether a
// slice was nil.
func sliceRuns(s *goValues, sizes []int, valid []bool, runs []valueRun) (_ []valueRun, total int, nulls bool) {
	k := 0
	for i := range s.numSpans() {
		sp := s.span(i)
		for j := k; j < k+sp.n; j++ {
			var h sliceHeader // an absent list is a nil slice: null, as slices are nullable
			if sp.p != nil {
				h = *(*sliceHeader)(s.at(sp.p, j-k))
			}
			sizes[j] = h.len
			valid[j] = h.data != nil
			nulls = nulls || h.data == nil
			if h.len > 0 {
				runs = append(runs, valueRun{base: h.data, n: h.len, from: j})
				total += h.len
			}
		}
		k += sp.n
	}
	return runs, total, nulls
}

func (w *listWriter[O]) write() {
	w.b.appendLists(w.sizes, nullsOnly(w.valid, w.nulls))
	w.elem.write()
}

// checkOffsets fails when base+total elements do not fit offsets of type O.
func checkOffsets[O int32 | int64](base, total int) error {
	if unsafe.Sizeof(O(0)) == 4 && base+total > maxOffset32 {
		return overflow("%d elements do not fit 32-bit offsets: use large_list", base+total)
	}
	return nil
}

// maxOffset32 is the largest offset of a 32-bit layout (list, map, utf8,
// binary): how many elements or bytes a column of one can hold. A variable
// so that tests can lower it.
var maxOffset32 = math.MaxInt32

// arrayEncoder writes [N]T as fixed_size_list<T>(N).
type arrayEncoder struct {
	encLevel
	n    int
	size uintptr // of an element
	elem encoder
}

type arrayWriter struct {
	*arrayEncoder
	b      columnBuilder
	elem   writer
	addrs  []unsafe.Pointer
	valid  []bool
	runs   []valueRun
	values goValues
}

func (e *arrayEncoder) newWriter(b columnBuilder) writer {
	return &arrayWriter{arrayEncoder: e, b: b, elem: e.elem.newWriter(b.child(0))}
}

func (w *arrayWriter) prepare(s *goValues) error {
	w.addrs = s.addresses(w.addrs)
	w.valid = resize(w.valid, s.n)
	w.runs = resize(w.runs, s.n)
	for k, p := range w.addrs {
		// An absent array is N absent elements: a fixed-size list has them
		// even in a null row.
		w.runs[k] = valueRun{base: p, n: w.n, from: k}
		w.valid[k] = p != nil || !w.nullable
	}
	w.values = goValues{runs: w.runs, stride: w.size, n: s.n * w.n, parent: s}
	return w.elem.prepare(&w.values)
}

func (w *arrayWriter) write() {
	w.b.appendSlots(len(w.valid), w.valid)
	w.elem.write()
}

// structEncoder writes a struct as a struct of its fields.
type structEncoder struct {
	encLevel
	fields []fieldEncoder
}

type structWriter struct {
	*structEncoder
	b      columnBuilder
	fields fieldWriters
	n      int
	valid  []bool // nil when all are valid
	buf    []bool
}

func (e *structEncoder) newWriter(b columnBuilder) writer {
	return &structWriter{structEncoder: e, b: b, fields: bindFields(e.fields, b.child)}
}

func (w *structWriter) prepare(s *goValues) error {
	w.n = s.n
	w.valid = nil
	if w.nullable {
		w.valid = s.presence(&w.buf)
	}
	return w.fields.prepare(s)
}

func (w *structWriter) write() {
	w.b.appendSlots(w.n, w.valid)
	w.fields.write()
}

// fieldWriter is a fieldEncoder bound to its builder, with the values of
// each step of its way from the struct.
type fieldWriter struct {
	offsets []uintptr
	w       writer
	steps   []goValues         // the values after each offset
	ptrs    [][]unsafe.Pointer // scratch for the embedded pointers between
}

type fieldWriters []fieldWriter

// bindFields binds the fields of a struct, field i to builder(i).
func bindFields(fields []fieldEncoder, builder func(i int) columnBuilder) fieldWriters {
	fws := make(fieldWriters, len(fields))
	for i, f := range fields {
		fws[i] = fieldWriter{
			offsets: f.offsets,
			w:       f.enc.newWriter(builder(i)),
			steps:   make([]goValues, len(f.offsets)),
			ptrs:    make([][]unsafe.Pointer, len(f.offsets)-1),
		}
	}
	return fws
}

// prepare prepares every field of the structs s.
func (fws fieldWriters) prepare(s *goValues) error {
	for i := range fws {
		f := &fws[i]
		f.steps[0] = s.field(f.offsets[0])
		for j := 1; j < len(f.offsets); j++ {
			// Fields promoted through a nil embedded pointer are absent.
			inner := f.steps[j-1].deref(f.ptrs[j-1])
			f.ptrs[j-1] = inner.ptrs
			f.steps[j] = inner.field(f.offsets[j])
		}
		if err := f.w.prepare(&f.steps[len(f.steps)-1]); err != nil {
			return err
		}
	}
	return nil
}

func (fws fieldWriters) write() {
	for i := range fws {
		fws[i].w.write()
	}
}

// mapEncoder writes map[K]V as a map, each row's entries sorted by key so
// that equal maps encode equally.
type mapEncoder struct {
	encLevel
	typ                      reflect.Type
	keyType, valueType       reflect.Type
	keySlice, valSlice       reflect.Type
	keySize, valueSize       uintptr
	moveKey, moveValue       mover
	compare                  func(a, b unsafe.Pointer) int
	keyEncoder, valueEncoder encoder
}

func newMapEncoder(t reflect.Type, lv encLevel, compare func(a, b unsafe.Pointer) int, key, value encoder) *mapEncoder {
	return &mapEncoder{
		encLevel: lv, typ: t,
		keyType: t.Key(), valueType: t.Elem(),
		keySlice: reflect.SliceOf(t.Key()), valSlice: reflect.SliceOf(t.Elem()),
		keySize: t.Key().Size(), valueSize: t.Elem().Size(),
		moveKey: moverOf(t.Key()), moveValue: moverOf(t.Elem()),
		compare:    compare,
		keyEncoder: key, valueEncoder: value,
	}
}

type mapWriter struct {
	*mapEncoder
	b          columnBuilder
	key, value writer
	maps       []unsafe.Pointer
	sizes      []int
	valid      []bool
	// The entries as the map iterates them, then in key order: []K, []V.
	readKeys, readValues, keys, values reflect.Value
	order                              []int
	keyRuns, valueRuns                 []valueRun
	keyValues, valueValues             goValues
}

func (e *mapEncoder) newWriter(b columnBuilder) writer {
	return &mapWriter{mapEncoder: e, b: b, key: e.keyEncoder.newWriter(b.child(0)), value: e.valueEncoder.newWriter(b.child(1))}
}

// grow makes room for n entries in the scratch arrays.
func (w *mapWriter) grow(n int) {
	have := 0
	if w.keys.IsValid() {
		have = w.keys.Len()
		if have >= n {
			return
		}
	}
	n = max(n, 2*have)
	w.readKeys, w.keys = reflect.MakeSlice(w.keySlice, n, n), reflect.MakeSlice(w.keySlice, n, n)
	w.readValues, w.values = reflect.MakeSlice(w.valSlice, n, n), reflect.MakeSlice(w.valSlice, n, n)
}

func (w *mapWriter) prepare(s *goValues) error {
	w.maps = gather(s, w.maps)
	total := 0
	for k := range w.maps {
		if w.maps[k] != nil {
			total += w.mapAt(k).Len()
		}
	}
	if err := checkOffsets[int32](w.b.child(0).Len(), total); err != nil {
		return w.fail(s, s.n-1, err)
	}
	w.grow(total)
	w.sizes = resize(w.sizes, s.n)
	w.valid = resize(w.valid, s.n)
	w.order = resize(w.order, total)
	w.keyRuns, w.valueRuns = resize(w.keyRuns, s.n)[:0], resize(w.valueRuns, s.n)[:0]
	readKeys, readValues := w.readKeys.UnsafePointer(), w.readValues.UnsafePointer()
	keys, values := w.keys.UnsafePointer(), w.values.UnsafePointer()
	key := func(base unsafe.Pointer, e int) unsafe.Pointer { return unsafe.Add(base, uintptr(e)*w.keySize) }
	value := func(base unsafe.Pointer, e int) unsafe.Pointer { return unsafe.Add(base, uintptr(e)*w.valueSize) }
	e := 0
	for k := range w.maps {
		w.sizes[k] = 0
		w.valid[k] = w.maps[k] != nil
		if !w.valid[k] {
			continue
		}
		start := e
		// Go maps have no unsafe iteration: one reflect step per entry.
		for it := w.mapAt(k).MapRange(); it.Next(); e++ {
			reflect.NewAt(w.keyType, key(readKeys, e)).Elem().SetIterKey(it)
			reflect.NewAt(w.valueType, value(readValues, e)).Elem().SetIterValue(it)
			w.order[e] = e
		}
		w.sizes[k] = e - start
		slices.SortFunc(w.order[start:e], func(a, b int) int { return w.compare(key(readKeys, a), key(readKeys, b)) })
		for j := start; j < e; j++ {
			w.moveKey(key(keys, j), key(readKeys, w.order[j]))
			w.moveValue(value(values, j), value(readValues, w.order[j]))
		}
		if e > start {
			w.keyRuns = append(w.keyRuns, valueRun{base: key(keys, start), n: e - start, from: k})
			w.valueRuns = append(w.valueRuns, valueRun{base: value(values, start), n: e - start, from: k})
		}
	}
	w.keyValues = goValues{runs: w.keyRuns, stride: w.keySize, n: total, parent: s}
	w.valueValues = goValues{runs: w.valueRuns, stride: w.valueSize, n: total, parent: s}
	if err := w.key.prepare(&w.keyValues); err != nil {
		return err
	}
	return w.value.prepare(&w.valueValues)
}

// mapAt is map k of the last prepare, as a reflect.Value.
func (w *mapWriter) mapAt(k int) reflect.Value {
	return reflect.NewAt(w.typ, unsafe.Pointer(&w.maps[k])).Elem()
}

func (w *mapWriter) write() {
	w.b.appendLists(w.sizes, w.valid)
	w.key.write()
	w.value.write()
}

// compareOf orders values of a map key type, nil when it has no order:
// numbers, strings and bools by value, times by instant, arrays and
// structs field by field.
func compareOf(t reflect.Type) func(a, b unsafe.Pointer) int {
	k := kindOf(t)
	if k == kindInterval {
		k = reflectKinds[t.Kind()] // by its months, days and nanoseconds, in that order
	}
	switch k {
	case kindTime:
		return func(a, b unsafe.Pointer) int {
			x, y := *(*time.Time)(a), *(*time.Time)(b)
			return cmp.Or(x.Compare(y), strings.Compare(x.Location().String(), y.Location().String()))
		}
	case kindFloat16:
		return compareFloat16
	case kindDecimal:
		w, _ := decimalWidthOf(t)
		return w.compare
	case kindBool:
		return compareAs[uint8]
	case kindInt, kindUint, kindDuration:
		return integerWidthOf(t).compare
	case kindFloat:
		if t.Kind() == reflect.Float32 {
			return compareAs[float32]
		}
		return compareAs[float64]
	case kindString:
		return compareAs[string]
	case kindBytes: // no Go map key, but the key of a map's entries
		return func(a, b unsafe.Pointer) int { return bytes.Compare(*(*[]byte)(a), *(*[]byte)(b)) }
	case kindArray, kindByteArray:
		elem := compareOf(t.Elem())
		if elem == nil {
			return nil
		}
		n, size := t.Len(), t.Elem().Size()
		return func(a, b unsafe.Pointer) int {
			for i := range n {
				if c := elem(unsafe.Add(a, uintptr(i)*size), unsafe.Add(b, uintptr(i)*size)); c != 0 {
					return c
				}
			}
			return 0
		}
	case kindStruct:
		offsets := make([]uintptr, t.NumField())
		fields := make([]func(a, b unsafe.Pointer) int, t.NumField())
		for i := range t.NumField() {
			if fields[i] = compareOf(t.Field(i).Type); fields[i] == nil {
				return nil
			}
			offsets[i] = t.Field(i).Offset
		}
		return func(a, b unsafe.Pointer) int {
			for i, f := range fields {
				if c := f(unsafe.Add(a, offsets[i]), unsafe.Add(b, offsets[i])); c != 0 {
					return c
				}
			}
			return 0
		}
	}
	return nil
}

func compareAs[V cmp.Ordered](a, b unsafe.Pointer) int { return cmp.Compare(*(*V)(a), *(*V)(b)) }
