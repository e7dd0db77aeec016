package mapper

import (
	"cmp"
	"reflect"
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/internal/dictindex"
	"github.com/arrowmap/arrowmap/tags"
)

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
		index := cmp.Or(tag.Index, defaultIndex)
		d := arrowtype.DictionaryOf(index, dt, tag.Ordered)
		if c.belowArrowGo > 0 && !memoizedByArrowGo(d) {
			return arrow.Field{}, nil, newError(ErrUnsupported, at.path, at.column, -1,
				"%s below a list view, a fixed-size list, a map or a run-end encoding: arrow-go builds those levels, and no dictionary of %s with %s indexes", d, dt, index)
		}
		dt, enc = d, &dictEncoder{encLevel: lv, value: enc}
	case tag.REE:
		runEnds := cmp.Or(tag.RunEnds, defaultIndex)
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
	case kindValue:
		return valueEncoderOf(t, tag, lv)
	case kindNull:
		return nullEncoderOf(t, tag, lv)
	case kindString:
		return stringEncoderOf(t, tag, lv)
	case kindBytes:
		return bytesEncoderOf(t, tag, lv)
	case kindByteArray:
		return byteArrayEncoderOf(t, tag, lv)
	case kindBool:
		return boolEncoderOf(t, tag, lv)
	case kindInt, kindUint:
		return integerEncoderOf(t, tag, lv)
	case kindFloat:
		return floatEncoderOf(t, tag, lv)
	case kindText:
		return textEncoderOf(t, tag, lv)
	case kindList, kindArray:
		return c.listEncoderOf(t, tag, lv)
	case kindMap:
		return c.mapEncoderOf(t, tag, lv)
	case kindStruct:
		return c.structEncoderOf(t, tag, lv)
	}
	return nil, nil, newError(ErrUnsupported, lv.at.path, lv.at.column, -1, "%s cannot be encoded to Arrow", t)
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
	stringLayouts = layoutsOf(func(r *arrowtype.Row) bool { return r.Text && r.VarBinary() })
	binaryLayouts = layoutsOf(func(r *arrowtype.Row) bool { return !r.Text && r.VarBinary() })
	listLayouts   = layoutsOf((*arrowtype.Row).VarList)
)

func layoutsOf(accept func(r *arrowtype.Row) bool) *layouts {
	l := &layouts{}
	for _, id := range arrowtype.IDs(accept) {
		l.rows = append(l.rows, arrowtype.Of(id))
	}
	return l
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
			if r.Viewed() == tag.View && r.Large == large {
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

// inheritLayout makes the large and view of tag apply to every level
// below, as arreflect's do; the returned func restores what was inherited.
func (c *encodeCompiler) inheritLayout(tag tags.Tag) (restore func()) {
	large, view := c.large, c.view
	c.large, c.view = large || tag.Large, view || tag.View
	return func() { c.large, c.view = large, view }
}
