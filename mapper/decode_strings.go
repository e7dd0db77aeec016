package mapper

import (
	"bytes"
	"encoding"
	"reflect"
	"unsafe"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/slice"
	"github.com/arrowmap/arrowmap/views"
)

// stringDecoder decodes utf8, large_utf8 and utf8_view into strings, and
// decimals into their exact text. Strings are copied into one arena per
// call, or alias Arrow memory with ZeroCopy.
type stringDecoder struct{}

func (stringDecoder) decode(v views.View, dst strided, c *call) {
	if !decodeBinary[string](v, dst, c.zeroCopy) {
		decodeDecimalText(v, v.Nulls(), dst)
	}
}

// decodeBinary decodes a utf8 or binary view of any offsets, or a view
// type, into S, and reports whether v was one of those. The bytes are
// copied into one arena per call, or alias Arrow memory with zeroCopy.
func decodeBinary[S string | []byte](v views.View, dst strided, zeroCopy bool) bool {
	w := v.Window()
	nulls := v.Nulls()
	switch n := v.Node().(type) {
	case *views.Binary[int32]:
		decodeOffsets[S](n.Offsets()[w.Offset:w.End()+1], n.Data(), nulls, dst, zeroCopy)
	case *views.Binary[int64]:
		decodeOffsets[S](n.Offsets()[w.Offset:w.End()+1], n.Data(), nulls, dst, zeroCopy)
	case *views.BinaryView:
		arena := viewArena(n, w, nulls, zeroCopy)
		for i := range w.Len {
			if nulls.IsValid(i) {
				var b []byte
				b, arena = viewValue(n, w.Offset+i, arena)
				put[S](dst.at(i), b)
			}
		}
	default:
		return false
	}
	return true
}

// put stores b at p as an S: a string aliasing b, or a []byte capped at its
// length, non-nil even when empty.
func put[S string | []byte](p unsafe.Pointer, b []byte) {
	if unsafe.Sizeof(*new(S)) == unsafe.Sizeof("") {
		if len(b) > 0 {
			*(*string)(p) = unsafe.String(&b[0], len(b))
		}
		return
	}
	setBytes(p, b)
}

// window is the bytes of rows delimited by offsets, copied unless zeroCopy.
func window[O slice.Offset](offsets []O, data []byte, zeroCopy bool) []byte {
	buf := data[offsets[0]:offsets[len(offsets)-1]]
	if !zeroCopy {
		buf = bytes.Clone(buf)
	}
	return buf
}

// decodeOffsets decodes the rows delimited by offsets into S.
func decodeOffsets[S string | []byte, O slice.Offset](offsets []O, data []byte, nulls slice.Bitmap, dst strided, zeroCopy bool) {
	buf := window(offsets, data, zeroCopy)
	start := offsets[0]
	for i := range len(offsets) - 1 {
		if nulls.IsValid(i) {
			a, b := offsets[i]-start, offsets[i+1]-start
			put[S](dst.at(i), buf[a:b:b])
		}
	}
}

// viewArena is one copy of the bytes of the non-null rows w of a view-type
// array, in row order; nil with zeroCopy.
func viewArena(n *views.BinaryView, w slice.Window, nulls slice.Bitmap, zeroCopy bool) []byte {
	if zeroCopy {
		return nil
	}
	total := 0
	for i := range w.Len {
		if nulls.IsValid(i) {
			total += len(n.At(w.Offset + i))
		}
	}
	return make([]byte, 0, total)
}

// viewValue is the bytes of row i of a view-type array: copied to the end
// of arena when it is not nil (the arena is returned grown), else aliasing
// the array.
func viewValue(n *views.BinaryView, i int, arena []byte) (b, grown []byte) {
	b = n.At(i)
	if arena == nil {
		return b, nil
	}
	at := len(arena)
	arena = append(arena, b...)
	return arena[at:len(arena):len(arena)], arena
}

// bytesDecoder decodes every binary encoding and fixed_size_binary into
// []byte: each row a capped window of one arena (or of Arrow memory with
// ZeroCopy). An empty value is an empty, non-nil slice.
type bytesDecoder struct{}

func (bytesDecoder) decode(v views.View, dst strided, c *call) {
	if decodeBinary[[]byte](v, dst, c.zeroCopy) {
		return
	}
	n := v.Node().(*views.FixedSizeBinary)
	w := v.Window()
	nulls := v.Nulls()
	width := n.Width()
	buf := n.Data()[w.Offset*width : w.End()*width]
	if !c.zeroCopy {
		buf = bytes.Clone(buf)
	}
	for i := range w.Len {
		if nulls.IsValid(i) {
			setBytes(dst.at(i), buf[i*width:(i+1)*width:(i+1)*width])
		}
	}
}

