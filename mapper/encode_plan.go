package mapper

import (
	"cmp"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/internal/dictindex"
	"github.com/arrowmap/arrowmap/tags"
)

// SchemaOf is the schema Encode writes rows of struct type T with, derived
// from the Go types and their tags:
//
//   - bool, intN, uintN, float32, float64 and float16.Num map to the Arrow
//     type of the same width; int to int64, uint and uintptr to uint64;
//     named types map by their underlying kind.
//   - string is utf8, []byte binary, [N]byte fixed_size_binary(N); the
//     pins utf8, large_utf8, utf8_view, binary, large_binary, binary_view,
//     large and view choose another layout. A string tagged decimal(p,s)
//     holds decimal text and is decimal128(p,s) (decimal256 past 38 digits).
//   - time.Time is timestamp[ns, UTC], or as tagged: timestamp with unit=
//     and tz=, date32 (its day in UTC) or date64 (a UTC midnight; another
//     instant is ErrInvalidData), time32 or time64 (its time of day in
//     UTC, as arreflect writes it; Decode reads times of day into
//     time.Duration only); time.Duration is duration[ns], or duration
//     with unit=, time32 or time64 (a time of day, in [0, 24h)).
//   - decimal.Decimal32, 64, 128 and 256 are decimal32(9,0), decimal64(18,0),
//     decimal128(38,0) and decimal256(76,0), or decimal(p,s) as tagged, p at
//     most those maximums.
//   - []T is list<T> (or large_list, list_view, large_list_view as pinned),
//     [N]T fixed_size_list<T>(N), map[K]V map<K, V> and a struct a struct,
//     at any depth; a type that implements encoding.TextMarshaler and is
//     none of the above is utf8.
//   - dict makes a level dictionary<int32, value> and ree
//     run_end_encoded<int32, value>.
//   - a struct of pointer variants tagged union (or sparse_union) is a
//     sparse_union of its variants, dense_union as tagged, with the codes
//     of their code= tags (else their indexes); see [UnionCode].
//
// Pointers, slices and maps are nullable; another level only with the tag
// nullable (arrow-elem:"nullable" for list elements, arrow-value for map
// values). A column is named by its tag, else by its Go field, in
// snake_case with SnakeCase. An As option with an encode func maps T as its
// R. Recursive types, channels, functions, complex numbers and interfaces
// are ErrUnsupported; a tag that does not apply to its field's type is
// ErrTag.
func SchemaOf[T any](opts ...WriteOption) (*arrow.Schema, error) {
	o, err := optionsFor("SchemaOf", schemaOptions, opts)
	if err != nil {
		return nil, err
	}
	p, err := cachedEncodePlan(reflect.TypeFor[T](), o)
	if err != nil {
		return nil, err
	}
	return p.schema, nil
}

// encodePlan is what encoding rows of a struct type needs, compiled once:
// the schema, and per column the way to its field and its encoder.
type encodePlan struct {
	rowType reflect.Type
	schema  *arrow.Schema
	fields  []fieldEncoder // by column
	writers sync.Pool      // of *recordWriter with the default allocator, for Encode
}

// fieldEncoder is a struct field as encoding reaches it: offsets from the
// struct, an embedded pointer to follow between each two.
type fieldEncoder struct {
	offsets []uintptr
	enc     encoder
}

// cachedEncodePlan is the encode plan for t, from the plan cache: it
// depends on no schema.
func cachedEncodePlan(t reflect.Type, o *options) (*encodePlan, error) {
	return planFor(encodeKind, t, nil, o, func() (*encodePlan, error) { return compileEncodePlan(t, o) })
}

// encodeCompiler holds what compiling one encoding plan needs: large and
// view inherited from a level above (arreflect's meaning: they apply to
// every level below the field), and how many levels up arrow-go's builders
// build.
type encodeCompiler struct {
	planner
	large, view  bool
	belowArrowGo int
}

