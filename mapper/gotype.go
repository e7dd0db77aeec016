package mapper

import (
	"encoding/json"
	"fmt"
	"go/token"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/internal/zone"
	"github.com/arrowmap/arrowmap/tags"
	"github.com/arrowmap/arrowmap/views"
)

// GoTypeOf is the inverse of SchemaOf: a struct type that decodes records
// of schema, for a schema known only at run time. It has one exported
// field per column, in schema order, of the Go type a user would write:
//
//   - bool, intN, uintN, float32, float64 and float16.Num for the Arrow
//     number of the same width, and bool for the arrow.bool8 extension;
//   - string for utf8, large_utf8 and utf8_view; []byte for binary,
//     large_binary and binary_view; json.RawMessage for the arrow.json
//     extension; [N]byte for fixed_size_binary(N) (and so for the UUID
//     extension);
//   - time.Time for timestamps (in the column's time zone), date32 and
//     date64; time.Duration for duration[ns], time32 and time64; int64,
//     the storage, for duration[s], [ms] and [us], whose values a
//     time.Duration (2⁶³ ns) cannot all hold;
//   - decimal.Decimal32, 64, 128 and 256 for the decimal of that width;
//   - []E for a list of any layout, [N]E for fixed_size_list(N), a
//     struct type for a struct, at any depth; for a map, its entries:
//     []struct{Key K; Value V} tagged map (and keys_sorted when the map
//     says so), which keeps their order, a key twice and keys no Go map
//     takes, so that Encode writes the map back as it was;
//   - for a sparse or dense union, a struct of a pointer variant per child
//     (tagged with its code=, and nullable when the child is) and a
//     UnionCode field tagged type_code, so that a null row keeps its code;
//   - arrow-go's interval types for the intervals;
//   - the values of a dictionary or run-end encoded column, the storage
//     of any other extension type, and Null for the null type.
//
// A level that may be null is a pointer, unless it is a slice or a map,
// whose nil is null already. The one exception is a list of uint8: a
// []uint8 is a []byte, which reads binary, so its elements are *uint8.
//
// Fields are named after their columns as exported Go identifiers
// (user_id → UserID, 2nd → X2nd), numbered when two collide (Name,
// Name2), and tagged `arrow:"<column>"` and `json:"<column>"` ("-," for a
// column named "-"; no json tag for a name encoding/json cannot hold). A
// name on two columns of one struct gets `pos=`, the column's position,
// and so does a name the plain tag grammar cannot hold ("", one with a
// comma or edge spaces), written as a Go string literal:
// `arrow:"\"a,b\",pos=3"`.
//
// The tags also pin what the Go type alone does not say, so that SchemaOf
// of the type (with SchemaMetadata(schema.Metadata())) is schema exactly:
// the layout (large_utf8, large_list, …), dict with index= and ordered, ree
// with run_ends=, the temporal type, unit and time zone or naive, the
// decimal's precision and scale, notnull on a slice or map that is not
// nullable, ext= and ext_metadata= for an extension, arrow-meta for field
// metadata; on the column, in arrow-elem (with name= for an element not
// named item, and arrow-elem-meta) for a list's elements, in elem(…)
// inside it for the levels below, and on the Key and Value fields of a
// map's entries. What no tag says is lost: the metadata of a field below a
// list element's element, a decimal of negative scale (its Go type's
// widest comes back), and the nullability of a run-end field over nullable
// values and of a null column (they come back nullable).
//
// Every call makes a new type with reflect.StructOf, and DecodeTo its slice
// type with reflect.SliceOf: reflect keeps each type it makes for the life
// of the program (some hundreds of bytes for a small struct), so a program
// that meets ever new schemas grows by that much for each, though the plan
// cache it fills holds a bounded number of plans. A program that decodes
// many files of one schema calls GoTypeOf once.
//
// New and DecodeTo accept the type for schema with the default options,
// and decode every value as arrow-go's accessor reads it. An Arrow type
// with no Go type (a dictionary of run-end encoded values, …) or a time
// zone that does not load is an *Error wrapping ErrUnsupported that names
// the column.
func GoTypeOf(schema *arrow.Schema) (reflect.Type, error) {
	if schema == nil {
		return nil, newError(ErrTypeMismatch, "", "", -1, "nil schema")
	}
	t, err := structTypeOf(schema.Fields(), where{})
	if err != nil {
		return nil, err
	}
	// What GoTypeOf returns New accepts: a level the decoder would still
	// refuse fails here, as New reports it, and not at the caller's first
	// record. The plan is cached for DecodeTo.
	o, err := optionsFor[ReadOption]("GoTypeOf", 0, nil)
	if err != nil {
		return nil, err
	}
	if _, err := cachedDecodePlan(t, schema, o); err != nil {
		return nil, err
	}
	return t, nil
}

