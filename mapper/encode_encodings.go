package mapper

import (
	"fmt"
	"reflect"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// dictEncoder writes a level dictionary-encoded: its values are built as a
// plain array first, then added to the dictionary builder, which keeps
// each distinct value once.
type dictEncoder struct {
	value     encoder
	valueType arrow.DataType
}

type dictWriter struct {
	b       array.DictionaryBuilder
	scratch array.Builder // of the plain values
	value   writer
}

func (e *dictEncoder) newWriter(b columnBuilder, r *binding) writer {
	scratch := array.NewBuilder(r.mem, e.valueType)
	r.owned = append(r.owned, scratch)
	db := b.(array.DictionaryBuilder)
	r.dicts = append(r.dicts, db)
	return &dictWriter{b: db, scratch: scratch, value: e.value.newWriter(scratch, r)}
}

func (w *dictWriter) prepare(s *goValues) error { return w.value.prepare(s) }

func (w *dictWriter) write() {
	w.value.write()
	values := w.scratch.NewArray()
	defer values.Release()
	if err := w.b.AppendArray(values); err != nil {
		// The plan only lets through the value types arrow-go memoizes.
		panic(fmt.Sprintf("arrowmap: dictionary of %s: %v", values.DataType(), err))
	}
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
	b       *array.RunEndEncodedBuilder
	value   writer
	addrs   []unsafe.Pointer
	runs    []valueRun // the first value of each run
	lengths []uint64
	values  goValues
}

func (e *reeEncoder) newWriter(b columnBuilder, r *binding) writer {
	rb := b.(*array.RunEndEncodedBuilder)
	return &reeWriter{reeEncoder: e, b: rb, value: e.value.newWriter(rb.ValueBuilder(), r)}
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
	w.b.AppendRuns(w.lengths)
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
