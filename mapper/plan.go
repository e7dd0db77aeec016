package mapper

import (
	"encoding"
	"fmt"
	"reflect"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/arrowmap/arrowmap/tags"
	"github.com/arrowmap/arrowmap/views"
)

// plan is what New compiles once for a Go struct type and a schema: for
// each field, the column it reads, the views type that column is validated
// against and the codec that decodes it.
type plan struct {
	schema  *arrow.Schema // the schema compiled against
	rowType reflect.Type
	columns []column // the planned columns, in the order members refer to them
	// The struct's fields, by column: those decoded a block of rows at a
	// time (tiled), and the others, over the whole window each.
	tiled, members []member
	slots          int  // preparers, each with a slot in a batch's state
	prep           bool // some codec has a preparer
	opts           *options
}

// decodesInPlace reports whether member m is a field of the struct itself
// whose column's decoder is inPlace: not through an embedded pointer,
// nothing prepared, and a column not dictionary or run-end encoded (those
// decode their entries once, into memory of their own).
func (p *plan) decodesInPlace(m member) bool {
	if m.group != nil {
		return false
	}
	cd := m.codec
	_, ok := cd.dec.(inPlace)
	switch views.Storage(p.schema.Field(p.columns[m.k].index).Type).ID() {
	case arrow.DICTIONARY, arrow.RUN_END_ENCODED:
		return false
	}
	return ok && !cd.needsPrep
}

// column is one planned column of the schema.
type column struct {
	index int // in the schema
	name  string
	vt    *views.Type
	codec *codec
}

// where is the Go and Arrow path of the level being compiled.
type where struct{ path, column string }

func (w where) elem(name string) where {
	return where{path: w.path + "[]", column: w.column + "." + name}
}

func (w where) field(goName, colName string) where {
	return where{path: joinPath(w.path, goName), column: joinPath(w.column, colName)}
}

// compiler holds what compiling one plan needs.
type compiler struct {
	opts  *options
	stack map[reflect.Type]bool // struct types being compiled: a repeat is a recursive type
	slots int
}

func compilePlan(t reflect.Type, schema *arrow.Schema, opts *options) (*plan, error) {
	if t.Kind() != reflect.Struct {
		return nil, newError(ErrUnsupported, "", "", -1, "%s is not a struct", t)
	}
	c := &compiler{opts: opts, stack: map[reflect.Type]bool{t: true}}
	fields := schema.Fields()
	p := &plan{schema: schema, rowType: t, opts: opts}
	members, err := c.compileMembers(t, fields, where{}, func(f arrow.Field, i int, cd *codec, vt *views.Type) int {
		p.columns = append(p.columns, column{index: i, name: f.Name, vt: vt, codec: cd})
		return len(p.columns) - 1
	})
	if err != nil {
		return nil, err
	}
	for _, m := range members {
		if p.decodesInPlace(m) {
			p.tiled = append(p.tiled, m)
		} else {
			p.members = append(p.members, m)
		}
	}
	p.slots = c.slots
	for _, col := range p.columns {
		p.prep = p.prep || col.codec.needsPrep
	}
	return p, nil
}

// compileMembers plans the fields of struct type t against the Arrow fields
// of a struct (or a schema). bind records a planned child and returns the
// index members use to find its view.
func (c *compiler) compileMembers(t reflect.Type, fields []arrow.Field, at where,
	bind func(f arrow.Field, i int, cd *codec, vt *views.Type) int) ([]member, error) {
	goFields, err := fieldsAt(t, at)
	if err != nil {
		return nil, err
	}
	matched, err := matchFields(goFields, fields, at, c.opts)
	if err != nil {
		return nil, err
	}
	var members []member
	for k, gf := range goFields {
		i := matched[k]
		if i < 0 {
			continue
		}
		fat := at.field(gf.path, fields[i].Name)
		cd, vt, err := c.compile(gf.typ, gf.tag, fields[i].Type, fat)
		if err != nil {
			return nil, err
		}
		members = insertMember(members, t, gf.index, bind(fields[i], i, cd, vt), cd)
	}
	return members, nil
}