// goLevel is the Go type of one level of an Arrow type and the tag
// options it needs: its own, and those of its elements, keys and values,
// which only a struct field's own level has tags for (arrow-elem,
// arrow-key, arrow-value).
type goLevel struct {
	typ              reflect.Type
	opts             []string
	elem, key, value []string
	meta             arrow.Metadata // a struct field's or a list element's
	elemMeta         arrow.Metadata
}

// structTypeOf is the struct type of fields at at.
func structTypeOf(fields []arrow.Field, at where) (reflect.Type, error) {
	sf := make([]reflect.StructField, len(fields))
	names := map[string]bool{}
	columns := map[string]int{}
	for _, f := range fields {
		columns[f.Name]++
	}
	var size uint64
	for i, f := range fields {
		name := uniqueName(exportedName(f.Name), names)
		fat := at.field(name, f.Name)
		lv, err := levelOf(f.Type, f.Nullable, fat)
		if err != nil {
			return nil, err
		}
		lv.meta = f.Metadata
		pos := -1
		if columns[f.Name] > 1 {
			pos = i // a name twice is told apart by position
		}
		sf[i] = reflect.StructField{Name: name, Type: lv.typ, Tag: fieldTag(f.Name, i, pos, lv)}
		if size += uint64(lv.typ.Size()); size > maxGoSize {
			return nil, newError(ErrUnsupported, at.path, at.column, -1, "the fields are too large for a Go struct")
		}
	}
	return reflect.StructOf(sf), nil
}

// fieldTag is the struct tag of a field for column at position i with the
// options of lv, naming its position when pos is i: for a name the
// plain grammar cannot hold too, which the tag quotes.
func fieldTag(column string, i, pos int, lv goLevel) reflect.StructTag {
	name, jsonName := column, column
	if column == "-" {
		name, jsonName = "-,", "-," // "-" alone skips the field, as in encoding/json
	}
	// A name the plain grammar reads otherwise ("", "a,b", " a", `"a`)
	// would match another column or none.
	if t, err := tags.Parse(name); column == "" || err != nil || t.Skip || t.Name != column {
		name, pos = strconv.Quote(column), i
	}
	opts := lv.opts
	if pos >= 0 {
		opts = append([]string{"pos=" + strconv.Itoa(pos)}, opts...)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "arrow:%q", strings.Join(append([]string{name}, opts...), ","))
	for _, sub := range [...]struct {
		key  string
		opts []string
	}{{"arrow-elem", lv.elem}, {"arrow-key", lv.key}, {"arrow-value", lv.value}} {
		if len(sub.opts) > 0 {
			fmt.Fprintf(&b, " %s:%q", sub.key, strings.Join(sub.opts, ","))
		}
	}
	if md := fieldMetadata(lv.meta); md.Len() > 0 {
		fmt.Fprintf(&b, " arrow-meta:%q", tags.FormatMetadata(md))
	}
	if md := fieldMetadata(lv.elemMeta); md.Len() > 0 {
		fmt.Fprintf(&b, " arrow-elem-meta:%q", tags.FormatMetadata(md))
	}
	// encoding/json takes no comma in a name, and "" is the field's name.
	if column != "" && !strings.Contains(column, ",") {
		fmt.Fprintf(&b, " json:%q", jsonName)
	}
	return reflect.StructTag(b.String())
}

