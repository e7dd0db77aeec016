package tags

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

// The grammar table: every option of the arrow, arrow-elem, arrow-key and
// arrow-value tags, spelled once, with how it is written, where it may be
// written, what it applies to and what it sets. The parser, the choice
// groups, the String methods of Encoding, Temporal, Unit and UnionMode,
// and the error messages all read it; the pins that name an Arrow type
// take their spelling from internal/arrowtype's table.

// Kind is how an option is written.
type Kind uint8

// The kinds of option.
const (
	KindFlag    Kind = iota + 1 // `nullable`, or `nullable=true` / `nullable=false`
	KindPin                     // a flag that picks one member of its group: `large_list`
	KindValue                   // `key=value`: `unit=ms`, `pos=2`, `name="a,b"`
	KindDecimal                 // `decimal(p,s)`: precision= and scale= at once
	KindOptions                 // `elem(…)`: an option list for the level below
)

var kindNames = [...]string{KindFlag: "flag", KindPin: "pin", KindValue: "key=value", KindDecimal: "decimal(p,s)", KindOptions: "elem(…)"}

// String names k as the package documentation does: "flag", "pin",
// "key=value", "decimal(p,s)", "elem(…)".
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Level is a set of places an option may be written.
type Level uint8

// The levels.
const (
	// LevelColumn is the arrow tag: a column or a struct field.
	LevelColumn Level = 1 << iota
	// LevelChild is the arrow-elem, arrow-key and arrow-value tags and
	// elem(…): a list's element, a map's key or value.
	LevelChild

	anyLevel = LevelColumn | LevelChild
)

// GoTypes is a set of the kinds of Go type an option applies to. The tags
// package does not see Go types; the mapper refuses an option on a field
// whose type is outside the option's set ("X does not apply to T").
type GoTypes uint16

// The kinds of Go type options apply to.
const (
	Strings      GoTypes = 1 << iota // string, and types that implement encoding.TextMarshaler
	Bytes                            // []byte and [N]byte
	Lists                            // []T and [N]T other than bytes
	Maps                             // map[K]V
	Times                            // time.Time
	Durations                        // time.Duration
	Integers                         // intN and uintN, as a temporal type's storage
	Decimals                         // decimal.Decimal32, 64, 128 and 256
	Structs                          // a struct, embedded or not
	UnionStructs                     // a struct of pointer variants, tagged as a union
	UnionFields                      // a variant or the type-code field of a union struct

	// AnyGoType is every Go type a column can have.
	AnyGoType GoTypes = 1<<iota - 1
)

// group is a set of options of which a tag may give at most one.
type group struct {
	name    string // "encoding", "temporal", "union", "layout"
	members []*option
}

// option is one row of the grammar table.
type option struct {
	name    string
	kind    Kind
	levels  Level
	applies GoTypes
	group   *group
	// alias is the option this one is another spelling of.
	alias *option
	// id is the Arrow type a pin names, whose row in arrowtype spells it.
	id arrow.Type
	// pinned is the constant a pin sets: an Encoding, Temporal or UnionMode.
	pinned any
	// goType is what mapstructure decodes the option's value into: bool
	// for flags and pins, the value's type for key=value.
	goType reflect.Type
	// parts are what decimal(p,s) sets: precision= and scale=.
	parts []*option
	// set stores the decoded value into the Tag.
	set func(t *Tag, v any)
	// misplaced says why the option cannot be written outside its levels.
	misplaced string
}

// flag is a row for `name`, setting a bool field of Tag.
func flag(name string, applies GoTypes, field func(*Tag) *bool) *option {
	return &option{name: name, kind: KindFlag, levels: anyLevel, applies: applies, goType: boolType,
		set: func(t *Tag, v any) { *field(t) = v.(bool) }}
}

// value is a row for `name=`, decoded as a T.
func value[T any](name string, applies GoTypes, set func(*Tag, T)) *option {
	return &option{name: name, kind: KindValue, levels: anyLevel, applies: applies, goType: reflect.TypeFor[T](),
		set: func(t *Tag, v any) { set(t, v.(T)) }}
}

// pin is a row for an option that picks v within its group. A pin of an
// Arrow type is spelled as arrowtype's table names the type, and names
// that row; union, which pins a mode and no type, names none.
func pin[T any](spelling string, applies GoTypes, v T, field func(*Tag) *T) *option {
	var id arrow.Type
	if r, ok := arrowtype.ByName(spelling); ok {
		id = r.ID
	}
	return &option{name: spelling, kind: KindPin, levels: anyLevel, applies: applies, id: id, pinned: v, goType: boolType,
		set: func(t *Tag, chosen any) {
			if chosen.(bool) {
				*field(t) = v
			}
		}}
}

// aliasOf is another spelling of o.
func aliasOf(name string, o *option) *option {
	a := *o
	a.name, a.alias = name, o
	return &a
}

func newGroup(name string, members ...*option) *group {
	g := &group{name: name, members: members}
	for _, o := range members {
		o.group = g
	}
	return g
}

var boolType = reflect.TypeFor[bool]()