// compile plans one level: Go type t with its tag against Arrow type dt. It
// returns the codec and the views type the level's array is checked with.
func (c *compiler) compile(t reflect.Type, tag tags.Tag, dt arrow.DataType, at where) (*codec, *views.Type, error) {
	mismatch := func(format string, args ...any) (*codec, *views.Type, error) {
		return nil, nil, newError(ErrTypeMismatch, at.path, at.column, -1, "%s from %s: %s", t, dt, fmt.Sprintf(format, args...))
	}
	if conv, ok := c.opts.conversions[t]; ok && conv.decode != nil {
		return c.compileAs(t, conv, tag, dt, at)
	}
	if storageOf(dt).ID() == arrow.NULL {
		// Every row is null: any field that can hold a null takes it.
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map:
		default:
			if !tag.Nullable {
				return mismatch("every row is null, and the field is neither a pointer, a slice, a map nor nullable")
			}
		}
		cd := newCodec(t)
		cd.dec = nullDecoder{}
		return c.finish(cd, at), &views.Type{Accept: views.AcceptOf(arrow.NULL), Nullable: true, Label: at.path}, nil
	}
	if t.Kind() == reflect.Pointer {
		elem, vt, err := c.compile(t.Elem(), tag, dt, at)
		if err != nil {
			return nil, nil, err
		}
		vt.Nullable = true
		cd := newCodec(t)
		cd.dec = &pointerDecoder{elem: elem}
		cd.needsPrep = elem.needsPrep
		return c.finish(cd, at), vt, nil
	}

	value := storageOf(dt)
	encoded := value != views.Storage(dt)
	if encoded && c.opts.strict && !tag.Dict && !tag.REE {
		return mismatch("Strict accepts a dictionary or run-end encoding only where the tag says dict or ree")
	}
	if err := checkPins(tag, dt, value); err != "" {
		return mismatch("%s", err)
	}
	// A pin names the field's exact encoding, which Strict then accepts.
	strictEncoding := c.opts.strict && !pinsEncoding(tag)
	vt := &views.Type{
		Nullable: tag.Nullable || t.Kind() == reflect.Slice || t.Kind() == reflect.Map,
		Label:    at.path,
	}
	if !c.opts.strict || tag.Dict || tag.REE {
		vt.Accept |= views.Encodings
	}
	cd := newCodec(t)
	id := value.ID()

	switch {
	case isStringLike(id) && implementsTextUnmarshaler(t) && t.Kind() != reflect.String:
		vt.Accept |= views.Strings
		cd.dec = preparedDecoder{cd: cd}
		cd.prep = textPreparer{cd: cd}
	case t == timeType:
		accept := views.AcceptOf(arrow.TIMESTAMP, arrow.DATE32, arrow.DATE64)
		if strictEncoding {
			accept = views.AcceptOf(arrow.TIMESTAMP)
		}
		if !accept.Has(id) {
			return mismatch("a time.Time reads timestamp, date32 or date64")
		}
		vt.Accept |= accept
		loc, err := locationOf(value)
		if err != nil {
			return nil, nil, newError(ErrTypeMismatch, at.path, at.column, -1, "%v", err)
		}
		cd.dec = &timeDecoder{loc: loc}
	case t == durationType:
		accept := views.AcceptOf(arrow.DURATION, arrow.TIME32, arrow.TIME64)
		if strictEncoding {
			accept = views.AcceptOf(arrow.DURATION)
		}
		if !accept.Has(id) {
			return mismatch("a time.Duration reads duration, time32 or time64")
		}
		vt.Accept |= accept
		cd.dec = durationDecoder{}
		if id == arrow.DURATION && value.(*arrow.DurationType).Unit != arrow.Nanosecond {
			cd.prep = durationPreparer{cd: cd}
		}
	case isDecimalType(t):
		accept := decimalAccept(t, c.opts.strict)
		if !accept.Has(id) {
			return mismatch("%s reads %s", t, accept)
		}
		vt.Accept |= accept
		cd.dec = decimalDecoderFor(t)
	case t == float16Type:
		vt.Accept |= views.AcceptOf(arrow.FLOAT16)
		if id != arrow.FLOAT16 {
			return mismatch("a float16.Num reads float16")
		}
		cd.dec = float16Decoder{}
	case t.Kind() == reflect.String:
		accept := views.Strings | views.Decimals
		if strictEncoding {
			accept = views.AcceptOf(arrow.STRING) | views.Decimals
		}
		if !accept.Has(id) {
			return mismatch("a string reads utf8, large_utf8, utf8_view or a decimal")
		}
		vt.Accept |= accept
		cd.dec = stringDecoder{}
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 && !c.hasConversion(t.Elem()):
		accept := views.Binaries | views.AcceptOf(arrow.FIXED_SIZE_BINARY)
		if strictEncoding {
			accept = views.AcceptOf(arrow.BINARY)
		}
		if !accept.Has(id) {
			return mismatch("a []byte reads binary, large_binary, binary_view or fixed_size_binary")
		}
		vt.Accept |= accept
		cd.dec = bytesDecoder{}
	case t.Kind() == reflect.Array && t.Elem().Kind() == reflect.Uint8 && id == arrow.FIXED_SIZE_BINARY:
		vt.Accept |= views.AcceptOf(arrow.FIXED_SIZE_BINARY)
		vt.Size = t.Len()
		if w := value.(*arrow.FixedSizeBinaryType).ByteWidth; w != t.Len() {
			return mismatch("fixed_size_binary(%d) into %d bytes", w, t.Len())
		}
		cd.dec = byteArrayDecoder{}
	case t.Kind() == reflect.Bool:
		vt.Accept |= views.AcceptOf(arrow.BOOL)
		if id != arrow.BOOL {
			return mismatch("a bool reads bool")
		}
		cd.dec = boolDecoder{}
	case isInteger(t.Kind()):
		accept := integerAccept(t, c.opts.strict)
		if !accept.Has(id) {
			return mismatch("%s reads %s without loss", t.Kind(), accept)
		}
		vt.Accept |= accept
		cd.dec = integerDecoderFor(t)
	case t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64:
		accept := views.AcceptOf(arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64)
		if t.Kind() == reflect.Float32 {
			accept = views.AcceptOf(arrow.FLOAT16, arrow.FLOAT32)
		}
		if c.opts.strict {
			accept = views.AcceptOf(map[reflect.Kind]arrow.Type{reflect.Float32: arrow.FLOAT32, reflect.Float64: arrow.FLOAT64}[t.Kind()])
		}
		if !accept.Has(id) {
			return mismatch("%s reads %s without loss", t.Kind(), accept)
		}
		vt.Accept |= accept
		if t.Kind() == reflect.Float32 {
			cd.dec = numberDecoder[float32]{}
		} else {
			cd.dec = numberDecoder[float64]{}
		}
	case t.Kind() == reflect.Slice || t.Kind() == reflect.Array:
		return c.compileList(t, tag, dt, value, vt, cd, at)
	case t.Kind() == reflect.Map:
		return c.compileMap(t, tag, value, vt, cd, at)
	case t.Kind() == reflect.Struct:
		return c.compileStruct(t, value, vt, cd, at)
	default:
		return nil, nil, newError(ErrUnsupported, at.path, at.column, -1, "%s cannot be decoded from Arrow", t)
	}
	if cd.prep != nil {
		cd.needsPrep = true
	}
	return c.finish(cd, at), vt, nil
}