// fieldMetadata is the metadata of a field that its tags keep: all of it
// but pqarrow's PARQUET:field_id=-1, which pqarrow puts on every field
// without a field id, and which says nothing.
func fieldMetadata(md arrow.Metadata) arrow.Metadata {
	i := md.FindKey("PARQUET:field_id")
	if i < 0 || md.Values()[i] != "-1" {
		return md
	}
	keys, values := slices.Delete(slices.Clone(md.Keys()), i, i+1), slices.Delete(slices.Clone(md.Values()), i, i+1)
	return arrow.NewMetadata(keys, values)
}

// levelOf is the Go type of a level of Arrow type dt, which may be null
// when nullable: through extensions, dictionaries and run-end encoding to
// the values, as the decoder reads them.
func levelOf(dt arrow.DataType, nullable bool, at where) (goLevel, error) {
	return nullableLevelOf(dt, nullable, true, at)
}

// nullableLevelOf is levelOf with the choice of how a nullable level that
// is not nullable by nature says so: a pointer when pointers is set, else
// the tag option nullable — for a union variant, whose pointer says which
// child a row selects, not whether its value is null.
func nullableLevelOf(dt arrow.DataType, nullable, pointers bool, at where) (goLevel, error) {
	if dt == nil {
		return goLevel{}, newError(ErrInvalidData, at.path, at.column, -1, "no data type")
	}
	value := arrowtype.Storage(dt)
	if _, _, isExt := arrowtype.ExtensionName(dt); isExt && arrowtype.OfType(value).Layout == arrowtype.Dictionary {
		return goLevel{}, newError(ErrUnsupported, at.path, at.column, -1, "%s has no Go type: an extension of a dictionary", dt)
	}
	var encoding []string
	if index, values, ordered, ok := arrowtype.DictionaryParts(value); ok {
		encoding, value = []string{"dict"}, values
		if index != nil && !isInt32(index) {
			encoding = append(encoding, "index="+index.String())
		}
		if ordered {
			encoding = append(encoding, "ordered")
		}
	} else if runEnds, values, valuesNullable, ok := arrowtype.RunEndParts(value); ok {
		// A run-end array's nulls are its values': their field says
		// whether there may be some.
		encoding, value = []string{"ree"}, values
		if runEnds != nil && !isInt32(runEnds) {
			encoding = append(encoding, "run_ends="+runEnds.String())
		}
		nullable = nullable || valuesNullable
	}
	if value == nil {
		return goLevel{}, newError(ErrInvalidData, at.path, at.column, -1, "%s has no value type", dt)
	}
	extName, extMeta, isExt := arrowtype.ExtensionName(value)
	if !isExt {
		extName, extMeta, isExt = arrowtype.ExtensionName(dt)
	}
	value = arrowtype.Storage(value)
	row := arrowtype.OfType(value)
	if row.Encoding() {
		return goLevel{}, newError(ErrUnsupported, at.path, at.column, -1, "%s has no Go type: encodings do not nest", dt)
	}
	lv, err := valueLevelOf(value, at)
	if err != nil {
		return goLevel{}, err
	}
	if isExt {
		if t, ok := extensionGoTypes[extName]; ok && t.storage.Has(value.ID()) {
			lv.typ = t.typ // its layout pins, such as large_utf8, stay
		}
	}
	lv.opts = append(lv.opts, encoding...)
	if isExt {
		lv.opts = append(lv.opts, "ext="+tags.Quote(extName))
		if extMeta != "" {
			lv.opts = append(lv.opts, "ext_metadata="+tags.Quote(extMeta))
		}
	}
	union := row.Layout == arrowtype.Union
	switch {
	case row.Layout == arrowtype.Null: // nullable by nature, and only null
	case !nullable:
		if nullableKind(lv.typ) {
			lv.opts = append(lv.opts, "notnull") // nil is null otherwise
		}
	case nullableKind(lv.typ): // nil is null
	case union || !pointers:
		// A union's pointer would be nil for a null row and lose its type
		// code; a variant's pointer is for the child it selects.
		lv.opts = append(lv.opts, "nullable")
	default:
		lv.typ = reflect.PointerTo(lv.typ)
	}
	return lv, nil
}