// What the Go types of a group take.
const (
	textTypes     = Strings | Bytes // json.RawMessage takes the string layouts with ext=arrow.json
	layoutTypes   = Strings | Bytes | Lists | Maps | Structs
	temporalTypes = Times | Durations | Integers
)

func encodingPin(spelling string, applies GoTypes, e Encoding) *option {
	return pin(spelling, applies, e, func(t *Tag) *Encoding { return &t.Encoding })
}

func temporalPin(spelling string, applies GoTypes, tt Temporal) *option {
	return pin(spelling, applies, tt, func(t *Tag) *Temporal { return &t.Temporal })
}

func unionPin(spelling string, m UnionMode) *option {
	return pin(spelling, UnionStructs, m, func(t *Tag) *UnionMode { return &t.Union })
}

// The rows, by what they set.
var (
	optNullable   = flag("nullable", AnyGoType, func(t *Tag) *bool { return &t.Nullable })
	optInline     = flag("inline", Structs, func(t *Tag) *bool { return &t.Inline })
	optView       = flag("view", layoutTypes, func(t *Tag) *bool { return &t.View })
	optLarge      = flag("large", layoutTypes, func(t *Tag) *bool { return &t.Large })
	optDict       = flag("dict", AnyGoType, func(t *Tag) *bool { return &t.Dict })
	optREE        = flag("ree", AnyGoType, func(t *Tag) *bool { return &t.REE })
	optNaive      = flag("naive", Times|Integers, func(t *Tag) *bool { return &t.Naive })
	optNotNull    = flag("notnull", AnyGoType, func(t *Tag) *bool { return &t.NotNull })
	optOrdered    = flag("ordered", AnyGoType, func(t *Tag) *bool { return &t.Ordered })
	optKeysSorted = flag("keys_sorted", Maps, func(t *Tag) *bool { return &t.KeysSorted })
	optTypeCode   = flag("type_code", UnionFields, func(t *Tag) *bool { return &t.TypeCode })

	optList            = encodingPin("list", Lists, List)
	optLargeList       = encodingPin("large_list", Lists, LargeList)
	optListView        = encodingPin("list_view", Lists, ListView)
	optLargeListView   = encodingPin("large_list_view", Lists, LargeListView)
	optFixedSizeList   = encodingPin("fixed_size_list", Lists, FixedSizeList)
	optUtf8            = encodingPin("utf8", textTypes, Utf8)
	optLargeUtf8       = encodingPin("large_utf8", textTypes, LargeUtf8)
	optUtf8View        = encodingPin("utf8_view", textTypes, Utf8View)
	optBinary          = encodingPin("binary", Bytes, Binary)
	optLargeBinary     = encodingPin("large_binary", Bytes, LargeBinary)
	optBinaryView      = encodingPin("binary_view", Bytes, BinaryView)
	optFixedSizeBinary = encodingPin("fixed_size_binary", Bytes, FixedSizeBinary)
	optMap             = encodingPin("map", Maps, Map)

	optTimestamp = temporalPin("timestamp", Times|Integers, Timestamp)
	optDate32    = temporalPin("date32", Times|Integers, Date32)
	optDate64    = temporalPin("date64", Times|Integers, Date64)
	optTime32    = temporalPin("time32", temporalTypes, Time32)
	optTime64    = temporalPin("time64", temporalTypes, Time64)
	optDuration  = temporalPin("duration", Durations|Integers, Duration)

	optUnion       = unionPin("union", AnyUnion)
	optSparseUnion = unionPin("sparse_union", SparseUnion)
	optDenseUnion  = unionPin("dense_union", DenseUnion)

	optUnit = value("unit", temporalTypes, func(t *Tag, u Unit) { t.Unit = u })
	optTZ   = value("tz", Times|Integers, func(t *Tag, z zone) { t.TZ = string(z) })
	// precision= makes the Decimal; scale= alone is refused before set.
	optPrecision = value("precision", Decimals|Strings, func(t *Tag, p int32) { decimalOf(t).Precision = p })
	optScale     = value("scale", Decimals|Strings, func(t *Tag, s int32) { decimalOf(t).Scale = s })
	optPos       = value("pos", AnyGoType, func(t *Tag, p int32) { pos := int(p); t.Pos = &pos })
	optCode      = value("code", UnionFields, func(t *Tag, c int32) { code := int8(c); t.Code = &code }) // in range: checked first
	optIndex     = value("index", AnyGoType, func(t *Tag, i indexType) { t.Index = i.DataType })
	optRunEnds   = value("run_ends", AnyGoType, func(t *Tag, r runEnds) { t.RunEnds = r.DataType })
	optName      = value("name", AnyGoType, func(t *Tag, n string) { t.Name = n })
	optExt       = value("ext", AnyGoType, func(t *Tag, e string) { t.Extension = e })
	optExtMeta   = value("ext_metadata", AnyGoType, func(t *Tag, m string) { t.ExtensionMetadata = m })

	optDecimal = &option{name: "decimal", kind: KindDecimal, levels: anyLevel, applies: Decimals | Strings,
		parts: []*option{optPrecision, optScale}}
	// elem(…) holds its options as text; the rule nested parses them.
	optElem = &option{name: "elem", kind: KindOptions, levels: anyLevel, applies: Lists, goType: reflect.TypeFor[string]()}
)