func compileEncodePlan(t reflect.Type, o *options) (*encodePlan, error) {
	if t.Kind() != reflect.Struct {
		return nil, newError(ErrUnsupported, "", "", -1, "%s is not a struct", t)
	}
	c := &encodeCompiler{planner: planner{opts: o, stack: map[reflect.Type]bool{t: true}}}
	fields, encs, err := c.fieldsOf(t, where{})
	if err != nil {
		return nil, err
	}
	for _, f := range fields {
		if err := denseUnionBelowArrowGo(f.Type, false, where{column: f.Name}); err != nil {
			return nil, err
		}
	}
	md := o.schemaMeta
	if o.given&optSchemaMetadata == 0 {
		if m, ok := reflect.Zero(t).Interface().(interface{ ArrowSchemaMetadata() arrow.Metadata }); ok {
			md = m.ArrowSchemaMetadata()
		}
	}
	var schemaMeta *arrow.Metadata
	if md.Len() > 0 {
		schemaMeta = &md
	}
	return &encodePlan{rowType: t, schema: arrow.NewSchema(fields, schemaMeta), fields: encs}, nil
}

// fieldsOf derives the Arrow fields of struct type t and their encoders.
func (c *encodeCompiler) fieldsOf(t reflect.Type, at where) ([]arrow.Field, []fieldEncoder, error) {
	goFields, ferr := structFields(t)
	if ferr != nil {
		ferr.Path = joinPath(at.path, ferr.Path)
		return nil, nil, ferr
	}
	fields := make([]arrow.Field, 0, len(goFields))
	encs := make([]fieldEncoder, 0, len(goFields))
	named := map[string]string{} // column name → Go path, of the fields without pos=
	for _, gf := range goFields {
		name := gf.name
		if c.opts.snakeCase && !gf.tagged {
			name = snakeCase(name)
		}
		fat := at.field(gf.path, name)
		// A name twice decodes back only when pos= tells the columns apart
		// (matchFields), and pos= only where the field is written.
		if gf.pos >= 0 && gf.pos != len(fields) {
			return nil, nil, newError(ErrTag, fat.path, fat.column, -1, "pos=%d, but fields are written in order and this one is column %d", gf.pos, len(fields))
		}
		if gf.pos < 0 {
			if other, ok := named[name]; ok {
				return nil, nil, newError(ErrTag, fat.path, fat.column, -1, "%s has column %q too", other, name)
			}
			named[name] = fat.path
		}
		f, enc, err := c.encoderOf(gf.typ, gf.tag, false, fat)
		if err != nil {
			return nil, nil, err
		}
		f.Name = name
		fields = append(fields, f)
		encs = append(encs, fieldEncoder{offsets: offsetsOf(t, gf.index), enc: enc})
	}
	return fields, encs, nil
}

// offsetsOf is the way from a value of struct type t to its field at index
// (as reflect.Type.FieldByIndex): an offset per struct, with a pointer to
// follow between each two.
func offsetsOf(t reflect.Type, index []int) []uintptr {
	offsets := []uintptr{0}
	for depth, i := range index {
		sf := t.Field(i)
		offsets[len(offsets)-1] += sf.Offset
		t = sf.Type
		if depth < len(index)-1 && t.Kind() == reflect.Pointer {
			t = t.Elem()
			offsets = append(offsets, 0)
		}
	}
	return offsets
}