// finish gives cd its paths and, when it prepares, its slot.
func (c *compiler) finish(cd *codec, at where) *codec {
	cd.path, cd.column = at.path, at.column
	if cd.prep != nil {
		cd.slot = c.slots
		c.slots++
	}
	return cd
}

func (c *compiler) hasConversion(t reflect.Type) bool {
	_, ok := c.opts.conversions[t]
	return ok
}

// storageOf is the type of the values of dt: through extensions,
// dictionaries and run-end encoding.
func storageOf(dt arrow.DataType) arrow.DataType {
	dt = views.Storage(dt)
	switch e := dt.(type) {
	case *arrow.DictionaryType:
		return views.Storage(e.ValueType)
	case *arrow.RunEndEncodedType:
		return views.Storage(e.Encoded())
	}
	return dt
}

// pinsEncoding reports whether the tag pins the encoding or temporal type
// of its level.
func pinsEncoding(tag tags.Tag) bool {
	return tag.Encoding != tags.EncodingDefault || tag.Temporal != tags.TemporalDefault || tag.Large || tag.View
}

// checkPins checks the tag's pins against the schema's type: a pin makes the
// column strict. It returns what is wrong, or "".
func checkPins(tag tags.Tag, dt, value arrow.DataType) string {
	id := value.ID()
	outer := views.Storage(dt).ID()
	switch {
	case tag.Dict && outer != arrow.DICTIONARY:
		return "the tag pins dict"
	case tag.REE && outer != arrow.RUN_END_ENCODED:
		return "the tag pins ree"
	}
	if tag.Encoding != tags.EncodingDefault {
		if want := pinnedID[tag.Encoding]; want != id {
			return fmt.Sprintf("the tag pins %s", tag.Encoding)
		}
	}
	if tag.Large && !largeIDs.Has(id) {
		return "the tag pins a large encoding"
	}
	if tag.View && !viewIDs.Has(id) {
		return "the tag pins a view encoding"
	}
	if tag.Temporal != tags.TemporalDefault {
		if want := temporalID[tag.Temporal]; want != id {
			return fmt.Sprintf("the tag pins %s", tag.Temporal)
		}
	}
	if tag.Unit != tags.UnitDefault {
		if u, ok := value.(interface{ TimeUnit() arrow.TimeUnit }); !ok || u.TimeUnit() != tag.Unit.TimeUnit() {
			return fmt.Sprintf("the tag pins unit=%s", tag.Unit)
		}
	}
	if tag.TZ != "" {
		if ts, ok := value.(*arrow.TimestampType); !ok || ts.TimeZone != tag.TZ {
			return fmt.Sprintf("the tag pins tz=%s", tag.TZ)
		}
	}
	if tag.Decimal != nil {
		d, ok := value.(arrow.DecimalType)
		if !ok || d.GetPrecision() != tag.Decimal.Precision || d.GetScale() != tag.Decimal.Scale {
			return fmt.Sprintf("the tag pins decimal(%d,%d)", tag.Decimal.Precision, tag.Decimal.Scale)
		}
	}
	return ""
}