func decimalOf(t *Tag) *Decimal {
	if t.Decimal == nil {
		t.Decimal = &Decimal{}
	}
	return t.Decimal
}

// The choice groups. The order of a group's members is the order of the
// constants they set, which String reads.
var (
	encodings = newGroup("encoding", optList, optLargeList, optListView, aliasOf("listview", optListView),
		optLargeListView, optFixedSizeList, optUtf8, optLargeUtf8, optUtf8View,
		optBinary, optLargeBinary, optBinaryView, optFixedSizeBinary, optMap)
	temporals = newGroup("temporal", optTimestamp, optDate32, optDate64, optTime32, optTime64, optDuration)
	unions    = newGroup("union", optUnion, optSparseUnion, optDenseUnion)
	// layouts change the physical layout around the values; arreflect
	// allows one at most.
	layouts = newGroup("layout", optDict, optREE, optView)
)

// grammar is every option, in the order of the package documentation.
var grammar = func() []*option {
	g := []*option{optPos, optNullable, optInline, optDict, optREE, optView, optLarge}
	g = append(g, encodings.members...)
	g = append(g, temporals.members...)
	g = append(g, optUnit, optTZ, optDecimal, optPrecision, optScale)
	g = append(g, unions.members...)
	g = append(g, optCode, optTypeCode, optNaive, optNotNull, optIndex, optOrdered, optRunEnds, optName,
		optElem, optExt, optExtMeta, optKeysSorted)
	optPos.levels, optPos.misplaced = LevelColumn, "only a column or a struct field has a position"
	optName.levels, optName.misplaced = LevelChild, "the arrow tag names its column first; name= is for arrow-elem, arrow-key and arrow-value"
	return g
}()

// byName finds the row of an option written name or name=value;
// decimal(p,s) has no such spelling.
var byName = func() map[string]*option {
	m := map[string]*option{}
	for _, o := range grammar {
		if _, dup := m[o.name]; dup {
			panic("tags: the grammar spells " + o.name + " twice")
		}
		if o.kind != KindDecimal {
			m[o.name] = o
		}
	}
	return m
}()

// memberName is the name of the first member of g that pins v: the
// String of a group's constant.
func memberName(g *group, v any) (string, bool) {
	for _, o := range g.members {
		if o.pinned == v {
			return o.name, true
		}
	}
	return "", false
}

// Option describes one option of the grammar, as [Options] lists it.
type Option struct {
	// Name is the option as written: "nullable", "large_list", "unit",
	// "decimal", "elem".
	Name string
	// Kind is how it is written: a flag, a pin, key=value, decimal(p,s)
	// or elem(…).
	Kind Kind
	// Group is the group of which a tag gives at most one: "encoding",
	// "temporal" or "union" for the pins, "layout" for dict, ree and
	// view; "" for the others.
	Group string
	// AliasOf is the option this one is another spelling of ("list_view"
	// for "listview"), "" for most.
	AliasOf string
	// Levels is where it may be written.
	Levels Level
	// AppliesTo is the kinds of Go type it applies to.
	AppliesTo GoTypes
	// ArrowType is the ID of the Arrow type a pin names (large_list's for
	// large_list), 0 (null's) for the other options.
	ArrowType arrow.Type
}

// Options lists every option of the grammar, one Option each, in the
// order of the package documentation. The slice is the caller's.
func Options() []Option {
	out := make([]Option, len(grammar))
	for i, o := range grammar {
		out[i] = Option{Name: o.name, Kind: o.kind, Levels: o.levels, AppliesTo: o.applies, ArrowType: o.id}
		if o.group != nil {
			out[i].Group = o.group.name
		}
		if o.alias != nil {
			out[i].AliasOf = o.alias.name
		}
	}
	return out
}

// LookupOption is the Option written name ("unit", "large_list",
// "decimal"), and false when the grammar has none.
func LookupOption(name string) (Option, bool) {
	for _, o := range Options() {
		if o.Name == name {
			return o, true
		}
	}
	return Option{}, false
}

var goTypeNames = [...]string{"strings", "bytes", "lists", "maps", "time.Time", "time.Duration", "integers",
	"decimals", "structs", "union structs", "union fields"}

// String lists the kinds of g: "strings|bytes", "any Go type".
func (g GoTypes) String() string {
	if g == AnyGoType {
		return "any Go type"
	}
	var names []string
	for i, name := range goTypeNames {
		if g&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	return strings.Join(names, "|")
}

// orList joins names as a sentence does: "a", "a or b", "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// pinnedID is the Arrow type of the member of g that pins v.
func pinnedID(g *group, v any) (arrow.Type, bool) {
	for _, o := range g.members {
		if o.pinned == v {
			return o.id, o.id != 0
		}
	}
	return 0, false
}
