package mapper

import (
	"cmp"
	"encoding"
	"reflect"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/tags"
)

// goKind is the family of a Go type as arrowmap maps it. The decoder, the
// encoder and the comparisons all dispatch on it, so that which Go type is
// what (time.Duration before int64, [N]byte before [N]T, time.Time before
// struct) is decided in one place, kindOf.
type goKind uint8

const (
	kindUnsupported goKind = iota // channels, functions, complex numbers, interfaces, unsafe pointers
	kindBool
	kindInt   // int, int8, …, int64, and types whose underlying type is one
	kindUint  // uint, uint8, …, uint64, uintptr
	kindFloat // float32, float64
	kindString
	kindBytes     // a slice of a uint8 kind: []byte
	kindByteArray // an array of a uint8 kind: [N]byte
	kindTime      // time.Time
	kindDuration  // time.Duration, although its reflect.Kind is Int64
	kindDecimal   // decimal.Decimal32, 64, 128 and 256
	kindValue     // arrow-go's Go type of a type's values, where no Go type holds them: float16.Num, arrow.MonthInterval, …
	kindNull      // Null, of Arrow's null type
	// kindText is a type read or written as text through
	// encoding.TextUnmarshaler or TextMarshaler. kindOf never says it: the
	// decoder and the encoder each decide where a type is text
	// (decodeKindOf, encodeKindOf).
	kindText
	kindList  // any other slice
	kindArray // any other array
	kindMap
	kindStruct
	kindPointer
)

var kindNames = [...]string{
	kindUnsupported: "unsupported", kindBool: "bool", kindInt: "int", kindUint: "uint",
	kindFloat: "float", kindString: "string", kindBytes: "bytes",
	kindByteArray: "byte array", kindTime: "time", kindDuration: "duration", kindDecimal: "decimal",
	kindValue: "arrow-go value", kindNull: "null",
	kindText: "text", kindList: "list", kindArray: "array", kindMap: "map", kindStruct: "struct",
	kindPointer: "pointer",
}

func (k goKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "goKind(?)"
}

// reflectKinds is the family of each reflect.Kind, before kindOf looks at
// the well-known types and at slice and array elements.
var reflectKinds = [...]goKind{
	reflect.Bool: kindBool,
	reflect.Int:  kindInt, reflect.Int8: kindInt, reflect.Int16: kindInt, reflect.Int32: kindInt, reflect.Int64: kindInt,
	reflect.Uint: kindUint, reflect.Uint8: kindUint, reflect.Uint16: kindUint, reflect.Uint32: kindUint,
	reflect.Uint64: kindUint, reflect.Uintptr: kindUint,
	reflect.Float32: kindFloat, reflect.Float64: kindFloat,
	reflect.String: kindString,
	reflect.Slice:  kindList, reflect.Array: kindArray, reflect.Map: kindMap, reflect.Struct: kindStruct,
	reflect.Pointer:       kindPointer,
	reflect.UnsafePointer: kindUnsupported,
}

// kindOf is the family of Go type t, from the type alone. Well-known types
// are matched by identity, so that a type defined on one (type Stamp
// time.Time) maps by its underlying kind, as every other named type does.
func kindOf(t reflect.Type) goKind {
	switch t {
	case timeType:
		return kindTime
	case durationType:
		return kindDuration
	case nullType:
		return kindNull
	}
	if _, ok := decimalWidthOf(t); ok {
		return kindDecimal
	}
	if _, ok := valueTypes[t]; ok {
		return kindValue
	}
	k := reflectKinds[t.Kind()]
	switch {
	case k == kindList && t.Elem().Kind() == reflect.Uint8:
		return kindBytes
	case k == kindArray && t.Elem().Kind() == reflect.Uint8:
		return kindByteArray
	}
	return k
}

// decodeKindOf is the family t decodes as from a column whose values are
// of type id. A type that implements encoding.TextUnmarshaler reads any
// string column through it, unless it is a string; []byte whose bytes an
// As converts is a list of them; [N]byte is a fixed_size_list but from
// fixed_size_binary.
func (c *planner) decodeKindOf(t reflect.Type, id arrow.Type) goKind {
	k := kindOf(t)
	switch {
	case k != kindString && isStringLike(id) && implementsTextUnmarshaler(t):
		return kindText
	case k == kindBytes && c.hasConversion(t.Elem()):
		return kindList
	case k == kindByteArray && arrowtype.Of(id).Layout != arrowtype.FixedBinary:
		return kindArray
	}
	return k
}

