package mapper

import (
	"fmt"
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/tags"
	"github.com/arrowmap/arrowmap/views"
)

// Columns binds the columns of rec to the fields of struct C, without
// decoding a row: each field is a typed column of package views
// (views.PrimitiveColumn[float64], views.StringColumn,
// views.ListColumn[views.PrimitiveColumn[int64]],
// views.DictionaryColumn[int32, views.StringColumn], …), a plain
// arrow.Array, or a struct of such fields, bound to a struct column: each
// of its fields to the struct's child of its name. Fields find their
// columns by the same names and tags as Decode.
//
// Each typed field's column is validated once, as View does: a typed
// column is not nullable unless its field is tagged `nullable` (its list
// elements with `arrow-elem:"nullable"`, its map values with
// `arrow-value:"nullable"`), so reads after Columns need no null check
// where the tags allow none. An arrow.Array field takes the
// column as it is. Errors are *Error values: ErrMissingColumn,
// ErrTypeMismatch, ErrNull with the first null row, ErrInvalidData.
//
// Options: SnakeCase, AllowMissing and RejectExtraColumns work as for
// Decode. Strict accepts only the plain encoding of each column type's
// family (utf8, binary, list, list_view) where the tag pins no other
// (`large`, `view`, `utf8_view`, …), at the top level and down list
// elements. Columns are always zero-copy — they alias rec's memory and are
// valid while rec is — and decode nothing, so ZeroCopy, Parallelism, As,
// LastKeyWins and Allocator are ErrUnsupported here.
//
//	type prices struct {
//		Price views.PrimitiveColumn[float64] `arrow:"price"`
//	}
//	cols, err := mapper.Columns[prices](rec)
//	for _, p := range cols.Price.Values() { sum += p }
func Columns[C any](rec arrow.RecordBatch, opts ...ReadOption) (C, error) {
	var cols C
	if rec == nil {
		return cols, newError(ErrInvalidData, "", "", -1, "nil record")
	}
	o, err := optionsFor("Columns", columnsOptions, opts)
	if err != nil {
		return cols, err
	}
	p, err := cachedColumnsPlan(reflect.TypeFor[C](), rec.Schema(), o)
	if err != nil {
		return cols, err
	}
	if err := p.bind(rec, rec.Schema(), reflect.ValueOf(&cols).Elem()); err != nil {
		var zero C
		return zero, err
	}
	return cols, nil
}

// columnsPlan binds the fields of a struct of columns to the columns of a
// schema they read. It holds no schema: a ColumnsReader holds the one it
// reads beside it, which may be another than the plan was compiled for,
// with the same planned columns.
type columnsPlan struct {
	fields []boundColumn
}

// boundColumn is one field of a struct of columns and its column: a typed
// column, an arrow.Array, or a struct of columns bound to a struct column.
type boundColumn struct {
	index []int // of the field in its struct, as reflect.Value.FieldByIndex
	// col.index is the column's in the schema, or for a field of a struct
	// of columns, the child's in the struct's datatype; col.name is the
	// Arrow path.
	col column
	// For a typed column or a struct of columns, the type its array is
	// validated with; nil for an arrow.Array field.
	vt *views.Type
	// For a typed column: its type's From method, with the zero receiver it
	// is called on.
	from, zero reflect.Value
	// For a struct of columns: its fields, and for each the index of its
	// view among the children vt names (-1 for an arrow.Array field).
	nested bool
	fields []boundColumn
	views  []int
}

// columnKind is what package views' typed columns have in common that
// does not depend on their type parameter.
type columnKind interface {
	ViewType(dt arrow.DataType) views.Type
}

// slicer is what a pointer to every typed column of package views is.
type slicer interface {
	SliceFrom(src any, i, j int)
}

var (
	arrowArrayType = reflect.TypeFor[arrow.Array]()
	viewType       = reflect.TypeFor[views.View]()
	errorType      = reflect.TypeFor[error]()
	slicerType     = reflect.TypeFor[slicer]()
)

func compileColumns(t reflect.Type, schema *arrow.Schema, o *options) (*columnsPlan, error) {
	if schema == nil {
		return nil, newError(ErrTypeMismatch, "", "", -1, "nil schema")
	}
	if t.Kind() != reflect.Struct {
		return nil, newError(ErrUnsupported, "", "", -1, "%s is not a struct", t)
	}
	fields, err := compileColumnFields(t, schema.Fields(), where{}, o)
	if err != nil {
		return nil, err
	}
	return &columnsPlan{fields: fields}, nil
}