var (
	pinnedID = map[tags.Encoding]arrow.Type{
		tags.List: arrow.LIST, tags.LargeList: arrow.LARGE_LIST, tags.ListView: arrow.LIST_VIEW,
		tags.LargeListView: arrow.LARGE_LIST_VIEW, tags.FixedSizeList: arrow.FIXED_SIZE_LIST,
		tags.Utf8: arrow.STRING, tags.LargeUtf8: arrow.LARGE_STRING, tags.Utf8View: arrow.STRING_VIEW,
		tags.Binary: arrow.BINARY, tags.LargeBinary: arrow.LARGE_BINARY, tags.BinaryView: arrow.BINARY_VIEW,
		tags.FixedSizeBinary: arrow.FIXED_SIZE_BINARY, tags.Map: arrow.MAP,
	}
	temporalID = map[tags.Temporal]arrow.Type{
		tags.Timestamp: arrow.TIMESTAMP, tags.Date32: arrow.DATE32, tags.Date64: arrow.DATE64,
		tags.Time32: arrow.TIME32, tags.Time64: arrow.TIME64, tags.Duration: arrow.DURATION,
	}
	largeIDs = views.AcceptOf(arrow.LARGE_STRING, arrow.LARGE_BINARY, arrow.LARGE_LIST, arrow.LARGE_LIST_VIEW)
	viewIDs  = views.AcceptOf(arrow.STRING_VIEW, arrow.BINARY_VIEW, arrow.LIST_VIEW, arrow.LARGE_LIST_VIEW)
)

func isStringLike(id arrow.Type) bool { return views.Strings.Has(id) }

func implementsTextUnmarshaler(t reflect.Type) bool {
	return reflect.PointerTo(t).Implements(textUnmarshalerType)
}

var (
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	durationType        = reflect.TypeFor[time.Duration]()
	float16Type         = reflect.TypeFor[float16.Num]()
	leafStructs         = map[reflect.Type]struct{}{
		timeType:                              {},
		reflect.TypeFor[decimal.Decimal128](): {},
		reflect.TypeFor[decimal.Decimal256](): {},
	}
)

func isInteger(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return false
}

// integerAccept is the integer types a field of kind t.Kind() holds without
// loss: signed ones no wider, unsigned ones narrower; with strict, its own.
func integerAccept(t reflect.Type, strict bool) views.Accept {
	size := t.Size()
	signed := t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64
	type width struct {
		id     arrow.Type
		size   uintptr
		signed bool
	}
	all := []width{
		{arrow.INT8, 1, true}, {arrow.INT16, 2, true}, {arrow.INT32, 4, true}, {arrow.INT64, 8, true},
		{arrow.UINT8, 1, false}, {arrow.UINT16, 2, false}, {arrow.UINT32, 4, false}, {arrow.UINT64, 8, false},
	}
	var a views.Accept
	for _, w := range all {
		switch {
		case strict && w.size == size && w.signed == signed:
		case !strict && signed && w.signed && w.size <= size:
		case !strict && signed && !w.signed && w.size < size:
		case !strict && !signed && !w.signed && w.size <= size:
		default:
			continue
		}
		a |= views.AcceptOf(w.id)
	}
	return a
}

// insertMember adds the field at index (a reflect index path from t) to
// members. A field reached through an embedded pointer goes into the group
// of that pointer, allocated when the fields are filled.
func insertMember(members []member, t reflect.Type, index []int, k int, cd *codec) []member {
	var off uintptr
	for depth, i := range index {
		sf := t.Field(i)
		if depth == len(index)-1 {
			return append(members, member{k: k, offset: off + sf.Offset, codec: cd})
		}
		if sf.Type.Kind() != reflect.Pointer {
			off += sf.Offset
			t = sf.Type
			continue
		}
		// An embedded pointer: find or make its group, and go on inside it.
		at := off + sf.Offset
		g := -1
		for j := range members {
			if members[j].group != nil && members[j].offset == at {
				g = j
			}
		}
		if g < 0 {
			elem := sf.Type.Elem()
			members = append(members, member{offset: at, group: &embedded{typ: elem, slice: reflect.SliceOf(elem), size: elem.Size()}})
			g = len(members) - 1
		}
		grp := members[g].group
		grp.members = insertMember(grp.members, sf.Type.Elem(), index[depth+1:], k, cd)
		return members
	}
	return members
}
