package tags

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// The options in this file pin what the Go type alone does not say about
// a column's schema, so that a schema can be written back exactly as it
// was read: `naive`, `notnull`, `index=`, `ordered`, `run_ends=`, `name=`,
// `ext=`, `ext_metadata=`, `keys_sorted` and the `arrow-meta` struct tag.

// pinOptions is what mapstructure decodes the schema pins into; rawOptions
// embeds it.
type pinOptions struct {
	Naive       bool      `mapstructure:"naive"`
	NotNull     bool      `mapstructure:"notnull"`
	Ordered     bool      `mapstructure:"ordered"`
	Index       indexType `mapstructure:"index"`
	RunEnds     runEnds   `mapstructure:"run_ends"`
	Name        string    `mapstructure:"name"`
	Ext         string    `mapstructure:"ext"`
	ExtMetadata string    `mapstructure:"ext_metadata"`
	KeysSorted  bool      `mapstructure:"keys_sorted"`
}

// indexType and runEnds are the values of `index=` and `run_ends=`, types
// of their own so the decode hooks can check them.
type (
	indexType struct{ arrow.DataType }
	runEnds   struct{ arrow.DataType }
)

var (
	indexTypes = map[string]arrow.DataType{
		"int8": arrow.PrimitiveTypes.Int8, "int16": arrow.PrimitiveTypes.Int16,
		"int32": arrow.PrimitiveTypes.Int32, "int64": arrow.PrimitiveTypes.Int64,
		"uint8": arrow.PrimitiveTypes.Uint8, "uint16": arrow.PrimitiveTypes.Uint16,
		"uint32": arrow.PrimitiveTypes.Uint32, "uint64": arrow.PrimitiveTypes.Uint64,
	}
	runEndTypes = map[string]arrow.DataType{
		"int16": arrow.PrimitiveTypes.Int16, "int32": arrow.PrimitiveTypes.Int32, "int64": arrow.PrimitiveTypes.Int64,
	}
	indexTypeType = reflect.TypeFor[indexType]()
	runEndsType   = reflect.TypeFor[runEnds]()
)

// pinHook decodes `index=` and `run_ends=`.
func pinHook(from, to reflect.Type, data any) (any, error) {
	if from.Kind() != reflect.String {
		return data, nil
	}
	s := reflect.ValueOf(data).String()
	switch to {
	case indexTypeType:
		if dt, ok := indexTypes[s]; ok {
			return indexType{dt}, nil
		}
		return nil, fmt.Errorf("unknown index type %q (want int8, int16, int32, int64, uint8, uint16, uint32 or uint64)", s)
	case runEndsType:
		if dt, ok := runEndTypes[s]; ok {
			return runEnds{dt}, nil
		}
		return nil, fmt.Errorf("unknown run-end type %q (want int16, int32 or int64)", s)
	}
	return data, nil
}

var (
	errNaive   = errors.New("naive needs timestamp")
	errNeeds   = func(opt string) error { return fmt.Errorf("needs %s", opt) }
	errNoNames = errors.New("the arrow tag names its column first; name= is for arrow-elem, arrow-key and arrow-value")
)

// resolvePins copies the schema pins into t, rejecting those that
// contradict each other or the rest of the tag.
func (s *optionSet) resolvePins(r pinOptions, t *Tag) error {
	t.Naive, t.NotNull, t.Ordered, t.KeysSorted = r.Naive, r.NotNull, r.Ordered, r.KeysSorted
	t.Index, t.RunEnds = r.Index.DataType, r.RunEnds.DataType
	t.Name = r.Name
	t.Extension, t.ExtensionMetadata = r.Ext, r.ExtMetadata
	_, hasExtMeta := s.written["ext_metadata"]
	switch {
	case r.Naive && t.TZ != "":
		return s.conflict("naive", "tz")
	case r.Naive && t.Temporal != Timestamp:
		return s.invalid("naive", errNaive)
	case r.NotNull && t.Nullable:
		return s.conflict("notnull", "nullable")
	case t.Index != nil && !t.Dict:
		return s.invalid("index", errNeeds("dict"))
	case r.Ordered && !t.Dict:
		return s.invalid("ordered", errNeeds("dict"))
	case r.KeysSorted && t.Encoding != Map:
		return s.invalid("keys_sorted", errNeeds("map"))
	case t.RunEnds != nil && !t.REE:
		return s.invalid("run_ends", errNeeds("ree"))
	case hasExtMeta && r.Ext == "":
		return s.invalid("ext_metadata", errNeeds("ext="))
	}
	return nil
}