// encoderOf derives the Arrow field (without its name) of one level, Go
// type t with its tag, and the encoder that writes it. nullable is set when
// the level is reached through a pointer.
func (c *encodeCompiler) encoderOf(t reflect.Type, tag tags.Tag, nullable bool, at where) (arrow.Field, encoder, error) {
	if c.stack[t] {
		return arrow.Field{}, nil, newError(ErrUnsupported, at.path, at.column, -1, "%s is recursive", t)
	}
	c.stack[t] = true
	defer delete(c.stack, t)

	if conv, ok := c.opts.conversions[t]; ok {
		if conv.encode == nil {
			return arrow.Field{}, nil, newError(ErrUnsupported, at.path, at.column, -1, "the As option for %s has no encode func", t)
		}
		f, elem, err := c.encoderOf(conv.from, tag, nullable || nullableKind(t), at)
		if err != nil {
			return arrow.Field{}, nil, err
		}
		return f, newAsEncoder(t, conv, elem, at), nil
	}
	if tag.Large || tag.View {
		defer c.inheritLayout(tag)()
	}
	if t.Kind() == reflect.Pointer {
		pointee := tag
		pointee.NotNull = false // the pointer's, which refuses nil; its pointee is not nullable by nature
		f, elem, err := c.encoderOf(t.Elem(), pointee, !tag.NotNull, at)
		if err != nil {
			return arrow.Field{}, nil, err
		}
		return f, notNull(tag, &pointerEncoder{elem: elem}, at), nil
	}
	if tag.NotNull && (!nullableKind(t) || t == nullType) {
		return arrow.Field{}, nil, newError(ErrTag, at.path, at.column, -1, "notnull does not apply to %s: it is for a pointer, a slice or a map, which are nullable by nature", t)
	}
	lv := encLevel{at: at, nullable: (nullable || tag.Nullable || nullableKind(t)) && !tag.NotNull}
	var dt arrow.DataType
	var enc encoder
	var err error
	if tag.Union != tags.NoUnion {
		dt, enc, err = c.unionEncoderOf(t, tag, lv)
	} else {
		dt, enc, err = c.valueEncoderOf(t, tag, lv)
	}
	if err != nil {
		return arrow.Field{}, nil, err
	}
	if tag.Extension != "" {
		if dt, err = extensionOf(tag, dt, at); err != nil {
			return arrow.Field{}, nil, err
		}
	} else if ext, err := declaredExtension(t, dt, at); err != nil {
		return arrow.Field{}, nil, err
	} else if ext != nil {
		dt = ext
	}
	switch {
	case tag.Dict:
		index := cmp.Or(tag.Index, arrow.DataType(arrow.PrimitiveTypes.Int32))
		d := arrowtype.DictionaryOf(index, dt, tag.Ordered)
		if c.belowArrowGo > 0 && !memoizedByArrowGo(d) {
			return arrow.Field{}, nil, newError(ErrUnsupported, at.path, at.column, -1,
				"%s below a list view, a fixed-size list, a map or a run-end encoding: arrow-go builds those levels, and no dictionary of %s with %s indexes", d, dt, index)
		}
		dt, enc = d, &dictEncoder{encLevel: lv, value: enc}
	case tag.REE:
		runEnds := cmp.Or(tag.RunEnds, arrow.DataType(arrow.PrimitiveTypes.Int32))
		ree := arrow.RunEndEncodedOf(runEnds, dt)
		ree.ValueNullable = lv.nullable
		dt, enc = ree, &reeEncoder{encLevel: lv, runEnds: runEnds, maxLen: int(dictindex.Max(runEnds)), value: enc, equal: equalOf(t), size: t.Size()}
	}
	return arrow.Field{Type: dt, Nullable: lv.nullable, Metadata: metadataOf(tag)}, notNull(tag, enc, at), nil
}

// metadataOf is the field metadata of `arrow-meta`.
func metadataOf(tag tags.Tag) arrow.Metadata {
	if tag.Metadata == nil {
		return arrow.Metadata{}
	}
	return *tag.Metadata
}

// nullableKind reports whether a Go type is nullable by nature: nil is
// null.
func nullableKind(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map:
		return true
	}
	return t == nullType // all it holds is a null
}

