package mapper

import (
	"encoding"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/tags"
)

// Strings, []byte, [N]byte and the types that implement
// encoding.TextMarshaler encoded to Arrow's string and binary layouts;
// decode_strings.go reads them.

// stringEncoderOf maps a string: utf8 in the layout the tag asks for, or,
// tagged decimal(p,s), a decimal of its text.
func stringEncoderOf(t reflect.Type, tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	if tag.Decimal != nil {
		if err := checkTagParts(t, tag, lv.at, partDecimal); err != nil {
			return nil, nil, err
		}
		return decimalTextEncoderOf(tag.Decimal, lv)
	}
	dt, err := layoutOf(stringLayouts, t, tag, lv.at)
	return dt, &binaryEncoder{encLevel: lv, text: true, utf8: true}, err
}

// byteArrayEncoderOf maps [N]byte to fixed_size_binary(N).
func byteArrayEncoderOf(t reflect.Type, tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	if err := checkTagParts(t, tag, lv.at, partLayout); err != nil {
		return nil, nil, err
	}
	if (tag.Encoding != tags.EncodingDefault && tag.Encoding != tags.FixedSizeBinary) || tag.Large || tag.View {
		return nil, nil, newError(ErrTag, lv.at.path, lv.at.column, -1, "%s has no %s layout", t, tagLayoutName(tag))
	}
	if t.Len() == 0 {
		return nil, nil, newError(ErrUnsupported, lv.at.path, lv.at.column, -1, "%s has no bytes", t)
	}
	return arrowtype.FixedSizeBinaryOf(t.Len()), &byteArrayEncoder{encLevel: lv, width: t.Len()}, nil
}

// bytesEncoderOf maps []byte to a binary layout, or, tagged arrow.json, to
// a utf8 one.
func bytesEncoderOf(t reflect.Type, tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	l := binaryLayouts
	if tag.Extension == extJSON {
		l = stringLayouts // JSON text in bytes, as json.RawMessage holds it
	}
	dt, err := layoutOf(l, t, tag, lv.at)
	return dt, &binaryEncoder{encLevel: lv, utf8: l == stringLayouts}, err
}

// textEncoderOf maps a type that implements encoding.TextMarshaler to a
// utf8 layout of its text.
func textEncoderOf(t reflect.Type, tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	dt, err := layoutOf(stringLayouts, t, tag, lv.at)
	return dt, &textEncoder{encLevel: lv, typ: t}, err
}

// binaryEncoder writes strings and []byte (and the named types of them)
// in any utf8 or binary layout, staged straight from the Go values. A nil
// []byte is null; a value of a utf8 layout that is not UTF-8 is
// ErrInvalidData.
type binaryEncoder struct {
	encLevel
	text bool // strings, else []byte
	utf8 bool // into utf8, large_utf8 or utf8_view: the values must be UTF-8
}

type binaryWriter struct {
	*binaryEncoder
	b     columnBuilder
	n     int    // values staged
	valid []bool // of the values staged, when nulls
	nulls bool
}

func (e *binaryEncoder) newWriter(b columnBuilder) writer {
	return &binaryWriter{binaryEncoder: e, b: b}
}

// prepare stages the values of s, which fails when they do not fit the
// layout's offsets.
func (w *binaryWriter) prepare(s *goValues) error {
	w.n = s.n
	w.valid = resize(w.valid, s.n)
	var bad int
	var err error
	if w.nulls, bad, err = w.b.stageBytes(s, bytesOf{text: w.text, utf8: w.utf8, nullable: w.nullable}, w.valid); bad >= 0 {
		return w.fail(s, bad, err)
	}
	return nil
}

func (w *binaryWriter) write() { w.b.appendSlots(w.n, nullsOnly(w.valid, w.nulls)) }

// nullsOnly is valid when nulls, else nil: all valid.
func nullsOnly(valid []bool, nulls bool) []bool {
	if nulls {
		return valid
	}
	return nil
}

// byteArrayEncoder writes [N]byte as fixed_size_binary(N).
type byteArrayEncoder struct {
	encLevel
	width int
}

type byteArrayWriter struct {
	*byteArrayEncoder
	b       columnBuilder
	n       int // values staged
	present []bool
	buf     []bool
}

func (e *byteArrayEncoder) newWriter(b columnBuilder) writer {
	return &byteArrayWriter{byteArrayEncoder: e, b: b}
}

// prepare copies the arrays into the builder's staged values, zeros for
// an absent one.
func (w *byteArrayWriter) prepare(s *goValues) error {
	w.n = s.n
	w.present = s.presence(&w.buf)
	dst := w.b.stageFixed(s.n, w.width)
	k := 0
	for i := range s.numSpans() {
		sp := s.span(i)
		out := dst[k*w.width : (k+sp.n)*w.width]
		switch {
		case sp.p == nil:
			clear(out)
		case s.stride == uintptr(w.width): // then off is 0: the arrays are back to back
			copy(out, unsafe.Slice((*byte)(sp.p), len(out)))
		default:
			for j := range sp.n {
				copy(out[j*w.width:], unsafe.Slice((*byte)(s.at(sp.p, j)), w.width))
			}
		}
		k += sp.n
	}
	return nil
}

func (w *byteArrayWriter) write() { w.b.appendSlots(w.n, w.validity(w.present)) }

// textEncoder writes a type that implements encoding.TextMarshaler as its
// text, which must be UTF-8 (ErrInvalidData).
type textEncoder struct {
	encLevel
	typ reflect.Type
}

type textWriter struct {
	*textEncoder
	b     columnBuilder
	addrs []unsafe.Pointer
	text  []byte // the text of every value, back to back
	ends  []int
	strs  []string         // the text of each value, in text
	ptrs  []unsafe.Pointer // to strs, nil for an absent value
	valid []bool
	nulls bool
}

func (e *textEncoder) newWriter(b columnBuilder) writer {
	return &textWriter{textEncoder: e, b: b}
}

// prepare marshals the values of s and stages their text as strings.
func (w *textWriter) prepare(s *goValues) error {
	w.addrs = s.addresses(w.addrs)
	w.ends = resize(w.ends, s.n)
	w.text = w.text[:0]
	for k, p := range w.addrs {
		if p != nil {
			text, err := reflect.NewAt(w.typ, p).Interface().(encoding.TextMarshaler).MarshalText()
			if err != nil {
				return w.fail(s, k, fmt.Errorf("%w: %s.MarshalText: %w", ErrInvalidData, w.typ, err))
			}
			w.text = append(w.text, text...)
		}
		w.ends[k] = len(w.text)
	}
	w.strs, w.ptrs = resize(w.strs, s.n), resize(w.ptrs, s.n)
	start := 0
	for k, end := range w.ends {
		w.strs[k] = ""
		if end > start {
			w.strs[k] = unsafe.String(&w.text[start], end-start)
		}
		w.ptrs[k] = nil
		if w.addrs[k] != nil {
			w.ptrs[k] = unsafe.Pointer(&w.strs[k])
		}
		start = end
	}
	texts := goValues{ptrs: w.ptrs, n: s.n, parent: s}
	w.valid = resize(w.valid, s.n)
	var bad int
	var err error
	if w.nulls, bad, err = w.b.stageBytes(&texts, bytesOf{text: true, utf8: true, nullable: w.nullable}, w.valid); bad >= 0 {
		return w.fail(s, bad, err)
	}
	return nil
}

func (w *textWriter) write() { w.b.appendSlots(len(w.ends), nullsOnly(w.valid, w.nulls)) }

func implementsTextMarshaler(t reflect.Type) bool {
	return reflect.PointerTo(t).Implements(textMarshalerType)
}
