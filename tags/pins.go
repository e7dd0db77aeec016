package tags

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
)

// The values of `index=` and `run_ends=` are the names of Arrow integer
// types, as internal/arrowtype's table spells them.

// indexType and runEnds are the values of `index=` and `run_ends=`, types
// of their own so the decode hook can check them.
type (
	indexType struct{ arrow.DataType }
	runEnds   struct{ arrow.DataType }
)

var (
	// indexTypes are the integers a dictionary's indices may be, signed
	// first, each by width; runEndTypes the signed ones of 16 bits or more.
	indexTypes  = integerRows(func(r *arrowtype.Row) bool { return true })
	runEndTypes = integerRows(func(r *arrowtype.Row) bool { return r.Signed && r.Bytes >= 2 })

	indexTypeType = reflect.TypeFor[indexType]()
	runEndsType   = reflect.TypeFor[runEnds]()
)

// integerRows is the integer rows of arrowtype's table that accept takes,
// signed first, each by width.
func integerRows(takes func(*arrowtype.Row) bool) []*arrowtype.Row {
	var out []*arrowtype.Row
	for _, r := range arrowtype.Rows() {
		if r.Integer && takes(r) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b *arrowtype.Row) int {
		if a.Signed != b.Signed {
			if a.Signed {
				return -1
			}
			return 1
		}
		return a.Bytes - b.Bytes
	})
	return out
}

// integerNamed is the type of the row named s among rows.
func integerNamed(rows []*arrowtype.Row, s string) (arrow.DataType, bool) {
	for _, r := range rows {
		if r.Name == s {
			return r.Make(), true
		}
	}
	return nil, false
}

func rowNames(rows []*arrowtype.Row) string {
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r.Name
	}
	return orList(names)
}

// pinHook decodes `index=` and `run_ends=`.
func pinHook(from, to reflect.Type, data any) (any, error) {
	if from.Kind() != reflect.String {
		return data, nil
	}
	s := reflect.ValueOf(data).String()
	switch to {
	case indexTypeType:
		if dt, ok := integerNamed(indexTypes, s); ok {
			return indexType{dt}, nil
		}
		return nil, fmt.Errorf("unknown index type %q (want %s)", s, rowNames(indexTypes))
	case runEndsType:
		if dt, ok := integerNamed(runEndTypes, s); ok {
			return runEnds{dt}, nil
		}
		return nil, fmt.Errorf("unknown run-end type %q (want %s)", s, rowNames(runEndTypes))
	}
	return data, nil
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