// valueLevelOf is the Go type of dt, a type of values (no extension,
// dictionary or run-end encoding), before its nullability.
func valueLevelOf(dt arrow.DataType, at where) (goLevel, error) {
	row := arrowtype.OfType(dt)
	switch row.Layout {
	case arrowtype.FixedBinary:
		width := arrowtype.ByteWidth(dt)
		if width < 0 {
			return goLevel{}, newError(ErrInvalidData, at.path, at.column, -1, "%s has a negative width", dt)
		}
		return arrayLevelOf(width, goLevel{typ: byteType}, dt, at)
	case arrowtype.FixedList:
		ef := dt.(arrow.ListLikeType).ElemField()
		elem, err := elemLevelOf(ef, at)
		if err != nil {
			return goLevel{}, err
		}
		n, _ := arrowtype.ListSize(dt)
		if n <= 0 {
			return goLevel{}, newError(ErrUnsupported, at.path, at.column, -1, "%s has no elements", dt)
		}
		lv, err := arrayLevelOf(int(n), goLevel{typ: elem.typ, elem: elem.opts}, dt, at)
		if err == nil && elem.typ == byteType {
			lv.opts = []string{row.Name} // [N]byte is fixed_size_binary by default
		}
		return lv, err
	case arrowtype.List, arrowtype.ListView:
		if row.Map {
			return mapLevelOf(dt, at)
		}
		ef := dt.(arrow.ListLikeType).ElemField()
		elem, err := elemLevelOf(ef, at)
		if err != nil {
			return goLevel{}, err
		}
		if elem.typ == byteType {
			elem.typ = reflect.PointerTo(byteType) // []uint8 is []byte, which reads binary
			if !ef.Nullable {
				elem.opts = append(elem.opts, "notnull") // the pointer is not for nulls
			}
		}
		lv := goLevel{typ: reflect.SliceOf(elem.typ), elem: elem.opts, elemMeta: elem.meta}
		if !row.PlainLayout() {
			lv.opts = []string{row.Name} // SchemaOf's []E is a list
		}
		return lv, nil
	case arrowtype.Struct:
		t, err := structTypeOf(dt.(arrow.NestedType).Fields(), at)
		return goLevel{typ: t}, err
	case arrowtype.Union:
		return unionLevelOf(dt.(arrow.UnionType), at)
	}
	t := row.GoType
	if row.Layout == arrowtype.Null {
		t = reflect.TypeFor[Null]()
	}
	if overDuration(row, dt) {
		t = row.Value.GoType() // its storage
	}
	if t == nil {
		return goLevel{}, newError(ErrUnsupported, at.path, at.column, -1, "%s has no Go type", dt)
	}
	opts, err := scalarPins(dt, row, at)
	return goLevel{typ: t, opts: opts}, err
}

// defaultIndex is a dictionary's index type and a run-end encoding's run
// ends when no tag names them: what Encode writes, and what GoTypeOf
// leaves untagged (isInt32).
var defaultIndex arrow.DataType = arrow.PrimitiveTypes.Int32

// isInt32 reports whether dt is int32, defaultIndex.
func isInt32(dt arrow.DataType) bool {
	r := arrowtype.OfType(dt)
	return r.Integer && r.Value == arrowtype.Int32
}

// elemLevelOf is the level of a list's elements, named as ef.
func elemLevelOf(ef arrow.Field, at where) (goLevel, error) {
	elem, err := levelOf(ef.Type, ef.Nullable, at.elem(ef.Name))
	if err == nil && ef.Name != "item" {
		elem.opts = append(elem.opts, "name="+tags.Quote(ef.Name))
	}
	if len(elem.elem) > 0 {
		// The element's own element has no struct tag: its options go in
		// elem(…), at any depth.
		elem.opts = append(elem.opts, "elem("+strings.Join(elem.elem, ",")+")")
		elem.elem = nil
	}
	elem.meta = ef.Metadata
	return elem, err
}

