package mapper

import (
	"fmt"
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/internal/zone"
	"github.com/arrowmap/arrowmap/tags"
	"github.com/arrowmap/arrowmap/views"
)

// plan is what New compiles once for a Go struct type and the columns of a
// schema its fields read: for each field, the column it reads, the views
// type that column is validated against and the codec that decodes it. A
// plan holds no schema: the entry point that uses it holds the one it
// reads (a mapping), which may be another than the plan was compiled for,
// with the same planned columns.
type plan struct {
	rowType reflect.Type
	columns []column // the planned columns, in the order members refer to them
	// The struct's fields, by column: those decoded a block of rows at a
	// time (tiled), and the others, over the whole window each.
	tiled, members []member
	slots          int  // preparers, each with a slot in a batch's state
	prep           bool // some codec has a preparer
	opts           *options
	// holders is the Go type of each level that cannot hold a null, by its
	// views label (its Go path), for the remedy an ErrNull names.
	holders map[string]reflect.Type
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
	if _, encoded := arrowtype.Encoded(arrowtype.Storage(p.columns[m.k].typ)); encoded {
		return false
	}
	return ok && !cd.needsPrep
}

// column is one planned column of the schema.
type column struct {
	index int // in the schema
	name  string
	typ   arrow.DataType // the column's, in the schema planned
	vt    *views.Type
	codec *codec
}

// in reports whether schema has col where it was planned: at its index,
// with its name and type.
func (col *column) in(schema *arrow.Schema) bool {
	return col.index < schema.NumFields() && schema.Field(col.index).Name == col.name &&
		arrow.TypeEqual(schema.Field(col.index).Type, col.typ)
}

// where is the Go and Arrow path of the level being compiled.
type where struct{ path, column string }

func (w where) elem(name string) where {
	return where{path: w.path + "[]", column: w.column + "." + name}
}

func (w where) field(goName, colName string) where {
	return where{path: joinPath(w.path, goName), column: joinPath(w.column, colName)}
}

// planner is what planning in either direction keeps: the plan options
// and the struct types being planned.
type planner struct {
	opts  *options
	stack map[reflect.Type]bool // struct types being planned: a repeat is a recursive type
}

// compiler holds what compiling one decoding plan needs.
type compiler struct {
	planner
	slots   int
	holders map[string]reflect.Type
}

