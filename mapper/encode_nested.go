package mapper

import (
	"math"
	"reflect"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/tags"
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

// maxOffset32 is the largest offset of a 32-bit layout (list, map, utf8,
// binary): how many elements or bytes a column of one can hold. A variable
// so that tests can lower it.
var maxOffset32 = math.MaxInt32

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

// structEncoderOf maps a struct to an Arrow struct of its fields.
func (c *encodeCompiler) structEncoderOf(t reflect.Type, tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	if err := checkTagParts(t, tag, lv.at, 0); err != nil {
		return nil, nil, err
	}
	fields, encs, err := c.fieldsOf(t, lv.at)
	if err != nil {
		return nil, nil, err
	}
	return arrow.StructOf(fields...), &structEncoder{encLevel: lv, fields: encs}, nil
}
