package mapper

import (
	"encoding"
	"fmt"
	"reflect"
	"unsafe"
)

// valuesEncoder writes Go values without pointers whose memory is the
// Arrow builder's value type (numbers, bools, decimals, durations in ns):
// they are gathered straight into the builder's staged values, and checked
// there when check is set.
type valuesEncoder[V any] struct {
	encLevel
	// check returns the index of the first value the Arrow type cannot
	// hold and why, or -1.
	check func(values []V) (int, error)
}

type valuesWriter[V any] struct {
	*valuesEncoder[V]
	b       columnBuilder
	n       int // values staged
	present []bool
	buf     []bool
}

func (e *valuesEncoder[V]) newWriter(b columnBuilder) writer {
	return &valuesWriter[V]{valuesEncoder: e, b: b}
}

func (w *valuesWriter[V]) prepare(s *goValues) error {
	w.n = s.n
	w.present = s.presence(&w.buf)
	values := gather(s, staged[V](w.b, s.n))
	if w.check != nil {
		if k, err := w.check(values); err != nil {
			return w.fail(s, k, err)
		}
	}
	return nil
}

func (w *valuesWriter[V]) write() { w.b.appendSlots(w.n, w.validity(w.present)) }

// staged is b's stageFixed as values of V.
func staged[V any](b columnBuilder, n int) []V {
	buf := b.stageFixed(n, int(unsafe.Sizeof(*new(V))))
	return unsafe.Slice((*V)(unsafe.Pointer(unsafe.SliceData(buf))), n)
}

// convertEncoder writes Go values of type V as Arrow values of type A
// through a conversion that may fail: time.Time to timestamps, decimal text
// to decimals, … All the values of a level are converted in prepare,
// straight into the builder's staged values.
type convertEncoder[V, A any] struct {
	encLevel
	convert func(v *V) (A, error) // fails when A cannot hold v
}

type convertWriter[V, A any] struct {
	*convertEncoder[V, A]
	b       columnBuilder
	n       int // values staged
	present []bool
	buf     []bool
}

func (e *convertEncoder[V, A]) newWriter(b columnBuilder) writer {
	return &convertWriter[V, A]{convertEncoder: e, b: b}
}

func (w *convertWriter[V, A]) prepare(s *goValues) error {
	w.n = s.n
	w.present = s.presence(&w.buf)
	values := staged[A](w.b, s.n)
	k := 0
	for i := range s.numSpans() {
		sp := s.span(i)
		out := values[k : k+sp.n]
		if sp.p == nil {
			clear(out)
		} else {
			for j := range out {
				var err error
				if out[j], err = w.convert((*V)(s.at(sp.p, j))); err != nil {
					return w.fail(s, k+j, err)
				}
			}
		}
		k += sp.n
	}
	return nil
}

func (w *convertWriter[V, A]) write() { w.b.appendSlots(w.n, w.validity(w.present)) }

// overflow is an ErrOverflow saying why.
func overflow(format string, args ...any) error {
	return &detail{kind: ErrOverflow, msg: fmt.Sprintf(format, args...)}
}

const secondsPerDayInt64 = int64(secondsPerDay)

const msPerDay = secondsPerDayInt64 * 1000

var textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