func compilePlan(t reflect.Type, schema *arrow.Schema, opts *options) (*plan, error) {
	if t.Kind() != reflect.Struct {
		return nil, newError(ErrUnsupported, "", "", -1, "%s is not a struct", t)
	}
	c := &compiler{planner: planner{opts: opts, stack: map[reflect.Type]bool{t: true}}, holders: map[string]reflect.Type{}}
	fields := schema.Fields()
	p := &plan{rowType: t, opts: opts}
	members, err := c.compileMembers(t, fields, where{}, func(f arrow.Field, i int, cd *codec, vt *views.Type) int {
		p.columns = append(p.columns, column{index: i, name: f.Name, typ: f.Type, vt: vt, codec: cd})
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
	p.slots, p.holders = c.slots, c.holders
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
// As encoding/json's newTypeEncoder, it dispatches on the kind of t to one
// function per kind; an As conversion, an all-null column and a pointer
// come first, whatever the kind.
func (c *compiler) compile(t reflect.Type, tag tags.Tag, dt arrow.DataType, at where) (*codec, *views.Type, error) {
	cd, vt, err := c.compileLevel(t, tag, dt, at)
	if err == nil && !vt.Nullable {
		// The level planned last at a path is the outermost: the field's
		// own type, not an As conversion's or a pointer's element.
		c.holders[at.path] = t
	}
	return cd, vt, err
}

// compileLevel is compile, but for noting the Go type of a level that
// cannot hold a null.
func (c *compiler) compileLevel(t reflect.Type, tag tags.Tag, dt arrow.DataType, at where) (*codec, *views.Type, error) {
	if conv, ok := c.opts.conversions[t]; ok && conv.decode != nil {
		return c.compileAs(t, conv, tag, dt, at)
	}
	if arrowtype.OfType(storageOf(dt)).Layout == arrowtype.Null {
		return c.compileNull(t, tag, dt, at)
	}
	if kindOf(t) == kindPointer {
		return c.compilePointer(t, tag, dt, at)
	}
	if tag.Union != tags.NoUnion {
		return c.compileUnion(t, tag, dt, at)
	}
	tag, err := impliedTemporal(t, tag, at)
	if err != nil {
		return nil, nil, err
	}
	l, err := c.newLevel(t, tag, dt, at)
	if err != nil {
		return nil, nil, err
	}
	switch c.decodeKindOf(t, l.id) {
	case kindText:
		return c.compileText(l)
	case kindTime:
		return c.compileTime(l)
	case kindDuration:
		return c.compileDuration(l)
	case kindDecimal:
		return c.compileDecimal(l)
	case kindValue:
		return c.compileValue(l)
	case kindNull:
		return l.mismatch("a mapper.Null reads the null type")
	case kindString:
		return c.compileString(l)
	case kindBytes:
		return c.compileBytes(l)
	case kindByteArray:
		return c.compileByteArray(l)
	case kindBool:
		return c.compileBool(l)
	case kindInt, kindUint:
		return c.compileInteger(l)
	case kindFloat:
		return c.compileFloat(l)
	case kindList, kindArray:
		return c.compileList(t, tag, dt, l.value, l.vt, l.cd, at)
	case kindMap:
		return c.compileMap(t, tag, l.value, l.vt, l.cd, at)
	case kindStruct:
		return c.compileStruct(t, l.value, l.vt, l.cd, at)
	}
	return nil, nil, newError(ErrUnsupported, at.path, at.column, -1, "%s cannot be decoded from Arrow", t)
}

// level is one level being compiled, not a pointer, as the function of its
// kind reads it and fills in its codec and views type.
type level struct {
	t     reflect.Type
	tag   tags.Tag
	dt    arrow.DataType // the column's type, as the schema has it
	value arrow.DataType // the type of its values: through extensions, dictionaries and run-end encoding
	id    arrow.Type     // value's
	row   *arrowtype.Row // value's
	at    where
	vt    *views.Type
	cd    *codec
	// ext is the name of the extension type of the level's values, "" for
	// none: a few read into another Go type than their storage's.
	ext string
	// strictEncoding is Strict where no pin names the level's exact
	// encoding, which Strict then accepts.
	strictEncoding bool
}

// takes adds accept to what the level's array is checked against and
// reports whether the column's type is among it: every kind's compile
// asks this, then says what the kind reads when it is not.
func (l *level) takes(accept views.Accept) bool {
	l.vt.Accept |= accept
	return accept.Has(l.id)
}

// mismatch is the ErrTypeMismatch of the level: what is wrong with t from
// dt.
func (l *level) mismatch(format string, args ...any) (*codec, *views.Type, error) {
	return nil, nil, mismatchOf(l.t, l.dt, l.at, format, args...)
}

func mismatchOf(t reflect.Type, dt arrow.DataType, at where, format string, args ...any) error {
	return newError(ErrTypeMismatch, at.path, at.column, -1, "%s from %s: %s", t, dt, fmt.Sprintf(format, args...))
}

// newLevel checks what every kind shares: the dictionary or run-end
// encoding Strict allows and the tag's pins.
func (c *compiler) newLevel(t reflect.Type, tag tags.Tag, dt arrow.DataType, at where) (*level, error) {
	value := storageOf(dt)
	encoded := value != views.Storage(dt)
	if encoded && c.opts.strict && !tag.Dict && !tag.REE {
		return nil, mismatchOf(t, dt, at, "Strict accepts a dictionary or run-end encoding only where the tag says dict or ree")
	}
	ext := extensionNameOf(dt)
	if err := checkPins(tag, dt, value); err != "" {
		return nil, mismatchOf(t, dt, at, "%s", err)
	}
	if tag.Extension != "" && tag.Extension != ext {
		return nil, mismatchOf(t, dt, at, "the tag pins ext=%s", tags.Quote(tag.Extension))
	}
	if tag.Extension == "" {
		if err := checkDeclaredExtension(t, dt, at); err != nil {
			return nil, err
		}
	}
	l := &level{
		t: t, tag: tag, dt: dt, value: value, id: value.ID(), row: arrowtype.OfType(value), at: at, ext: ext,
		vt:             &views.Type{Nullable: tag.Nullable || nullableKind(t), Label: at.path},
		cd:             newCodec(t),
		strictEncoding: c.opts.strict && !pinsEncoding(tag),
	}
	if !c.opts.strict || tag.Dict || tag.REE {
		l.vt.Accept |= views.Encodings
	}
	return l, nil
}

// done finishes a level whose kind function set its decoder and what its
// views type accepts.
func (c *compiler) done(l *level) (*codec, *views.Type, error) {
	if l.cd.prep != nil {
		l.cd.needsPrep = true
	}
	return c.finish(l.cd, l.at), l.vt, nil
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

func (c *planner) hasConversion(t reflect.Type) bool {
	_, ok := c.opts.conversions[t]
	return ok
}

// storageOf is the type of the values of dt: through extensions, and one
// dictionary or run-end encoding (encodings do not nest: the type of a
// nested one's values is an encoding, which no Go type reads).
func storageOf(dt arrow.DataType) arrow.DataType {
	values, _ := arrowtype.Encoded(arrowtype.Storage(dt))
	return arrowtype.Storage(values)
}

// structChildren is the fields of dt when it is a struct.
func structChildren(dt arrow.DataType) ([]arrow.Field, bool) {
	if arrowtype.OfType(dt).Layout != arrowtype.Struct {
		return nil, false
	}
	return dt.(arrow.NestedType).Fields(), true
}

// acceptRows is the set of the table's types accept takes.
func acceptRows(accept func(r *arrowtype.Row) bool) views.Accept {
	return views.AcceptOf(arrowtype.IDs(accept)...)
}

// largeAccept and viewAccept are what the tag options large and view
// pin.
var (
	largeAccept = acceptRows(func(r *arrowtype.Row) bool { return r.Large })
	viewAccept  = acceptRows((*arrowtype.Row).Viewed)
)

// pinsEncoding reports whether the tag pins the encoding or temporal type
// of its level.
func pinsEncoding(tag tags.Tag) bool {
	return tag.Encoding != tags.EncodingDefault || tag.Temporal != tags.TemporalDefault || tag.Large || tag.View
}

// checkPins checks the tag's pins against the schema's type: a pin makes the
// column strict. It returns what is wrong, or "".
func checkPins(tag tags.Tag, dt, value arrow.DataType) string {
	id := value.ID()
	outer := arrowtype.OfType(arrowtype.Storage(dt)).Layout
	switch {
	case tag.Dict && outer != arrowtype.Dictionary:
		return "the tag pins dict"
	case tag.REE && outer != arrowtype.RunEnd:
		return "the tag pins ree"
	}
	if r := pinnedRow(tag.Encoding); r != nil && r.ID != id {
		return fmt.Sprintf("the tag pins %s", tag.Encoding)
	}
	if tag.Large && !largeAccept.Has(id) {
		return "the tag pins a large encoding"
	}
	if tag.View && !viewAccept.Has(id) {
		return "the tag pins a view encoding"
	}
	if r := temporalRow(tag.Temporal); r != nil && r.ID != id {
		return fmt.Sprintf("the tag pins %s", tag.Temporal)
	}
	if tag.Unit != tags.UnitDefault {
		if u, ok := arrowtype.Unit(value); !ok || u != tag.Unit.TimeUnit() {
			return fmt.Sprintf("the tag pins unit=%s", tag.Unit)
		}
	}
	if tag.TZ != "" {
		if tz, ok := arrowtype.Zone(value); !ok || !zone.Same(tz, tag.TZ) {
			return fmt.Sprintf("the tag pins tz=%s", tag.TZ)
		}
	}
	if tag.Decimal != nil {
		p, s, ok := arrowtype.Precision(value)
		if !ok || p != tag.Decimal.Precision || s != tag.Decimal.Scale {
			return fmt.Sprintf("the tag pins decimal(%d,%d)", tag.Decimal.Precision, tag.Decimal.Scale)
		}
	}
	return ""
}

func isStringLike(id arrow.Type) bool { return views.Strings.Has(id) }

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