// maxGoSize bounds the size of a Go value GoTypeOf makes: reflect panics
// past the address space, and a hostile schema nests fixed sizes that
// multiply.
const maxGoSize = 1 << 40

// arrayLevelOf is the array of n of elem's type, its options elem's
// element options.
func arrayLevelOf(n int, elem goLevel, dt arrow.DataType, at where) (goLevel, error) {
	if size := elem.typ.Size(); size > 0 && uint64(n) > maxGoSize/uint64(size) {
		return goLevel{}, newError(ErrUnsupported, at.path, at.column, -1, "%s is too large for a Go array", dt)
	}
	return goLevel{typ: reflect.ArrayOf(n, elem.typ), elem: elem.opts}, nil
}

// mapLevelOf is the Go type of a map type: its entries, []struct{Key K;
// Value V} tagged map, the fields tagged with the map's names for them.
// A Go map would lose the entries' order and a key twice, and takes no
// []byte key: the entries hold every valid map, and encode it back as it
// was.
func mapLevelOf(dt arrow.DataType, at where) (goLevel, error) {
	m, _ := arrowtype.MapParts(dt)
	entriesAt := at.elem(m.Entries.Name)
	fields := [2]arrow.Field{m.Key, m.Item}
	fields[0].Nullable = false // a key never is null
	var sf [2]reflect.StructField
	for i, name := range [2]string{"Key", "Value"} {
		f := fields[i]
		lv, err := levelOf(f.Type, f.Nullable, entriesAt.field(name, f.Name))
		if err != nil {
			return goLevel{}, err
		}
		lv.meta = f.Metadata
		sf[i] = reflect.StructField{Name: name, Type: lv.typ, Tag: fieldTag(f.Name, i, -1, lv)}
	}
	if uint64(sf[0].Type.Size())+uint64(sf[1].Type.Size()) > maxGoSize {
		return goLevel{}, newError(ErrUnsupported, at.path, at.column, -1, "the entries of %s are too large for a Go struct", dt)
	}
	opts := []string{arrowtype.OfType(dt).Name}
	if m.KeysSorted {
		opts = append(opts, "keys_sorted")
	}
	return goLevel{typ: reflect.SliceOf(reflect.StructOf(sf[:])), opts: opts}, nil
}

// scalarPins are the tag options that make SchemaOf of a scalar's Go type
// dt, of row r, when its default is another Arrow type: a layout other
// than its family's plain one, a date, a time of day, a timestamp or a
// duration in another unit or zone than the default, a decimal's
// precision and scale.
func scalarPins(dt arrow.DataType, r *arrowtype.Row, at where) ([]string, error) {
	switch {
	case r.VarBinary():
		if r.PlainLayout() {
			return nil, nil
		}
		return []string{r.Name}, nil
	case r.GoType == timeType || r.GoType == durationType:
		return temporalPins(dt, r, at)
	case r.Decimal:
		p, s, _ := arrowtype.Precision(dt)
		widest := arrowtype.Decimals()[len(arrowtype.Decimals())-1]
		if p < 1 || p > widest.MaxPrecision || s < 0 || s > p {
			return nil, nil // no tag holds it; the values decode unscaled all the same
		}
		return []string{fmt.Sprintf("decimal(%d,%d)", p, s)}, nil
	}
	return nil, nil
}

// temporalPins are the tag options that make SchemaOf of a time.Time or
// a time.Duration dt, of row r: r's name where r is not the Go type's
// default (a date, a time of day) or dt is not in r's default unit or
// zone, then the unit of a row that takes one; naive, or the zone where it
// is not UTC.
func temporalPins(dt arrow.DataType, r *arrowtype.Row, at where) ([]string, error) {
	def := timestampRow
	if r.GoType == durationType {
		def = durationRow
	}
	unit, _ := arrowtype.Unit(dt)
	tz, zoned := arrowtype.Zone(dt)
	if zoned {
		if _, err := zone.OfTimestamp(tz); err != nil {
			return nil, newError(ErrUnsupported, at.path, at.column, -1, "%s: %v", dt, err)
		}
	}
	var opts []string
	if r != def || unit != r.DefaultUnit || (zoned && tz != defaultZone) {
		opts = append(opts, r.Name)
		if len(r.Units) > 0 {
			opts = append(opts, "unit="+unit.String())
		}
	}
	if zoned && tz == "" {
		opts = append(opts, "naive")
	}
	// Tags and columns read zones with one parser; a zone the tag's syntax
	// cannot hold (a comma) is left to the column, whose zone the decoder
	// reads.
	if tz != "" && len(opts) > 0 {
		if _, err := tags.ParseOptions(r.Name + ",tz=" + tz); err == nil {
			opts = append(opts, "tz="+tz)
		}
	}
	return opts, nil
}

