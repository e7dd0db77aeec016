package mapper

import (
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/tags"
)

// bool (or its arrow.bool8 storage), the integers, the floats and
// float16.Num encoded to the Arrow type of their width, and Null to null;
// decode_numbers.go reads them.

// boolEncoderOf maps bool to Arrow's bool, or, tagged arrow.bool8, to its
// int8 storage.
func boolEncoderOf(t reflect.Type, tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	if tag.Extension == extBool8 {
		return arrow.PrimitiveTypes.Int8, &convertEncoder[bool, int8]{encLevel: lv, convert: bool8Of}, checkTagParts(t, tag, lv.at, 0)
	}
	return arrow.FixedWidthTypes.Boolean, &valuesEncoder[bool]{encLevel: lv}, checkTagParts(t, tag, lv.at, 0)
}

// integerEncoderOf maps an integer to the Arrow integer of its width, or,
// tagged with a temporal type, to that type (temporalStorageOf).
func integerEncoderOf(t reflect.Type, tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	w := integerWidthOf(t)
	if tag.Temporal != tags.TemporalDefault {
		return temporalStorageOf(t, tag, w, lv)
	}
	return w.dt, w.encoder(lv), checkTagParts(t, tag, lv.at, 0)
}

// valueEncoderOf maps arrow-go's Go type of a type's values (float16.Num,
// an interval) to that type, the values written as they are.
func valueEncoderOf(t reflect.Type, tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	vt := valueTypes[t]
	return vt.dt, vt.encoder(lv), checkTagParts(t, tag, lv.at, 0)
}

// nullEncoderOf maps Null to Arrow's null type.
func nullEncoderOf(t reflect.Type, tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	return arrow.Null, nullEncoder{}, checkTagParts(t, tag, lv.at, 0)
}

// floatEncoderOf maps float32 and float64 to the Arrow float of their size.
func floatEncoderOf(t reflect.Type, tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	if t.Kind() == reflect.Float32 {
		return arrow.PrimitiveTypes.Float32, &valuesEncoder[float32]{encLevel: lv}, checkTagParts(t, tag, lv.at, 0)
	}
	return arrow.PrimitiveTypes.Float64, &valuesEncoder[float64]{encLevel: lv}, checkTagParts(t, tag, lv.at, 0)
}

// nullEncoder writes a Null field: a null per row, of the null type.
type nullEncoder struct{}

func (nullEncoder) newWriter(b columnBuilder) writer { return &nullWriter{b: b} }

type nullWriter struct {
	b columnBuilder
	n int
}

func (w *nullWriter) prepare(s *goValues) error { w.n = s.n; return nil }

func (w *nullWriter) write() { w.b.appendSlots(w.n, nil) }

// bool8Of is a bool as arrow.bool8 stores it.
func bool8Of(b *bool) (int8, error) {
	if *b {
		return 1, nil
	}
	return 0, nil
}