// compileColumnFields binds the fields of struct type t to the columns (or
// struct children) of at: the Go and Arrow paths of t.
func compileColumnFields(t reflect.Type, columns []arrow.Field, at where, o *options) ([]boundColumn, error) {
	goFields, err := fieldsAt(t, at)
	if err != nil {
		return nil, err
	}
	matched, err := matchFields(goFields, columns, at, o)
	if err != nil {
		return nil, err
	}
	var bound []boundColumn
	for k, gf := range goFields {
		i := matched[k]
		if i < 0 {
			continue
		}
		gf.path = joinPath(at.path, gf.path)
		if err := settable(t, gf); err != nil {
			return nil, err
		}
		b := boundColumn{index: gf.index, col: column{index: i, name: joinPath(at.column, columns[i].Name), typ: columns[i].Type, codec: &codec{path: gf.path}}}
		switch {
		case gf.typ == arrowArrayType:
		case isColumnType(gf.typ):
			if err := b.compile(gf, columns[i].Type, o.strict); err != nil {
				return nil, err
			}
		case gf.typ.Kind() == reflect.Struct:
			if err := b.compileStruct(gf, columns[i].Type, o); err != nil {
				return nil, err
			}
		default:
			return nil, newError(ErrUnsupported, gf.path, b.col.name, -1, "%s is neither a column of package views (From, ViewType, and SliceFrom on its pointer), a struct of columns nor arrow.Array", gf.typ)
		}
		bound = append(bound, b)
	}
	return bound, nil
}

// isColumnType reports whether t is a typed column: it has a From(View)
// (t, error) method, a ViewType, and on its pointer, SliceFrom.
func isColumnType(t reflect.Type) bool {
	from, ok := t.MethodByName("From")
	_, isKind := reflect.Zero(t).Interface().(columnKind)
	return ok && isKind && reflect.PointerTo(t).Implements(slicerType) &&
		from.Type.NumIn() == 2 && from.Type.In(1) == viewType &&
		from.Type.NumOut() == 2 && from.Type.Out(0) == t && from.Type.Out(1) == errorType
}

// compile plans a typed column field against its column's datatype dt.
func (b *boundColumn) compile(gf goField, dt arrow.DataType, strict bool) error {
	if pin := checkPins(gf.tag, dt, storageOf(dt)); pin != "" {
		return newError(ErrTypeMismatch, gf.path, b.col.name, -1, "%s from %s: %s", gf.typ, dt, pin)
	}
	vt := reflect.Zero(gf.typ).Interface().(columnKind).ViewType(dt)
	if id := views.Storage(dt).ID(); !vt.Accept.Has(id) {
		return newError(ErrTypeMismatch, gf.path, b.col.name, -1, "%s from %s: it reads %s", gf.typ, dt, vt.Accept)
	}
	if strict {
		if err := strictColumn(gf.tag, dt); err != "" {
			return newError(ErrTypeMismatch, gf.path, b.col.name, -1, "%s from %s: %s", gf.typ, dt, err)
		}
	}
	vt.Nullable = gf.tag.Nullable
	vt.Label = gf.path
	// List elements and map values are nullable where their tag says so.
	for _, level := range []struct {
		t   *views.Type
		tag *tags.Tag
	}{{vt.Elem, gf.tag.Elem}, {vt.Value, gf.tag.Value}} {
		if level.t != nil && level.tag != nil && level.tag.Nullable {
			level.t.Nullable = true
		}
	}
	from, _ := gf.typ.MethodByName("From")
	b.vt, b.from, b.zero = &vt, from.Func, reflect.Zero(gf.typ)
	return nil
}

// compileStruct plans a field whose type is a struct of columns against
// its column's datatype dt, a struct: each of its fields binds to the
// struct's child of its name, as the fields of C bind to columns. The
// struct may not be nullable, since no field could tell its null rows:
// bind a views.StructColumn to read those.
func (b *boundColumn) compileStruct(gf goField, dt arrow.DataType, o *options) error {
	st := arrowtype.Storage(dt)
	children, ok := structChildren(st)
	if !ok {
		return newError(ErrTypeMismatch, gf.path, b.col.name, -1, "struct of columns %s from %s", gf.typ, dt)
	}
	if pin := checkPins(gf.tag, dt, st); pin != "" {
		return newError(ErrTypeMismatch, gf.path, b.col.name, -1, "struct of columns %s from %s: %s", gf.typ, dt, pin)
	}
	if gf.tag.Nullable {
		return newError(ErrUnsupported, gf.path, b.col.name, -1, "a struct of columns cannot be nullable: read the struct's nulls through a views.StructColumn")
	}
	fields, err := compileColumnFields(gf.typ, children, where{path: gf.path, column: b.col.name}, o)
	if err != nil {
		return err
	}
	vt := views.Type{Accept: views.Structs, Label: gf.path}
	b.views = make([]int, len(fields))
	for k, f := range fields {
		b.views[k] = -1
		if f.vt != nil {
			b.views[k] = len(vt.Fields)
			vt.Fields = append(vt.Fields, views.Field{Name: children[f.col.index].Name, Type: *f.vt, Pos: &f.col.index}) // the child matchFields chose
		}
	}
	b.vt, b.nested, b.fields = &vt, true, fields
	return nil
}