// extensionGoTypes are the Go types of the canonical extensions that
// decode into another Go type than their storage's, over the storage types
// they read.
var extensionGoTypes = map[string]struct {
	typ     reflect.Type
	storage views.Accept
}{
	extBool8: {reflect.TypeFor[bool](), bool8Storage},
	extJSON:  {reflect.TypeFor[json.RawMessage](), views.Strings},
}

var byteType = reflect.TypeFor[byte]()

// exportedName is a column name as an exported Go identifier in Go's camel
// case, initialisms upper-cased: user_id → UserID, placed_at → PlacedAt,
// "2nd" → X2nd.
func exportedName(name string) string {
	var b strings.Builder
	words := strings.FieldsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, w := range words {
		if initialisms[strings.ToUpper(w)] {
			b.WriteString(strings.ToUpper(w))
			continue
		}
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	s := b.String()
	if s == "" || !unicode.IsLetter([]rune(s)[0]) || !token.IsExported(s) {
		s = "X" + s
	}
	return s
}

// initialisms are the words Go spells in capitals, as golint's list.
var initialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "DNS": true, "EOF": true,
	"GUID": true, "HTML": true, "HTTP": true, "HTTPS": true, "ID": true, "IP": true, "JSON": true,
	"LHS": true, "QPS": true, "RAM": true, "RHS": true, "RPC": true, "SKU": true, "SLA": true,
	"SMTP": true, "SQL": true, "SSH": true, "TCP": true, "TLS": true, "TTL": true, "UDP": true,
	"UI": true, "UID": true, "UUID": true, "URI": true, "URL": true, "UTF8": true, "VM": true,
	"XML": true, "XMPP": true, "XSRF": true, "XSS": true,
}

// uniqueName is name, or name with a number, not yet in used; it marks it.
func uniqueName(name string, used map[string]bool) string {
	candidate := name
	for i := 2; used[candidate]; i++ {
		candidate = fmt.Sprintf("%s%d", name, i)
	}
	used[candidate] = true
	return candidate
}

// unionLevelOf is the union struct of a union type: a pointer variant per
// child, pinned to its code, and the type_code field.
func unionLevelOf(dt arrow.UnionType, at where) (goLevel, error) {
	children := dt.Fields()
	sf := make([]reflect.StructField, 0, len(children)+1)
	names := map[string]bool{}
	columns := map[string]bool{}
	for i, f := range children {
		name := uniqueName(exportedName(f.Name), names)
		fat := at.field(name, f.Name)
		if columns[f.Name] {
			return goLevel{}, newError(ErrUnsupported, fat.path, fat.column, -1, "a second union child named %q", f.Name)
		}
		columns[f.Name] = true
		lv, err := nullableLevelOf(f.Type, f.Nullable, false, fat)
		if err != nil {
			return goLevel{}, err
		}
		lv.opts = append([]string{fmt.Sprintf("code=%d", dt.TypeCodes()[i])}, lv.opts...)
		lv.meta = f.Metadata
		sf = append(sf, reflect.StructField{Name: name, Type: reflect.PointerTo(lv.typ), Tag: fieldTag(f.Name, i, -1, lv)})
	}
	sf = append(sf, reflect.StructField{Name: uniqueName("TypeCode", names), Type: reflect.TypeFor[UnionCode](), Tag: `arrow:",type_code" json:"-"`})
	return goLevel{typ: reflect.StructOf(sf), opts: []string{arrowtype.OfType(dt).Name}}, nil
}
