package tags

import (
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// Tag is the decoded form of one field's tags.
type Tag struct {
	// Name is the column name; "" means "derive it from the Go field name"
	// unless Quoted.
	Name string
	// Quoted is set when the name was written as a Go string literal
	// (`arrow:"\"a,b\",pos=1"`), the one way to write a name with a comma,
	// edge spaces or a leading quote, or the empty name itself ("").
	Quoted bool
	// Pos is the column's index among its siblings from `pos=`: the field
	// reads the column at that position (its name, when the tag has one,
	// must be the column's) and encoding must write it there. nil when not
	// given.
	Pos *int
	// Skip is set by `arrow:"-"`: the field has no column.
	Skip bool
	// Nullable is set by `nullable`: this level may be null.
	Nullable bool
	// Encoding is the explicit encoding pin, EncodingDefault when none.
	Encoding Encoding
	// View is arreflect's `view`: the view variant of whatever the Go type
	// encodes to (utf8_view, binary_view, list_view).
	View bool
	// Large is arreflect's `large`: the large variant of whatever the Go type
	// encodes to (large_utf8, large_binary, large_list; with View,
	// large_list_view).
	Large bool
	// Dict is set by `dict`: the column is dictionary-encoded.
	Dict bool
	// REE is set by `ree`: the column is run-end encoded.
	REE bool
	// Temporal is the temporal type pin, TemporalDefault when none.
	Temporal Temporal
	// Unit is the time unit from `unit=`, UnitDefault when none.
	Unit Unit
	// TZ is the time zone from `tz=`, as written: anything [ParseZone]
	// reads, such as "UTC", "Asia/Tokyo" or "+05:30"; validated when parsed.
	TZ string
	// Decimal is the precision and scale from `decimal(p,s)` or
	// `precision=p,scale=s`, nil when not given.
	Decimal *Decimal
	// Inline is set by `inline`: an embedded struct's fields are flattened
	// into the parent.
	Inline bool
	// Elem, Key and Value hold the options of the `arrow-elem`, `arrow-key`
	// and `arrow-value` struct tags; each is nil when its struct tag is
	// absent, and never has Skip or Pos. Their Name is the one of `name=`.
	Elem, Key, Value *Tag

	// The schema pins: what the Go type does not say about the column, so
	// that a schema is written back exactly as it was read.

	// Naive is set by `naive`: a timestamp without a time zone, where
	// time.Time encodes to UTC by default. The clock stored is the
	// instant's in UTC, whatever the time.Time's zone.
	Naive bool
	// NotNull is set by `notnull`: a pointer, slice or map level whose
	// field is not nullable; encoding refuses a nil with ErrNull.
	NotNull bool
	// Index is the dictionary's index type from `index=` (int8…uint64),
	// nil for the default, int32.
	Index arrow.DataType
	// Ordered is set by `ordered`: the dictionary is ordered.
	Ordered bool
	// KeysSorted is set by `keys_sorted`, which needs `map`: the map type
	// says its keys are sorted in every row (the map type's KeysSorted).
	KeysSorted bool
	// RunEnds is the run-end type from `run_ends=` (int16, int32, int64),
	// nil for the default, int32.
	RunEnds arrow.DataType
	// Extension is the extension type name from `ext=`, such as
	// "arrow.uuid"; ExtensionMetadata is its serialized metadata from
	// `ext_metadata=`, as the extension's Serialize writes it.
	Extension, ExtensionMetadata string
	// Metadata is the field's metadata, from the `arrow-meta` struct tag
	// (see [ParseMetadata]); nil when there is none.
	Metadata *arrow.Metadata
	// Union is set by `union`, `sparse_union` or `dense_union`: the field,
	// a struct of pointer variants, is an Arrow union of them.
	Union UnionMode
	// Code is a union variant's type code from `code=`, nil when not
	// given (the variant's index among the variants).
	Code *int8
	// TypeCode is set by `type_code`: the field of a union struct that
	// holds each row's type code.
	TypeCode bool
}

// UnionMode is which Arrow union a field tagged as one is.
type UnionMode uint8

// The union options, each named after its tag spelling.
const (
	NoUnion     UnionMode = iota // not a union
	AnyUnion                     // `union`: decodes either mode, encodes sparse
	SparseUnion                  // `sparse_union`
	DenseUnion                   // `dense_union`
)

// String returns the tag spelling of m, "" for NoUnion.
func (m UnionMode) String() string {
	name, _ := memberName(unions, m)
	return name
}

// Decimal is the precision and scale of a decimal column.
type Decimal struct {
	Precision, Scale int32
}

// Location returns the time zone of t.TZ: time.UTC when TZ is "" (no `tz=`
// given), else what [ParseZone] makes of it. It fails only for a Tag whose
// TZ was not set by [Parse].
func (t Tag) Location() (*time.Location, error) {
	if t.TZ == "" {
		return time.UTC, nil
	}
	loc, err := ParseZone(t.TZ)
	if err != nil {
		return nil, &Error{Option: "tz=" + t.TZ, Err: err}
	}
	return loc, nil
}

// The struct tag keys [Of] reads.
const (
	keyArrow = "arrow"
	keyElem  = "arrow-elem"
	keyKey   = "arrow-key"
	keyValue = "arrow-value"
)

// Of reads a struct field's tags: `arrow` with [Parse], `arrow-elem`,
// `arrow-key` and `arrow-value` with [ParseOptions] into Elem, Key and
// Value, and `arrow-meta` with [ParseMetadata] into Metadata (and
// `arrow-elem-meta`, `arrow-key-meta` and `arrow-value-meta` into the
// Metadata of Elem, Key and Value).
// A field without an `arrow` tag gives a zero Tag (plus Elem, Key and Value
// when present). An error is an [*Error] whose Key names the struct tag.
func Of(f reflect.StructField) (Tag, error) {
	var t Tag
	if s, ok := f.Tag.Lookup(keyArrow); ok {
		var err error
		if t, err = Parse(s); err != nil {
			return Tag{}, withKey(err, keyArrow)
		}
	}
	for _, sub := range []struct {
		key string
		dst **Tag
	}{{keyElem, &t.Elem}, {keyKey, &t.Key}, {keyValue, &t.Value}} {
		s, ok := f.Tag.Lookup(sub.key)
		if !ok {
			continue
		}
		if *sub.dst != nil {
			// elem(…) in the arrow tag said the element's options already.
			return Tag{}, &Error{Key: keyArrow, Option: "elem(…)", Err: fmt.Errorf("conflicts with the %s struct tag", sub.key)}
		}
		opts, err := parseOptions(s, LevelChild)
		if err != nil {
			return Tag{}, withKey(err, sub.key)
		}
		*sub.dst = &opts
	}
	for _, sub := range []struct {
		key string
		dst **Tag
	}{{keyMeta, nil}, {keyElem + "-meta", &t.Elem}, {keyKey + "-meta", &t.Key}, {keyValue + "-meta", &t.Value}} {
		s, ok := f.Tag.Lookup(sub.key)
		if !ok {
			continue
		}
		md, err := ParseMetadata(s)
		if err != nil {
			return Tag{}, withKey(err, sub.key)
		}
		switch {
		case sub.dst == nil:
			t.Metadata = &md
		case *sub.dst == nil:
			*sub.dst = &Tag{Metadata: &md}
		default:
			(*sub.dst).Metadata = &md
		}
	}
	return t, nil
}

// withKey records which struct tag an error of Parse or ParseOptions came
// from.
func withKey(err error, key string) error {
	var e *Error
	if errors.As(err, &e) {
		e.Key = key
		return e
	}
	return &Error{Key: key, Err: err}
}