// setBytes writes b to dst, keeping an empty value non-nil.
func setBytes(dst unsafe.Pointer, b []byte) {
	setSlice(dst, unsafe.Pointer(unsafe.SliceData(b)), len(b))
}

// byteArrayDecoder decodes fixed_size_binary(N), and the extensions stored
// as it such as arrow.uuid, into [N]byte.
type byteArrayDecoder struct{}

func (byteArrayDecoder) inPlace() {}

func (byteArrayDecoder) decode(v views.View, dst strided, _ *call) {
	n := v.Node().(*views.FixedSizeBinary)
	w := v.Window()
	nulls := v.Nulls()
	width := n.Width()
	for i := range w.Len {
		if nulls.IsValid(i) {
			copy(unsafe.Slice((*byte)(dst.at(i)), width), n.At(w.Offset+i))
		}
	}
}

// eachBytes calls f with the bytes of each non-null row of a string or
// binary view, aliasing Arrow memory, and stops at the first error.
func eachBytes(v views.View, f func(i int, b []byte) error) error {
	w := v.Window()
	nulls := v.Nulls()
	at, ok := v.Node().(interface{ At(int) []byte })
	if !ok {
		return nil
	}
	for i := range w.Len {
		if nulls.IsValid(i) {
			if err := f(i, at.At(w.Offset+i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// compileText plans a type that reads a string column through its
// UnmarshalText, when the level is viewed.
func (c *compiler) compileText(l *level) (*codec, *views.Type, error) {
	l.vt.Accept |= views.Strings
	l.cd.dec = preparedDecoder{cd: l.cd}
	l.cd.prep = textPreparer{cd: l.cd}
	return c.done(l)
}

func (c *compiler) compileString(l *level) (*codec, *views.Type, error) {
	accept := views.Strings | views.Decimals
	if l.strictEncoding {
		accept = plainStrings | views.Decimals
	}
	if !l.takes(accept) {
		return l.mismatch("a string reads utf8, large_utf8, utf8_view or a decimal")
	}
	l.cd.dec = stringDecoder{}
	l.cd.prep = decimalPrecisionPreparer(l.cd, l.row) // decimal text
	return c.done(l)
}

func (c *compiler) compileBytes(l *level) (*codec, *views.Type, error) {
	accept := views.Binaries | views.FixedBinaries
	if l.strictEncoding {
		accept = plainBinaries
	}
	if l.ext == extJSON {
		// JSON text, as json.RawMessage holds it and Encode writes it.
		accept = views.Strings
		if l.strictEncoding {
			accept = plainStrings
		}
	}
	if !l.takes(accept) {
		if l.ext == extJSON {
			return l.mismatch("a []byte reads an arrow.json of utf8, large_utf8 or utf8_view")
		}
		return l.mismatch("a []byte reads binary, large_binary, binary_view or fixed_size_binary")
	}
	l.cd.dec = bytesDecoder{}
	return c.done(l)
}

// compileByteArray plans [N]byte from fixed_size_binary(N); decodeKindOf
// makes it a fixed_size_list from anything else.
func (c *compiler) compileByteArray(l *level) (*codec, *views.Type, error) {
	l.vt.Accept |= views.FixedBinaries
	l.vt.Size = l.t.Len()
	if w := arrowtype.ByteWidth(l.value); w != l.t.Len() {
		return l.mismatch("fixed_size_binary(%d) into %d bytes", w, l.t.Len())
	}
	l.cd.dec = byteArrayDecoder{}
	return c.done(l)
}

// textPreparer decodes utf8 into a type that implements
// encoding.TextUnmarshaler.
type textPreparer struct{ cd *codec }

func (p textPreparer) prepare(v views.View, c *call) (unsafe.Pointer, error) {
	results := p.cd.newBacking(v.Len())
	err := eachBytes(v, func(i int, b []byte) error {
		u := reflect.NewAt(p.cd.typ, results.at(i)).Interface().(encoding.TextUnmarshaler)
		if err := u.UnmarshalText(b); err != nil {
			return p.cd.rowError(ErrInvalidData, c, i, "%s.UnmarshalText(%q): %v", p.cd.typ, b, err)
		}
		return nil
	})
	return newPreparedValues(v, results), err
}

// The plain layouts of strings and binaries, which Strict reads where no
// tag pins another.
var (
	plainStrings  = acceptRows(func(r *arrowtype.Row) bool { return r.PlainLayout() && r.Text })
	plainBinaries = acceptRows(func(r *arrowtype.Row) bool { return r.PlainLayout() && r.Layout == arrowtype.Binary && !r.Text })
)