// valueEncoderOf derives the Arrow type of a level that is not a pointer,
// before dictionary or run-end encoding: it dispatches on the kind of t to
// one function per kind.
func (c *encodeCompiler) valueEncoderOf(t reflect.Type, tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	tag, err := impliedTemporal(t, tag, lv.at)
	if err != nil {
		return nil, nil, err
	}
	kind := c.encodeKindOf(t, tag)
	if kind == kindList && tag.Encoding == tags.Map {
		kind = kindMap // []E tagged map: a map's entries (entriesEncoderOf)
	}
	if tag.Encoding == tags.EncodingDefault && tag.Decimal == nil {
		switch kind {
		case kindString, kindBytes, kindText, kindList:
			tag.Large, tag.View = tag.Large || c.large, tag.View || c.view
		}
	}
	if tag.REE {
		c.belowArrowGo++ // the values of a run-end encoding
		defer func() { c.belowArrowGo-- }()
	}
	switch kind {
	case kindTime:
		return timeEncoderOf(tag, lv)
	case kindDuration:
		return durationEncoderOf(tag, lv)
	case kindDecimal:
		return decimalEncoderOf(t, tag, lv)
	case kindFloat16:
		return arrow.FixedWidthTypes.Float16, &valuesEncoder[float16.Num]{encLevel: lv}, checkTagParts(t, tag, lv.at, 0)
	case kindInterval:
		return intervalEncoderOf(t, tag, lv)
	case kindNull:
		return arrow.Null, nullEncoder{}, checkTagParts(t, tag, lv.at, 0)
	case kindString:
		return stringEncoderOf(t, tag, lv)
	case kindBytes:
		l := binaryLayouts
		if tag.Extension == extJSON {
			l = stringLayouts // JSON text in bytes, as json.RawMessage holds it
		}
		dt, err := layoutOf(l, t, tag, lv.at)
		return dt, &binaryEncoder{encLevel: lv, utf8: l == stringLayouts}, err
	case kindByteArray:
		return byteArrayEncoderOf(t, tag, lv)
	case kindBool:
		if tag.Extension == extBool8 {
			return arrow.PrimitiveTypes.Int8, &convertEncoder[bool, int8]{encLevel: lv, convert: bool8Of}, checkTagParts(t, tag, lv.at, 0)
		}
		return arrow.FixedWidthTypes.Boolean, &valuesEncoder[bool]{encLevel: lv}, checkTagParts(t, tag, lv.at, 0)
	case kindInt, kindUint:
		w := integerWidthOf(t)
		if tag.Temporal != tags.TemporalDefault {
			return temporalStorageOf(t, tag, w, lv)
		}
		return w.dt, w.encoder(lv), checkTagParts(t, tag, lv.at, 0)
	case kindFloat:
		return floatEncoderOf(t, tag, lv)
	case kindText:
		dt, err := layoutOf(stringLayouts, t, tag, lv.at)
		return dt, &textEncoder{encLevel: lv, typ: t}, err
	case kindList, kindArray:
		return c.listEncoderOf(t, tag, lv)
	case kindMap:
		return c.mapEncoderOf(t, tag, lv)
	case kindStruct:
		return c.structEncoderOf(t, tag, lv)
	}
	return nil, nil, newError(ErrUnsupported, lv.at.path, lv.at.column, -1, "%s cannot be encoded to Arrow", t)
}

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

// floatEncoderOf maps float32 and float64 to the Arrow float of their size.
func floatEncoderOf(t reflect.Type, tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	if t.Kind() == reflect.Float32 {
		return arrow.PrimitiveTypes.Float32, &valuesEncoder[float32]{encLevel: lv}, checkTagParts(t, tag, lv.at, 0)
	}
	return arrow.PrimitiveTypes.Float64, &valuesEncoder[float64]{encLevel: lv}, checkTagParts(t, tag, lv.at, 0)
}

// structEncoderOf maps a struct to an Arrow struct of its fields.
// inheritLayout makes the large and view of tag apply to every level
// below, as arreflect's do; the returned func restores what was inherited.
func (c *encodeCompiler) inheritLayout(tag tags.Tag) (restore func()) {
	large, view := c.large, c.view
	c.large, c.view = large || tag.Large, view || tag.View
	return func() { c.large, c.view = large, view }
}

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

// tagPart is a group of tag options; each Go type takes some of them.
type tagPart uint8

const (
	partLayout   tagPart = 1 << iota // an encoding pin, large, view
	partTemporal                     // timestamp, date32, …, with unit= and tz=
	partDecimal                      // decimal(p,s)
	partElem                         // arrow-elem
	partKeyValue                     // arrow-key, arrow-value
)

