package mapper

import (
	"bytes"
	"unsafe"

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
