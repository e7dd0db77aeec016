package mapper

import (
	"reflect"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/slice"
	"github.com/arrowmap/arrowmap/tags"
	"github.com/arrowmap/arrowmap/views"
)

type number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// numberDecoder decodes any integer or float array into D; the plan only
// lets through the sources D holds without loss.
type numberDecoder[D number] struct{}

func (numberDecoder[D]) inPlace() {}

func (numberDecoder[D]) decode(v views.View, dst strided, _ *call) {
	if convertNumbers[D](v, dst) {
		return
	}
	if n, ok := v.Node().(*views.Primitive[float16.Num]); ok { // no Go number: through float32
		w := v.Window()
		convertFloat16[D](n.Values()[w.Offset:w.End()], v.Nulls(), dst)
	}
}

// convert writes src[i] as a D to dst.at(i), skipping null rows. When the
// types match and the destinations are back to back, it is one copy.
func convert[S, D number](src []S, nulls slice.Bitmap, dst strided) {
	if same, ok := any(src).([]D); ok && dst.stride == unsafe.Sizeof(same[0]) {
		copy(unsafe.Slice((*D)(dst.base), len(same)), same)
		if nulls.Bits != nil {
			var zero D
			for i := range src {
				if nulls.IsNull(i) {
					*(*D)(dst.at(i)) = zero
				}
			}
		}
		return
	}
	if nulls.Bits == nil {
		for i, x := range src {
			*(*D)(dst.at(i)) = D(x)
		}
		return
	}
	for i, x := range src {
		if nulls.IsValid(i) {
			*(*D)(dst.at(i)) = D(x)
		}
	}
}

func convertFloat16[D number](src []float16.Num, nulls slice.Bitmap, dst strided) {
	for i, x := range src {
		if nulls.IsValid(i) {
			*(*D)(dst.at(i)) = D(float16Value(x))
		}
	}
}

// float16Value is x as a float32, exactly. arrow-go's Num.Float32 (v18.8.0)
// reads a subnormal's fraction bits as a float32 subnormal's: 2⁻¹⁴⁹ for
// the bits 0x0001, whose value is 2⁻²⁴.
func float16Value(x float16.Num) float32 {
	bits := x.Uint16()
	if bits&0x7c00 != 0 { // normal, infinite or NaN: Float32 is exact
		return x.Float32()
	}
	f := float32(bits&0x3ff) * (1.0 / (1 << 24))
	if bits&0x8000 != 0 {
		f = -f
	}
	return f
}

// integerAccept is the Arrow integers a Go integer type holds without
// loss: signed ones no wider, unsigned ones narrower; with strict, its own.
func integerAccept(t reflect.Type, strict bool) views.Accept {
	own := integerWidthOf(t)
	var a views.Accept
	for _, w := range integerWidths {
		switch {
		case strict && w.size == own.size && w.signed == own.signed:
		case !strict && own.signed && w.signed && w.size <= own.size:
		case !strict && own.signed && !w.signed && w.size < own.size:
		case !strict && !own.signed && !w.signed && w.size <= own.size:
		default:
			continue
		}
		a |= views.AcceptOf(w.id)
	}
	return a
}

// temporalStorageAccept is the temporal types whose storage integers (int32
// for date32 and time32, int64 for the others) a Go integer of width own
// holds without loss: a signed one at least as wide.
func temporalStorageAccept(own integerWidth) views.Accept {
	if !own.signed {
		return 0
	}
	return acceptRows(func(r *arrowtype.Row) bool { return r.Counts() && r.Bytes <= int(own.size) })
}

// boolDecoder decodes a bool array.
type boolDecoder struct{}

func (boolDecoder) inPlace() {}

func (boolDecoder) decode(v views.View, dst strided, _ *call) {
	n := v.Node().(*views.Bool)
	w := v.Window()
	nulls := v.Nulls()
	for i := range w.Len {
		if nulls.IsValid(i) {
			*(*bool)(dst.at(i)) = n.At(w.Offset + i)
		}
	}
}

// bool8Decoder decodes the int8 storage of an arrow.bool8 array: 0 is
// false, any other value true.
type bool8Decoder struct{}

func (bool8Decoder) inPlace() {}

func (bool8Decoder) decode(v views.View, dst strided, _ *call) {
	w := v.Window()
	nulls := v.Nulls()
	for i, x := range v.Node().(*views.Primitive[int8]).Values()[w.Offset:w.End()] {
		if nulls.IsValid(i) {
			*(*bool)(dst.at(i)) = x != 0
		}
	}
}