// checkTagParts is an ErrTag when the tag has an option outside takes.
func checkTagParts(t reflect.Type, tag tags.Tag, at where, takes tagPart) error {
	var option string
	switch {
	case takes&partLayout == 0 && tag.Encoding != tags.EncodingDefault:
		option = tag.Encoding.String()
	case takes&partLayout == 0 && tag.Large:
		option = "large"
	case takes&partLayout == 0 && tag.View:
		option = "view"
	case takes&partTemporal == 0 && tag.Temporal != tags.TemporalDefault:
		option = tag.Temporal.String()
	case takes&partDecimal == 0 && tag.Decimal != nil:
		option = "decimal"
	case takes&partElem == 0 && tag.Elem != nil:
		option = "arrow-elem"
	case takes&partKeyValue == 0 && tag.Key != nil:
		option = "arrow-key"
	case takes&partKeyValue == 0 && tag.Value != nil:
		option = "arrow-value"
	case tag.Union != tags.NoUnion:
		option = tag.Union.String()
	case tag.Code != nil:
		option = "code="
	case tag.TypeCode:
		option = "type_code"
	default:
		return nil
	}
	return newError(ErrTag, at.path, at.column, -1, "%s does not apply to %s", option, t)
}

// layouts are the rows of the types one Go kind can be laid out as.
type layouts struct{ rows []*arrowtype.Row }

var (
	stringLayouts = layoutsOf(func(r *arrowtype.Row) bool { return r.Text && isBytesLayout(r) })
	binaryLayouts = layoutsOf(func(r *arrowtype.Row) bool { return !r.Text && isBytesLayout(r) })
	listLayouts   = layoutsOf(func(r *arrowtype.Row) bool {
		return r.Layout == arrowtype.List && !r.Map || r.Layout == arrowtype.ListView
	})
)

func layoutsOf(accept func(r *arrowtype.Row) bool) *layouts {
	l := &layouts{}
	for _, id := range arrowtype.IDs(accept) {
		l.rows = append(l.rows, arrowtype.Of(id))
	}
	return l
}

func isBytesLayout(r *arrowtype.Row) bool {
	return r.Layout == arrowtype.Binary || r.Layout == arrowtype.View
}

func isView(r *arrowtype.Row) bool {
	return r.Layout == arrowtype.View || r.Layout == arrowtype.ListView
}

// layoutRow picks the layout the tag asks for: its pin, else large and
// view; large with view is a view where l has no large view, as arreflect
// makes it. ok is false when the tag asks for none of l.
func (l *layouts) layoutRow(tag tags.Tag) (*arrowtype.Row, bool) {
	if tag.Encoding != tags.EncodingDefault {
		r := pinnedRow(tag.Encoding)
		return r, r != nil && slices.Contains(l.rows, r)
	}
	for _, large := range []bool{tag.Large, false} {
		for _, r := range l.rows {
			if isView(r) == tag.View && r.Large == large {
				return r, true
			}
		}
		if !tag.View {
			break
		}
	}
	return nil, false
}

// layoutOf is the string or binary type of a tag.
func layoutOf(l *layouts, t reflect.Type, tag tags.Tag, at where) (arrow.DataType, error) {
	if err := checkTagParts(t, tag, at, partLayout); err != nil {
		return nil, err
	}
	r, ok := l.layoutRow(tag)
	if !ok {
		return nil, newError(ErrTag, at.path, at.column, -1, "%s has no %s layout", t, tagLayoutName(tag))
	}
	return r.Make(), nil
}

// tagLayoutName is how the tag asks for a layout, for errors.
func tagLayoutName(tag tags.Tag) string {
	switch {
	case tag.Encoding != tags.EncodingDefault:
		return tag.Encoding.String()
	case tag.Large && tag.View:
		return "large view"
	case tag.Large:
		return "large"
	}
	return "view"
}

// timestampRow and durationRow are the rows of time.Time and
// time.Duration where the tag pins no temporal type.
var (
	timestampRow = temporalRowWhere(arrowtype.Timestamp)
	durationRow  = temporalRowWhere(arrowtype.Duration)
)