// optionWithKey is the option of key in opts, as written.
func optionWithKey(opts, key string) (string, bool) {
	for _, o := range splitOptions(opts) {
		if k, _, ok := strings.Cut(o, "="); ok && strings.TrimSpace(k) == key {
			return o, true
		}
	}
	return "", false
}

// unquote reads an option value or a metadata key or value: Go-quoted when
// it starts with a double quote, else as written.
func unquote(s string) (string, error) {
	if !strings.HasPrefix(s, `"`) {
		if strings.Contains(s, `"`) {
			return "", fmt.Errorf("%s holds a quote: write the value as a Go string literal", s)
		}
		return s, nil
	}
	u, err := strconv.Unquote(s)
	if err != nil {
		return "", fmt.Errorf("%s is not a Go-quoted string", s)
	}
	return u, nil
}

// Quote is s as an option value, a name= or a metadata key or value: as
// it is when the grammar reads it back so, else Go-quoted. It is how
// GoTypeOf and arrowmap gen write what a tag must give back exactly.
func Quote(s string) string {
	if s == "" || strings.TrimSpace(s) != s || strings.ContainsAny(s, `,="()\`+"`") || !strconv.CanBackquote(s) || strings.ContainsAny(s, "\t\n") {
		return strconv.Quote(s)
	}
	return s
}

// keyMeta is the struct tag of a field's metadata.
const keyMeta = "arrow-meta"

// ParseMetadata decodes the value of an `arrow-meta` struct tag: key=value
// pairs separated by commas, each key and value as written, or Go-quoted
// when it holds a comma, an equals sign, a quote or edge spaces, or is
// empty: `arrow-meta:"pandas={},\"ARROW:extension:name\"=uuid"`. A key
// given twice is an error.
func ParseMetadata(s string) (arrow.Metadata, error) {
	var keys, values []string
	seen := map[string]bool{}
	rest := strings.TrimSpace(s)
	for rest != "" {
		key, after, err := metadataItem(rest)
		if err != nil {
			return arrow.Metadata{}, &Error{Key: keyMeta, Option: rest, Err: err}
		}
		after = strings.TrimSpace(after)
		if !strings.HasPrefix(after, "=") {
			return arrow.Metadata{}, &Error{Key: keyMeta, Option: rest, Err: errors.New("want key=value")}
		}
		value, after, err := metadataItem(strings.TrimSpace(after[1:]))
		if err != nil {
			return arrow.Metadata{}, &Error{Key: keyMeta, Option: rest, Err: err}
		}
		if seen[key] {
			return arrow.Metadata{}, &Error{Key: keyMeta, Option: strconv.Quote(key), Err: errors.New("the key is given twice")}
		}
		seen[key] = true
		keys, values = append(keys, key), append(values, value)
		after = strings.TrimSpace(after)
		if after != "" && !strings.HasPrefix(after, ",") {
			return arrow.Metadata{}, &Error{Key: keyMeta, Option: after, Err: errors.New("want a comma between pairs")}
		}
		rest = strings.TrimSpace(strings.TrimPrefix(after, ","))
	}
	return arrow.NewMetadata(keys, values), nil
}

// metadataItem reads a key or a value at the start of s: Go-quoted, or
// bare up to the next comma or equals sign.
func metadataItem(s string) (item, rest string, err error) {
	if strings.HasPrefix(s, `"`) {
		q, err := strconv.QuotedPrefix(s)
		if err != nil {
			return "", "", fmt.Errorf("%s is not a Go-quoted string", s)
		}
		item, _ = strconv.Unquote(q)
		return item, s[len(q):], nil
	}
	end := strings.IndexAny(s, ",=")
	if end < 0 {
		end = len(s)
	}
	item = strings.TrimSpace(s[:end])
	if strings.Contains(item, `"`) {
		return "", "", fmt.Errorf("%q has a quote: quote it whole", item)
	}
	return item, s[end:], nil
}

// FormatMetadata is md as ParseMetadata reads it back, in md's order.
func FormatMetadata(md arrow.Metadata) string {
	pairs := make([]string, md.Len())
	for i, k := range md.Keys() {
		pairs[i] = Quote(k) + "=" + Quote(md.Values()[i])
	}
	return strings.Join(pairs, ",")
}