// strictColumn is what Strict finds wrong with reading dt, tagged tag, as a
// typed column, or "". A column type names its family (strings, binaries,
// lists, list views), and Strict accepts that family's plain encoding
// only, as it does for Decode: large, view and fixed-size variants need the
// tag to pin them. The rule holds at each level the column types: through
// dictionaries and run-end encoding (which the column type names itself),
// down list elements and map keys and values, with their `arrow-elem`,
// `arrow-key` and `arrow-value` tags.
func strictColumn(tag tags.Tag, dt arrow.DataType) string {
	dt = arrowtype.Storage(dt)
	if values, encoded := arrowtype.Encoded(dt); encoded {
		return strictColumn(tag, values)
	}
	if arrowtype.OfType(dt).Variant() && !pinsEncoding(tag) {
		return fmt.Sprintf("Strict reads %s only where the tag pins it", dt)
	}
	orZero := func(t *tags.Tag) tags.Tag {
		if t == nil {
			return tags.Tag{}
		}
		return *t
	}
	if m, ok := arrowtype.MapParts(dt); ok {
		if err := strictColumn(orZero(tag.Key), m.Key.Type); err != "" {
			return err
		}
		return strictColumn(orZero(tag.Value), m.Item.Type)
	}
	if l, ok := dt.(arrow.ListLikeType); ok {
		return strictColumn(orZero(tag.Elem), l.Elem())
	}
	return ""
}

// settable reports an error when field gf of t is reached through an
// embedded pointer, which a struct of columns cannot hold.
func settable(t reflect.Type, gf goField) error {
	for _, i := range gf.index[:len(gf.index)-1] {
		sf := t.Field(i)
		if sf.Type.Kind() == reflect.Pointer {
			return newError(ErrUnsupported, gf.path, "", -1, "a column field cannot be reached through embedded pointer %s", sf.Type)
		}
		t = sf.Type
	}
	return nil
}

// bind validates the planned columns of rec and sets the fields of dst.
// schema is the one p was found for, which rec's may be another object
// than, but must agree with on every planned column.
func (p *columnsPlan) bind(rec arrow.RecordBatch, schema *arrow.Schema, dst reflect.Value) error {
	_, err, _ := p.bindRows(rec, schema, dst, -1)
	return err
}

// bindRows is bind, or, when prefix >= 0, bind of the first prefix rows
// of rec alone (views.OfPrefix), its arrow.Array fields cut to them: the
// arrays cut are held, for the caller to release. On an error it reports
// whether the error is about a row, after checking every column for a
// fault about the record, as a Mapper's view does.
func (p *columnsPlan) bindRows(rec arrow.RecordBatch, schema *arrow.Schema, dst reflect.Value, prefix int) (held []arrow.Array, err error, aboutRow bool) {
	fail := func(err error, aboutRow bool) ([]arrow.Array, error, bool) {
		releaseArrays(held)
		return nil, err, aboutRow
	}
	rows := rec.NumRows()
	if rows < 0 || rows > maxRecordRows {
		return fail(newError(ErrInvalidData, "", "", -1, "a record of %d rows", rows), false)
	}
	recSchema := rec.Schema()
	var rowErr error
	for k := range p.fields {
		b := &p.fields[k]
		col := &b.col
		if recSchema != schema && !col.in(recSchema) { // schema's was checked when the plan was found for it
			return fail(newError(ErrTypeMismatch, col.codec.path, col.name, -1, "the record's schema differs from the one the columns were bound to"), false)
		}
		arr := rec.Column(col.index)
		if arr == nil || int64(arr.Len()) != rows {
			return fail(newError(ErrInvalidData, col.codec.path, col.name, -1, "a column that is not %d rows long", rows), false)
		}
		var v views.View
		if b.vt != nil {
			var err error
			if prefix < 0 {
				v, err = views.Of(arr, b.vt)
			} else {
				v, err = views.OfPrefix(arr, b.vt, prefix)
			}
			if err != nil {
				e := viewError(col, err, columnsNullRemedy)
				if e.Row < 0 {
					return fail(e, false)
				}
				if rowErr == nil {
					rowErr = e
				}
				continue
			}
		}
		if rowErr != nil {
			continue // only faults about the record count now
		}
		if held, err = b.set(dst.FieldByIndex(b.index), arr, v, prefix, held); err != nil {
			return fail(err, false)
		}
	}
	if rowErr != nil {
		return fail(rowErr, true)
	}
	return held, nil, false
}

// columnsNullRemedy is what an ErrNull of a typed column says, whatever
// its level.
func columnsNullRemedy(string) string {
	return `a typed column reads no null unless its field is tagged nullable (its list elements arrow-elem:"nullable", its map values arrow-value:"nullable")`
}