func temporalRowWhere(t arrowtype.Temporal) *arrowtype.Row {
	return arrowtype.Of(arrowtype.IDs(func(r *arrowtype.Row) bool { return r.Temporal == t })[0])
}

// temporalTypeOf is the temporal type of a level as its tag gives it: the
// row it pins, else def, in the tag's unit, else the row's default.
func temporalTypeOf(tag tags.Tag, def *arrowtype.Row, at where) (*arrowtype.Row, arrow.DataType, arrow.TimeUnit, error) {
	r := cmp.Or(temporalRow(tag.Temporal), def)
	dt, err := temporalOf(r, tag)
	if err != nil {
		return nil, nil, 0, newError(ErrTag, at.path, at.column, -1, "%v", err)
	}
	unit, _ := arrowtype.Unit(dt)
	return r, dt, unit, nil
}

// timeEncoderOf maps time.Time: timestamp[ns, UTC] unless tagged.
func timeEncoderOf(tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	if err := checkTagParts(timeType, tag, lv.at, partTemporal); err != nil {
		return nil, nil, err
	}
	r, dt, unit, err := temporalTypeOf(tag, timestampRow, lv.at)
	if err != nil {
		return nil, nil, err
	}
	days := r.Value == arrowtype.Int32 // date32 and time32, else date64 and time64
	switch {
	case r.Temporal == arrowtype.Timestamp:
		return dt, &convertEncoder[time.Time, int64]{encLevel: lv, convert: timestampIn(unit)}, nil
	case r.Temporal == arrowtype.Date && days:
		return dt, &convertEncoder[time.Time, int32]{encLevel: lv, convert: date32Of}, nil
	case r.Temporal == arrowtype.Date:
		return dt, &convertEncoder[time.Time, int64]{encLevel: lv, convert: date64Of}, nil
	case r.Temporal == arrowtype.TimeOfDay && days:
		return dt, &convertEncoder[time.Time, int32]{encLevel: lv, convert: clockTimeIn[int32](unit)}, nil
	case r.Temporal == arrowtype.TimeOfDay:
		return dt, &convertEncoder[time.Time, int64]{encLevel: lv, convert: clockTimeIn[int64](unit)}, nil
	}
	return nil, nil, newError(ErrTag, lv.at.path, lv.at.column, -1, "%s does not apply to time.Time", tag.Temporal)
}

// temporalStorageOf maps a signed integer tagged with a temporal type to
// that type, the integer its storage as written: the Go type of a column
// whose values a time.Duration or a time.Time cannot all hold
// (duration[s] up to 2⁶³ seconds).
func temporalStorageOf(t reflect.Type, tag tags.Tag, w integerWidth, lv encLevel) (arrow.DataType, encoder, error) {
	if err := checkTagParts(t, tag, lv.at, partTemporal); err != nil {
		return nil, nil, err
	}
	r, dt, _, err := temporalTypeOf(tag, nil, lv.at)
	if err != nil {
		return nil, nil, err
	}
	if !w.signed || int(w.size) != r.Bytes {
		return nil, nil, newError(ErrTag, lv.at.path, lv.at.column, -1, "%s does not apply to %s: its storage is int%d", tag.Temporal, t, 8*r.Bytes)
	}
	if r.Temporal == arrowtype.Date && r.Value == arrowtype.Int64 { // date64: whole days in milliseconds
		return dt, &valuesEncoder[int64]{encLevel: lv, check: wholeDayMillis}, nil
	}
	return dt, w.encoder(lv), nil
}

