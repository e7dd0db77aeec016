package mapper

import (
	"fmt"
	"reflect"
	"unsafe"
)

// The encoding side of an As conversion: T written as R, each value
// converted by the conversion's encode func; decode_as.go reads it back.

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
