package mapper

import (
	"bytes"
	"cmp"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/tags"
)

// Go maps, and a map's entries as a Go slice, encoded to Arrow maps;
// decode_maps.go reads both.
//
// A map's entries as a Go slice: []E tagged map, E a struct (or a pointer
// to one) of a key field and a value field, holds what a Go map cannot —
// the entries' order, a key twice, keys no Go map takes ([]byte) — and
// encodes to a map whose entries are the slice's, as they are.

// entriesEncoderOf maps []E tagged map to map<K, V>, K and V the types of
// E's fields named key and value (arrow-go names a map's fields so, and
// its IPC reader reads every map so: any other name would not decode back).
func (c *encodeCompiler) entriesEncoderOf(t reflect.Type, tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	if err := checkTagParts(t, tag, lv.at, partLayout); err != nil {
		return nil, nil, err
	}
	if tag.Large || tag.View {
		return nil, nil, newError(ErrTag, lv.at.path, lv.at.column, -1, "%s has no %s layout: it is a map", t, tagLayoutName(tag))
	}
	if !entriesOf(t) {
		return nil, nil, newError(ErrTag, lv.at.path, lv.at.column, -1,
			"map does not apply to %s: it is for a map[K]V, or a []E whose E is a struct of two fields, key and value", t)
	}
	e := t.Elem()
	pointers := e.Kind() == reflect.Pointer
	if pointers {
		e = e.Elem()
	}
	if c.stack[e] {
		return nil, nil, newError(ErrUnsupported, lv.at.path, lv.at.column, -1, "%s is recursive", e)
	}
	c.stack[e] = true
	defer delete(c.stack, e)
	c.belowArrowGo++ // arrow-go builds maps
	defer func() { c.belowArrowGo-- }()

	at := lv.at.elem("entries")
	fields, encs, err := c.fieldsOf(e, at)
	if err != nil {
		return nil, nil, err
	}
	goFields, _ := structFields(e) // fieldsOf read them: one per field, in order
	ki, vi := -1, -1
	for i, f := range fields {
		switch {
		case entryNamed(f.Name, "key", goFields[i].tagged):
			ki = i
		case entryNamed(f.Name, "value", goFields[i].tagged):
			vi = i
		}
	}
	if len(fields) != 2 || ki < 0 || vi < 0 {
		names := make([]string, len(fields))
		for i, f := range fields {
			names[i] = f.Name
		}
		return nil, nil, newError(ErrTag, at.path, at.column, -1,
			"the entries of a map are a key and a value, and %s has fields %s: name them key and value", e, strings.Join(names, ", "))
	}
	kf, vf := fields[ki], fields[vi]
	keyAt := at.field(goFields[ki].path, kf.Name)
	switch {
	case arrowtype.OfType(kf.Type).Layout == arrowtype.Null:
		return nil, nil, newError(ErrUnsupported, keyAt.path, keyAt.column, -1, "map keys cannot be null")
	case goFields[ki].tag.Nullable:
		return nil, nil, newError(ErrTag, keyAt.path, keyAt.column, -1, "map keys cannot be nullable")
	case len(encs[ki].offsets) > 1:
		// A nil embedded pointer would make the key absent, written as
		// an empty value.
		return nil, nil, newError(ErrUnsupported, keyAt.path, keyAt.column, -1, "a map key promoted through an embedded pointer")
	case kf.Nullable:
		// A pointer or a slice key: non-null in Arrow, so a nil one is an
		// ErrNull rather than a key written empty.
		kf.Nullable = false
		encs[ki].enc = &notNullEncoder{encLevel: encLevel{at: keyAt}, elem: encs[ki].enc, why: "map key: map keys cannot be null"}
	}
	dt := arrow.MapOfFields(kf, vf)
	dt.KeysSorted = tag.KeysSorted
	enc := &entriesEncoder{encLevel: lv, size: t.Elem().Size(), pointers: pointers, fields: []fieldEncoder{encs[ki], encs[vi]}}
	if tag.KeysSorted {
		// Sorted is a claim about the data: checked, never taken on trust.
		if enc.compare = keyOrderOf(goFields[ki].typ); enc.compare == nil {
			return nil, nil, newError(ErrTag, keyAt.path, keyAt.column, -1, "keys_sorted, but keys of %s have no order to check it by", goFields[ki].typ)
		}
		enc.keyOffset, enc.keyAt = encs[ki].offsets[0], keyAt
	}
	return dt, enc, nil
}

// keyOrderOf orders keys of type t, through a pointer (never nil when
// compared: nil keys are refused first); nil when they have no order.
func keyOrderOf(t reflect.Type) func(a, b unsafe.Pointer) int {
	if t.Kind() != reflect.Pointer {
		return compareOf(t)
	}
	elem := compareOf(t.Elem())
	if elem == nil {
		return nil
	}
	return func(a, b unsafe.Pointer) int { return elem(*(*unsafe.Pointer)(a), *(*unsafe.Pointer)(b)) }
}

// entryNamed reports whether a field of the column name name is the
// entries' field want: by its tag exactly, or by its Go name in any case,
// as decoding matches them.
func entryNamed(name, want string, tagged bool) bool {
	return name == want || !tagged && strings.EqualFold(name, want)
}

// entriesEncoder writes []E as a map: the entries of every row, in slice
// order, go to the key and value levels in one batch.
type entriesEncoder struct {
	encLevel
	size     uintptr        // of an element, E or *E
	pointers bool           // the elements are *E, none of which may be nil
	fields   []fieldEncoder // the key's, then the value's
	// With keys_sorted: the order each row's keys must keep, and where a
	// key is in an E.
	compare   func(a, b unsafe.Pointer) int
	keyOffset uintptr
	keyAt     where
}