// durationEncoderOf maps time.Duration: duration[ns] unless tagged.
func durationEncoderOf(tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	if err := checkTagParts(durationType, tag, lv.at, partTemporal); err != nil {
		return nil, nil, err
	}
	r, dt, unit, err := temporalTypeOf(tag, durationRow, lv.at)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case r.Temporal == arrowtype.Duration && unit == arrow.Nanosecond:
		return dt, &valuesEncoder[time.Duration]{encLevel: lv}, nil
	case r.Temporal == arrowtype.Duration:
		return dt, &convertEncoder[time.Duration, int64]{encLevel: lv, convert: durationIn(unit)}, nil
	case r.Temporal == arrowtype.TimeOfDay && r.Value == arrowtype.Int32:
		return dt, &convertEncoder[time.Duration, int32]{encLevel: lv, convert: timeOfDayIn[int32](unit)}, nil
	case r.Temporal == arrowtype.TimeOfDay:
		return dt, &convertEncoder[time.Duration, int64]{encLevel: lv, convert: timeOfDayIn[int64](unit)}, nil
	}
	return nil, nil, newError(ErrTag, lv.at.path, lv.at.column, -1, "%s does not apply to time.Duration", tag.Temporal)
}

// decimalEncoderOf maps a decimal number type: to its own width, with the
// tag's precision and scale, or its maximum precision and scale 0.
func decimalEncoderOf(t reflect.Type, tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	if err := checkTagParts(t, tag, lv.at, partDecimal); err != nil {
		return nil, nil, err
	}
	w, _ := decimalWidthOf(t)
	precision, scale := w.maxPrecision, int32(0)
	if tag.Decimal != nil {
		precision, scale = tag.Decimal.Precision, tag.Decimal.Scale
		if precision > w.maxPrecision {
			return nil, nil, newError(ErrTag, lv.at.path, lv.at.column, -1,
				"decimal(%d,%d) needs more digits than the %d of %s", precision, scale, w.maxPrecision, t)
		}
	}
	dt, enc := w.encoder(precision, scale, lv)
	return dt, enc, nil
}

// decimalTextEncoderOf maps a string holding decimal text: decimal128, or
// decimal256 past its digits.
func decimalTextEncoderOf(d *tags.Decimal, lv encLevel) (arrow.DataType, encoder, error) {
	if w := decimalWidthFor[decimal.Decimal128](); d.Precision <= w.maxPrecision {
		return w.typeOf(d.Precision, d.Scale),
			&convertEncoder[string, decimal.Decimal128]{encLevel: lv, convert: decimalFromText(d.Precision, d.Scale, decimal128.FromI64, decimal128.FromBigInt)}, nil
	}
	return decimalWidthFor[decimal.Decimal256]().typeOf(d.Precision, d.Scale),
		&convertEncoder[string, decimal.Decimal256]{encLevel: lv, convert: decimalFromText(d.Precision, d.Scale, decimal256.FromI64, decimal256.FromBigInt)}, nil
}

// listEncoderOf maps []T to a list layout of T and [N]T to
// fixed_size_list<T>(N).
func (c *encodeCompiler) listEncoderOf(t reflect.Type, tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	if err := checkTagParts(t, tag, lv.at, partLayout|partElem); err != nil {
		return nil, nil, err
	}
	var etag tags.Tag
	if tag.Elem != nil {
		etag = *tag.Elem
	}
	name := cmp.Or(etag.Name, "item")
	r, ok := listLayouts.layoutRow(tag)
	if t.Kind() == reflect.Array || ok && r.Layout != arrowtype.List {
		c.belowArrowGo++ // arrow-go builds fixed-size lists and list views
		defer func() { c.belowArrowGo-- }()
	}
	ef, elem, err := c.encoderOf(t.Elem(), etag, false, lv.at.elem(name))
	if err != nil {
		return nil, nil, err
	}
	ef.Name, ef.Metadata = name, metadataOf(etag)
	size := t.Elem().Size()
	if t.Kind() == reflect.Array {
		if (tag.Encoding != tags.EncodingDefault && tag.Encoding != tags.FixedSizeList) || tag.Large || tag.View {
			return nil, nil, newError(ErrTag, lv.at.path, lv.at.column, -1, "%s has no %s layout: it is a fixed_size_list", t, tagLayoutName(tag))
		}
		if t.Len() == 0 {
			return nil, nil, newError(ErrUnsupported, lv.at.path, lv.at.column, -1, "%s has no elements", t)
		}
		return arrow.FixedSizeListOfField(int32(t.Len()), ef), &arrayEncoder{encLevel: lv, n: t.Len(), size: size, elem: elem}, nil
	}
	if !ok {
		return nil, nil, newError(ErrTag, lv.at.path, lv.at.column, -1, "%s has no %s layout (a fixed_size_list needs an array [N]T)", t, tagLayoutName(tag))
	}
	switch {
	case r.Layout == arrowtype.ListView && r.Large:
		return arrow.LargeListViewOfField(ef), &listEncoder[int64]{encLevel: lv, size: size, elem: elem}, nil
	case r.Layout == arrowtype.ListView:
		return arrow.ListViewOfField(ef), &listEncoder[int32]{encLevel: lv, size: size, elem: elem}, nil
	case r.Large:
		return arrow.LargeListOfField(ef), &listEncoder[int64]{encLevel: lv, size: size, elem: elem}, nil
	}
	return arrow.ListOfField(ef), &listEncoder[int32]{encLevel: lv, size: size, elem: elem}, nil
}