// nullDecoder decodes a null array: every row stays zero.
type nullDecoder struct{}

func (nullDecoder) inPlace() {}

func (nullDecoder) decode(views.View, strided, *call) {}

// copyDecoder decodes fixed-width values of Go type T that the Arrow type
// stores as they are (the intervals): a copy per valid row.
type copyDecoder[T any] struct{}

func (copyDecoder[T]) inPlace() {}

func (copyDecoder[T]) decode(v views.View, dst strided, _ *call) {
	w := v.Window()
	nulls := v.Nulls()
	for i, x := range v.Node().(*views.Primitive[T]).Values()[w.Offset:w.End()] {
		if nulls.IsValid(i) {
			*(*T)(dst.at(i)) = x
		}
	}
}

// compileNull plans a level whose every row is null: any field that can
// hold a null takes it.
func (c *compiler) compileNull(t reflect.Type, tag tags.Tag, dt arrow.DataType, at where) (*codec, *views.Type, error) {
	if !nullableKind(t) && !tag.Nullable {
		return nil, nil, mismatchOf(t, dt, at, "every row is null, and the field is neither a pointer, a slice, a map nor nullable")
	}
	cd := newCodec(t)
	cd.dec = nullDecoder{}
	return c.finish(cd, at), &views.Type{Accept: nullAccept, Nullable: true, Label: at.path}, nil
}

// compileValue plans arrow-go's Go type of a type's values (float16.Num,
// an interval) from that type alone: a float16.Num is no Go number, and
// the three intervals count different things, so none widens into
// another.
func (c *compiler) compileValue(l *level) (*codec, *views.Type, error) {
	vt := valueTypes[l.t]
	if !l.takes(views.AcceptOf(vt.dt.ID())) {
		return l.mismatch("%s reads %s", l.t, vt.dt)
	}
	l.cd.dec = vt.decoder
	return c.done(l)
}

func (c *compiler) compileBool(l *level) (*codec, *views.Type, error) {
	if l.ext == extBool8 {
		// Its storage, one int8 a value, as Encode writes it: 0 is false,
		// any other value true, as arrow-go's Bool8Array reads it.
		if !l.takes(bool8Storage) {
			return l.mismatch("a bool reads an arrow.bool8 of int8")
		}
		l.cd.dec = bool8Decoder{}
		return c.done(l)
	}
	if !l.takes(views.Bools) {
		return l.mismatch("a bool reads bool, and the extension arrow.bool8")
	}
	l.cd.dec = boolDecoder{}
	return c.done(l)
}

func (c *compiler) compileInteger(l *level) (*codec, *views.Type, error) {
	integers := integerAccept(l.t, c.opts.strict)
	accept := integers
	if !l.strictEncoding {
		// A temporal column's raw storage integers, so that no valid value
		// is unreadable (a duration[s] too long for a time.Duration).
		accept |= temporalStorageAccept(integerWidthOf(l.t))
	}
	if !l.takes(accept) {
		if temporal := accept &^ integers; temporal != 0 {
			return l.mismatch("%s reads %s without loss, and the storage of %s", l.t.Kind(), integers, temporal)
		}
		return l.mismatch("%s reads %s without loss", l.t.Kind(), accept)
	}
	l.cd.dec = integerWidthOf(l.t).decoder
	return c.done(l)
}

func (c *compiler) compileFloat(l *level) (*codec, *views.Type, error) {
	single := l.t.Kind() == reflect.Float32
	// A float reads the floats no wider than itself; Strict, its own width.
	fits := func(r *arrowtype.Row) bool { return r.Float && r.Bytes <= int(l.t.Size()) }
	if c.opts.strict {
		fits = func(r *arrowtype.Row) bool { return r.Float && r.Bytes == int(l.t.Size()) }
	}
	accept := acceptRows(fits)
	if !l.takes(accept) {
		return l.mismatch("%s reads %s without loss", l.t.Kind(), accept)
	}
	if single {
		l.cd.dec = numberDecoder[float32]{}
	} else {
		l.cd.dec = numberDecoder[float64]{}
	}
	return c.done(l)
}

// The sets of types Null and float16.Num read, from the table, and the
// storage of a bool8 (views.Bools is what a bool reads).
var (
	nullAccept = acceptRows(func(r *arrowtype.Row) bool { return r.Layout == arrowtype.Null })
	// bool8Storage is the storage of an arrow.bool8: int8.
	bool8Storage = acceptRows(func(r *arrowtype.Row) bool { return r.Integer && r.Value == arrowtype.Int8 })
)