type entriesWriter struct {
	*entriesEncoder
	b      columnBuilder
	fields fieldWriters
	sliceRows
	ptrs    []unsafe.Pointer
	entries goValues // the Es: the elements, or what they point to
	addrs   []unsafe.Pointer
}

func (e *entriesEncoder) newWriter(b columnBuilder) writer {
	// A map builder's children are its keys' and its values' builders.
	return &entriesWriter{entriesEncoder: e, b: b, fields: bindFields(e.fields, b.child)}
}

func (w *entriesWriter) prepare(s *goValues) error {
	if err := readSlices[int32](&w.sliceRows, s, w.size, w.b.child(0).Len()); err != nil {
		return w.fail(s, s.n-1, err)
	}
	w.entries = w.values
	if w.pointers {
		w.entries = w.values.deref(w.ptrs)
		w.ptrs = w.entries.ptrs
		for k, p := range w.ptrs {
			if p == nil {
				return &Error{Path: w.at.path + "[]", Column: w.at.column + ".entries", Row: w.values.rowOf(k),
					Err: &detail{kind: ErrNull, msg: "a nil entry: a map's entries cannot be null"}}
			}
		}
	}
	if err := w.fields.prepare(&w.entries); err != nil {
		return err
	}
	if w.compare != nil {
		return w.checkSorted(s)
	}
	return nil
}

// checkSorted fails at the first row whose keys are out of order.
func (w *entriesWriter) checkSorted(s *goValues) error {
	w.addrs = w.entries.addresses(w.addrs)
	e := 0
	for k, n := range w.sizes {
		for j := e + 1; j < e+n; j++ {
			if w.compare(unsafe.Add(w.addrs[j-1], w.keyOffset), unsafe.Add(w.addrs[j], w.keyOffset)) > 0 {
				return &Error{Path: w.keyAt.path, Column: w.keyAt.column, Row: s.rowOf(k),
					Err: &detail{kind: ErrInvalidData, msg: "keys_sorted, but entry " + strconv.Itoa(j-e) + "'s key is less than the one before"}}
			}
		}
		e += n
	}
	return nil
}

func (w *entriesWriter) write() {
	w.b.appendLists(w.sizes, nullsOnly(w.valid, w.nulls))
	w.fields.write()
}

// mapEncoderOf maps map[K]V to map<K, V>, whose keys cannot be null and
// are written in order, and []E tagged map to the map of its entries.
func (c *encodeCompiler) mapEncoderOf(t reflect.Type, tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	if t.Kind() == reflect.Slice {
		return c.entriesEncoderOf(t, tag, lv)
	}
	if err := checkTagParts(t, tag, lv.at, partLayout|partKeyValue); err != nil {
		return nil, nil, err
	}
	if (tag.Encoding != tags.EncodingDefault && tag.Encoding != tags.Map) || tag.Large || tag.View {
		return nil, nil, newError(ErrTag, lv.at.path, lv.at.column, -1, "%s has no %s layout", t, tagLayoutName(tag))
	}
	var ktag, vtag tags.Tag
	if tag.Key != nil {
		ktag = *tag.Key
	}
	if tag.Value != nil {
		vtag = *tag.Value
	}
	c.belowArrowGo++ // arrow-go builds maps
	defer func() { c.belowArrowGo-- }()
	if ktag.Name != "" || vtag.Name != "" {
		// arrow-go's map type has them fixed, and its IPC reader names the
		// fields of every map so.
		return nil, nil, newError(ErrTag, lv.at.path, lv.at.column, -1, "name= does not apply to map keys and values: arrow-go names them entries, key and value")
	}
	keyAt := where{path: lv.at.path + "[key]", column: joinPath(lv.at.column, "entries.key")}
	order := compareOf(t.Key())
	if order == nil {
		return nil, nil, newError(ErrUnsupported, keyAt.path, keyAt.column, -1, "map keys of %s have no order to write them in", t.Key())
	}
	if ktag.Nullable {
		return nil, nil, newError(ErrTag, keyAt.path, keyAt.column, -1, "map keys cannot be nullable")
	}
	kf, key, err := c.encoderOf(t.Key(), ktag, false, keyAt)
	if err != nil {
		return nil, nil, err
	}
	if kf.Nullable {
		return nil, nil, newError(ErrUnsupported, keyAt.path, keyAt.column, -1, "map keys cannot be null")
	}
	vf, value, err := c.encoderOf(t.Elem(), vtag, false, where{path: lv.at.path + "[value]", column: joinPath(lv.at.column, "entries.value")})
	if err != nil {
		return nil, nil, err
	}
	dt := arrow.MapOfFields(kf, vf)
	dt.KeysSorted = tag.KeysSorted // as they are: a Go map's entries are written in key order
	return dt, newMapEncoder(t, lv, order, key, value), nil
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
	if k == kindValue {
		if c := valueTypes[t].compare; c != nil {
			return c // float16.Num, by its value
		}
		k = reflectKinds[t.Kind()] // an interval, by its months, days and nanoseconds, in that order
	}
	switch k {
	case kindTime:
		return func(a, b unsafe.Pointer) int {
			x, y := *(*time.Time)(a), *(*time.Time)(b)
			return cmp.Or(x.Compare(y), strings.Compare(x.Location().String(), y.Location().String()))
		}
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

func (e *mapEncoder) newWriter(b columnBuilder) writer {
	return &mapWriter{mapEncoder: e, b: b, key: e.keyEncoder.newWriter(b.child(0)), value: e.valueEncoder.newWriter(b.child(1))}
}