// mapEncoderOf maps map[K]V to map<K, V>, whose keys cannot be null and
// are written in order, and []E tagged map to the map of its entries.
func (c *encodeCompiler) mapEncoderOf(t reflect.Type, tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	if t.Kind() == reflect.Slice {
		return c.entriesEncoderOf(t, tag, lv)
	}
	if err := checkTagParts(t, tag, lv.at, partLayout|partKeyValue); err != nil {
		return nil, nil, err
	}
	if (tag.Encoding != tags.EncodingDefault && tag.Encoding != tags.Map) || tag.Large || tag.View {
		return nil, nil, newError(ErrTag, lv.at.path, lv.at.column, -1, "%s has no %s layout", t, tagLayoutName(tag))
	}
	var ktag, vtag tags.Tag
	if tag.Key != nil {
		ktag = *tag.Key
	}
	if tag.Value != nil {
		vtag = *tag.Value
	}
	c.belowArrowGo++ // arrow-go builds maps
	defer func() { c.belowArrowGo-- }()
	if ktag.Name != "" || vtag.Name != "" {
		// arrow-go's map type has them fixed, and its IPC reader names the
		// fields of every map so.
		return nil, nil, newError(ErrTag, lv.at.path, lv.at.column, -1, "name= does not apply to map keys and values: arrow-go names them entries, key and value")
	}
	keyAt := where{path: lv.at.path + "[key]", column: joinPath(lv.at.column, "entries.key")}
	order := compareOf(t.Key())
	if order == nil {
		return nil, nil, newError(ErrUnsupported, keyAt.path, keyAt.column, -1, "map keys of %s have no order to write them in", t.Key())
	}
	if ktag.Nullable {
		return nil, nil, newError(ErrTag, keyAt.path, keyAt.column, -1, "map keys cannot be nullable")
	}
	kf, key, err := c.encoderOf(t.Key(), ktag, false, keyAt)
	if err != nil {
		return nil, nil, err
	}
	if kf.Nullable {
		return nil, nil, newError(ErrUnsupported, keyAt.path, keyAt.column, -1, "map keys cannot be null")
	}
	vf, value, err := c.encoderOf(t.Elem(), vtag, false, where{path: lv.at.path + "[value]", column: joinPath(lv.at.column, "entries.value")})
	if err != nil {
		return nil, nil, err
	}
	dt := arrow.MapOfFields(kf, vf)
	dt.KeysSorted = tag.KeysSorted // as they are: a Go map's entries are written in key order
	return dt, newMapEncoder(t, lv, order, key, value), nil
}

// intervalEncoderOf maps arrow-go's Go types of the interval types to
// their Arrow types, the values written as they are.
func intervalEncoderOf(t reflect.Type, tag tags.Tag, lv encLevel) (arrow.DataType, encoder, error) {
	it := intervalTypes[t]
	return it.dt, it.encoder(lv), checkTagParts(t, tag, lv.at, 0)
}
