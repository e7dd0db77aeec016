package mapper

import (
	"reflect"
	"time"
	"unsafe"
)

// dictEncoder writes a level dictionary-encoded: its values go to the
// dictionary builder's child, which builds them as a plain array, and the
// dictionary builder then keeps each distinct value once.
type dictEncoder struct {
	value encoder // the dictionary builder's child, made from the schema, builds the values
}

type dictWriter struct {
	b     columnBuilder
	value writer
	n     int
}

func (e *dictEncoder) newWriter(b columnBuilder) writer {
	return &dictWriter{b: b, value: e.value.newWriter(b.child(0))}
}

func (w *dictWriter) prepare(s *goValues) error {
	w.n = s.n
	return w.value.prepare(s)
}

func (w *dictWriter) write() {
	w.value.write()
	w.b.appendSlots(w.n, nil)
}

// reeEncoder writes a level run-end encoded: consecutive equal values are
// one run, whose value is written once.
type reeEncoder struct {
	value encoder
	equal func(a, b unsafe.Pointer) bool
	size  uintptr // of a value
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