// set sets field to the column of arr, whose view v has been validated
// with b.vt; when prefix >= 0, to its first prefix rows, an arrow.Array
// cut to them and appended to held.
func (b *boundColumn) set(field reflect.Value, arr arrow.Array, v views.View, prefix int, held []arrow.Array) ([]arrow.Array, error) {
	switch {
	case b.vt == nil:
		if prefix >= 0 {
			cut, err := cutArray(arr, 0, prefix)
			if err != nil {
				return held, newError(ErrInvalidData, b.col.codec.path, b.col.name, -1, "%v", err)
			}
			held, arr = append(held, cut), cut
		}
		field.Set(reflect.ValueOf(arr))
	case b.nested:
		s, err := views.StructsOf(v)
		if err != nil {
			return held, viewError(&b.col, err, columnsNullRemedy)
		}
		if ext, ok := arr.(array.ExtensionArray); ok {
			arr = ext.Storage()
		}
		children := arr.(interface{ Field(int) arrow.Array }) // a struct's
		for k := range b.fields {
			f := &b.fields[k]
			var fv views.View
			if at := b.views[k]; at >= 0 {
				fv = s.Field(at)
			}
			if held, err = f.set(field.FieldByIndex(f.index), children.Field(f.col.index), fv, prefix, held); err != nil {
				return held, err
			}
		}
	default:
		out := b.from.Call([]reflect.Value{b.zero, reflect.ValueOf(v)})
		if err, _ := out[1].Interface().(error); err != nil {
			return held, viewError(&b.col, err, columnsNullRemedy)
		}
		field.Set(out[0])
	}
	return held, nil
}

// cutArray is rows [i, j) of arr, which the caller releases. An
// arrow.Array field is not validated, and arrow-go checks the bounds of a
// slice's buffers as it makes it: what it refuses of a hostile array is
// an error, not a panic.
func cutArray(arr arrow.Array, i, j int) (cut arrow.Array, err error) {
	defer func() {
		if r := recover(); r != nil {
			cut, err = nil, fmt.Errorf("rows [%d, %d) of the column: %v", i, j, r)
		}
	}()
	return array.NewSlice(arr, int64(i), int64(j)), nil
}

func releaseArrays(arrs []arrow.Array) {
	for _, arr := range arrs {
		arr.Release()
	}
}

// pageField is one column of a page and the same column of the record the
// page is cut from: for a typed column, pointers to both (the page's a
// slicer); for an arrow.Array field, two *arrow.Array, and its column.
type pageField struct {
	page, record any
	col          *column
}

// pageFields lists the columns of page and record, two values of the
// plan's struct, down into structs of columns: the fields a page sets.
func (p *columnsPlan) pageFields(page, record reflect.Value) []pageField {
	var out []pageField
	var walk func(fields []boundColumn, page, record reflect.Value)
	walk = func(fields []boundColumn, page, record reflect.Value) {
		for k := range fields {
			b := &fields[k]
			pf, rf := page.FieldByIndex(b.index), record.FieldByIndex(b.index)
			if b.nested {
				walk(b.fields, pf, rf)
				continue
			}
			out = append(out, pageField{page: pf.Addr().Interface(), record: rf.Addr().Interface(), col: &b.col})
		}
	}
	walk(p.fields, page, record)
	return out
}

// cutPage sets the page's columns to rows [i, j) of the record's, without
// validating again: a typed column by its SliceFrom method (no reflection,
// nothing allocated), an arrow.Array by array.NewSlice, whose array it
// appends to held for the caller to release. An arrow.Array field is not
// validated, and arrow-go checks the bounds of a slice as it makes it:
// what it refuses is an error naming the column, not a panic.
func cutPage(fields []pageField, i, j int, held []arrow.Array) ([]arrow.Array, error) {
	for _, f := range fields {
		if arr, ok := f.record.(*arrow.Array); ok {
			cut, err := cutArray(*arr, i, j)
			if err != nil {
				return held, newError(ErrInvalidData, f.col.codec.path, f.col.name, -1, "%v", err)
			}
			*f.page.(*arrow.Array) = cut
			held = append(held, cut)
			continue
		}
		f.page.(slicer).SliceFrom(f.record, i, j)
	}
	return held, nil
}

// cachedColumnsPlan is the columns plan for t and schema, from the plan
// cache.
func cachedColumnsPlan(t reflect.Type, schema *arrow.Schema, o *options) (*columnsPlan, error) {
	if schema == nil {
		return nil, newError(ErrTypeMismatch, "", "", -1, "nil schema")
	}
	return planFor(columnsKind, t, schema, o, func() (*columnsPlan, error) { return compileColumns(t, schema, o) })
}
