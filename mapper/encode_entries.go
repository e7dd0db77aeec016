package mapper

import (
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/tags"
)

// A map's entries as a Go slice: []E tagged map, E a struct (or a pointer
// to one) of a key field and a value field, holds what a Go map cannot —
// the entries' order, a key twice, keys no Go map takes ([]byte) — and
// encodes to a map whose entries are the slice's, as they are. Decoding
// reads them so already (compileList); this file is the encoding.

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