// encodeKindOf is the family t encodes as with its tag. Bytes an As
// converts are a list of them, and [N]byte tagged fixed_size_list is one;
// a type that implements encoding.TextMarshaler is text where it has no
// Arrow type of its own: when it is a list, an array, a map, a struct or
// unsupported.
func (c *planner) encodeKindOf(t reflect.Type, tag tags.Tag) goKind {
	k := kindOf(t)
	switch {
	case k == kindBytes && c.hasConversion(t.Elem()):
		k = kindList
	case k == kindByteArray && (c.hasConversion(t.Elem()) || tag.Encoding == tags.FixedSizeList):
		k = kindArray
	}
	switch k {
	case kindList, kindArray, kindMap, kindStruct, kindUnsupported:
		if implementsTextMarshaler(t) {
			return kindText
		}
	}
	return k
}

var (
	timeType            = reflect.TypeFor[time.Time]()
	durationType        = reflect.TypeFor[time.Duration]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

func implementsTextUnmarshaler(t reflect.Type) bool {
	return reflect.PointerTo(t).Implements(textUnmarshalerType)
}

// integerWidth is one of Arrow's integer types, and what maps the Go
// integers of its size and sign to it.
type integerWidth struct {
	id      arrow.Type
	dt      arrow.DataType
	size    uintptr // of the Go integers, in bytes
	signed  bool
	decoder decoder // into a Go integer of this width, from any integer it holds
	encoder func(lv encLevel) encoder
	compare func(a, b unsafe.Pointer) int
}

// integerWidths are Arrow's integer types, narrowest first within each
// sign, signed first.
var integerWidths = func() []integerWidth {
	var ws []integerWidth
	for _, signed := range []bool{true, false} {
		for _, r := range arrowtype.Rows() {
			if r.Integer && r.Signed == signed {
				k := kitOf(r.Value)
				ws = append(ws, integerWidth{id: r.ID, dt: r.Make(), size: uintptr(r.Bytes), signed: r.Signed,
					decoder: k.decoder, encoder: k.encoder, compare: k.compare})
			}
		}
	}
	return ws
}()

// integerWidthOf is the width of a type of integer kind (time.Duration and
// the narrow decimals included), by its size and its reflect kind's sign.
func integerWidthOf(t reflect.Type) integerWidth {
	signed := reflectKinds[t.Kind()] == kindInt
	for _, w := range integerWidths {
		if w.size == t.Size() && w.signed == signed {
			return w
		}
	}
	panic("arrowmap: " + t.String() + " is no integer") // callers pass integer kinds only
}

// decimalWidth is one of Arrow's decimal types and the Go decimal number
// type of its width.
type decimalWidth struct {
	typ          reflect.Type
	id           arrow.Type
	bits         int
	maxPrecision int32
	typeOf       func(precision, scale int32) arrow.DataType
	decoder      decoder // into typ, from any decimal no wider
	encoder      func(precision, scale int32, lv encLevel) (arrow.DataType, encoder)
	compare      func(a, b unsafe.Pointer) int
	// fitsPrecision checks, when a record is viewed, that a column of this
	// width holds no value past its declared precision.
	fitsPrecision func(cd *codec) preparer
}

// decimalWidths are Arrow's decimal types, narrowest first.
var decimalWidths = func() []decimalWidth {
	var ws []decimalWidth
	for _, r := range arrowtype.Decimals() {
		k := kitOf(r.Value)
		ws = append(ws, decimalWidth{
			typ: r.Value.GoType(), id: r.ID, bits: 8 * r.Bytes, maxPrecision: r.MaxPrecision,
			typeOf: r.DecimalOf, decoder: k.decoder,
			encoder: func(precision, scale int32, lv encLevel) (arrow.DataType, encoder) {
				return r.DecimalOf(precision, scale), k.decimal(precision, scale, lv)
			},
			compare: k.compare, fitsPrecision: k.fitsPrecision,
		})
	}
	return ws
}()

// decimalWidthOf is the width of a decimal number type; ok is false for
// any other type, a type defined on one included.
func decimalWidthOf(t reflect.Type) (w decimalWidth, ok bool) {
	for _, w := range decimalWidths {
		if w.typ == t {
			return w, true
		}
	}
	return decimalWidth{}, false
}

// decimalWidthFor is the width of decimal number type D.
func decimalWidthFor[D decimal.DecimalTypes]() decimalWidth {
	w, _ := decimalWidthOf(reflect.TypeFor[D]())
	return w
}

// valueKit is what mapper instantiates for the Go type of a fixed-width
// buffer: its adapter of arrow-go's builders and its encoder, and for
// integers, decimals and intervals their decoder and order.
type valueKit struct {
	adapter func(base arrowGoBuilder) columnBuilder
	encoder func(lv encLevel) encoder
	decoder decoder
	compare func(a, b unsafe.Pointer) int
	// Decimals only: the encoder of decimal(precision, scale), and the
	// check of a column's values against its precision.
	decimal       func(precision, scale int32, lv encLevel) encoder
	fitsPrecision func(cd *codec) preparer
}

func fixedKit[V arrowtype.FixedValue]() valueKit {
	return valueKit{adapter: newFixedAdapter[V], encoder: newValuesEncoder[V]}
}

func integerKit[V int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64]() valueKit {
	k := fixedKit[V]()
	k.decoder, k.compare = numberDecoder[V]{}, compareAs[V]
	return k
}

func decimalKit[D interface {
	arrowtype.FixedValue
	decimal.DecimalTypes
	decimal.Num[D]
}]() valueKit {
	k := fixedKit[D]()
	k.decoder, k.compare = decimalDecoder[D]{}, compareDecimal[D]
	k.decimal = newDecimalEncoder[D]
	k.fitsPrecision = func(cd *codec) preparer { return decimalsInPrecision[D]{cd} }
	return k
}

func intervalKit[V arrowtype.FixedValue]() valueKit {
	k := fixedKit[V]()
	k.decoder = copyDecoder[V]{}
	return k
}

// unorderedFloatKit is the kit of a float whose Go type is no Go number
// (float16.Num): copied as it is, ordered by its value.
func unorderedFloatKit[V interface {
	arrowtype.FixedValue
	Float32() float32
}]() valueKit {
	k := fixedKit[V]()
	k.decoder = copyDecoder[V]{}
	k.compare = func(a, b unsafe.Pointer) int { return cmp.Compare((*(*V)(a)).Float32(), (*(*V)(b)).Float32()) }
	return k
}

func newValuesEncoder[V any](lv encLevel) encoder { return &valuesEncoder[V]{encLevel: lv} }

func newDecimalEncoder[D interface {
	decimal.DecimalTypes
	decimal.Num[D]
}](precision, scale int32, lv encLevel) encoder {
	return &valuesEncoder[D]{encLevel: lv, check: decimalsFit[D](precision, scale)}
}

func compareDecimal[D interface {
	decimal.DecimalTypes
	decimal.Num[D]
}](a, b unsafe.Pointer) int {
	return (*(*D)(a)).Cmp(*(*D)(b))
}

var nullType = reflect.TypeFor[Null]()

// valueTypes are arrow-go's Go types of the values of a type of no
// parameters whose Go type they are, where no Go type holds them
// (float16.Num, the intervals), each with that Arrow type, which a field
// of one reads and writes exactly, copying the values as they are, and
// with their order as map keys (nil: field by field).
var valueTypes = func() map[reflect.Type]valueType {
	m := map[reflect.Type]valueType{}
	for _, r := range arrowtype.Rows() {
		t := r.Value.GoType()
		if dt, plain := arrowtype.Plain(r.ID); plain && r.GoType == t && t != nil && t.PkgPath() != "" {
			k := kitOf(r.Value)
			m[t] = valueType{dt: dt, decoder: k.decoder, encoder: k.encoder, compare: k.compare}
		}
	}
	return m
}()

type valueType struct {
	dt      arrow.DataType
	decoder decoder
	encoder func(lv encLevel) encoder
	compare func(a, b unsafe.Pointer) int
}
