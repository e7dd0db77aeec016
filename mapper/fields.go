package mapper

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/tags"
)

// goField is one field of a struct as the mapper sees it, after embedded
// structs have been flattened: its name, its tag and how to reach it.
type goField struct {
	name   string // the column name it looks for
	tagged bool   // the name comes from a tag (the empty name when quoted: `arrow:"\"\""`)
	pos    int    // the column's position among its siblings from `pos=`, -1 for none
	tag    tags.Tag
	typ    reflect.Type
	index  []int  // as reflect.Type.FieldByIndex
	path   string // Go path from the struct: "Meta.Owner" for a promoted field shows where it lives
}

// structFields lists the fields of struct type t that map to columns, with
// encoding/json's rules for embedded structs: an embedded struct without a
// tag name is flattened (as is any struct field tagged `inline`); among
// fields of the same name the shallowest wins, then the only tagged one at
// that depth; any other tie hides them all. Fields of one name at
// different positions (`pos=`) are different fields. Untagged unexported
// fields are ignored, except embedded structs, whose exported fields are
// promoted. An unexported field with a tag of the mapper's (other than
// `arrow:"-"`) is an ErrTag: the tag says a column was meant, and
// skipping it as encoding/json does would read rows of zeros and write
// none.
//
// The list is computed once per type and shared: callers must not modify it.
// Every error is returned as a fresh copy, which callers may extend.
func structFields(t reflect.Type) ([]goField, *Error) {
	if c, ok := fieldCache.Load(t); ok {
		return c.(cachedFields).get()
	}
	fields, err := listStructFields(t)
	c, loaded := fieldCache.LoadOrStore(t, cachedFields{fields, err})
	if !loaded && fieldTypes.Add(1) > maxFieldTypes {
		// Only types made at run time (GoTypeOf's, one per new schema) come
		// in such numbers: start again rather than hold them all.
		fieldTypes.Store(0)
		fieldCache.Clear()
	}
	return c.(cachedFields).get()
}

// fieldCache holds, per struct type, its fields with their parsed tags, as
// encoding/json's cachedTypeFields: a type's tags are parsed once, however
// many plans are built for it. A program's own types are few; past
// maxFieldTypes types the cache is emptied, so that a stream of types made
// with reflect.StructOf does not grow it without bound.
var fieldCache sync.Map // reflect.Type → cachedFields

// fieldTypes counts the types added to fieldCache since it was last
// emptied.
var fieldTypes atomic.Int64

const maxFieldTypes = 4096

type cachedFields struct {
	fields []goField
	err    *Error
}

func (c cachedFields) get() ([]goField, *Error) {
	if c.err != nil {
		err := *c.err
		return nil, &err
	}
	return c.fields, nil
}

func listStructFields(t reflect.Type) ([]goField, *Error) {
	type queued struct {
		typ   reflect.Type
		index []int
		path  string
	}
	var found []goField
	depthOf := map[fieldKey]int{}
	current := []queued{{typ: t}}
	visited := map[reflect.Type]bool{}
	for len(current) > 0 {
		var next []queued
		var level []goField
		for _, q := range current {
			if visited[q.typ] {
				continue
			}
			visited[q.typ] = true
			for i := range q.typ.NumField() {
				sf := q.typ.Field(i)
				ft := sf.Type
				if sf.Anonymous && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				path := joinPath(q.path, sf.Name)
				if !sf.IsExported() && !(sf.Anonymous && ft.Kind() == reflect.Struct) {
					if hasArrowTag(sf) {
						return nil, unexportedError(sf, path)
					}
					continue
				}
				tag, err := tags.Of(sf)
				if err != nil {
					return nil, &Error{Path: path, Row: -1, Err: err}
				}
				if tag.Skip {
					continue
				}
				index := append(slices.Clone(q.index), i)
				if ft.Kind() == reflect.Struct && ((sf.Anonymous && tag.Name == "") || tag.Inline) && !isLeafStruct(ft) {
					next = append(next, queued{typ: ft, index: index, path: path})
					continue
				}
				if tag.Inline {
					return nil, newError(ErrTag, path, "", -1, "inline does not apply to %s: it flattens the fields of a struct into its parent", sf.Type)
				}
				if !sf.IsExported() {
					// An embedded unexported struct that is not flattened: one
					// column, of a field that cannot be set.
					if hasArrowTag(sf) {
						return nil, unexportedError(sf, path)
					}
					continue
				}
				name, tagged := tag.Name, tag.Name != "" || tag.Quoted
				if !tagged {
					name = sf.Name
				}
				pos := -1
				if tag.Pos != nil {
					pos = *tag.Pos
				}
				level = append(level, goField{name: name, tagged: tagged, pos: pos, tag: tag, typ: sf.Type, index: index, path: path})
			}
		}
		// Resolve the fields of this depth against each other and against
		// the shallower ones, which always win.
		byName := map[fieldKey][]goField{}
		for _, f := range level {
			byName[fieldKey{f.name, f.pos}] = append(byName[fieldKey{f.name, f.pos}], f)
		}
		for key, fs := range byName {
			if _, shallower := depthOf[key]; shallower {
				continue
			}
			depthOf[key] = len(current)
			if len(fs) == 1 {
				found = append(found, fs[0])
				continue
			}
			var tagged []goField
			for _, f := range fs {
				if f.tagged {
					tagged = append(tagged, f)
				}
			}
			if len(tagged) == 1 {
				found = append(found, tagged[0])
			}
		}
		current = next
	}
	slices.SortFunc(found, func(a, b goField) int { return slices.Compare(a.index, b.index) })
	return found, nil
}

// unexportedError is the ErrTag of an unexported field whose tag says it
// was meant to be a column.
func unexportedError(sf reflect.StructField, path string) *Error {
	return newError(ErrTag, path, "", -1, "%s is unexported, so it cannot be read or written: export it, or tag it arrow:\"-\"", sf.Name)
}

// hasArrowTag reports whether sf carries a struct tag the mapper reads,
// other than arrow:"-".
func hasArrowTag(sf reflect.StructField) bool {
	if v, ok := sf.Tag.Lookup("arrow"); ok {
		return v != "-"
	}
	for _, key := range [...]string{"arrow-elem", "arrow-key", "arrow-value", "arrow-meta", "arrow-elem-meta", "arrow-key-meta", "arrow-value-meta"} {
		if _, ok := sf.Tag.Lookup(key); ok {
			return true
		}
	}
	return false
}

// fieldKey is what tells fields apart when embedded structs promote them:
// their column name and position.
type fieldKey struct {
	name string
	pos  int
}

// isLeafStruct reports whether a struct type maps to one column rather than
// to a struct of fields: time.Time, the decimal number types, float16.Num
// and the interval types.
func isLeafStruct(t reflect.Type) bool {
	switch kindOf(t) {
	case kindTime, kindDecimal, kindValue:
		return t.Kind() == reflect.Struct
	}
	return false
}

func joinPath(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// snakeCase is the snake_case spelling of a Go identifier: UserID → user_id,
// HTTPServer → http_server, Field2 → field2.
func snakeCase(name string) string {
	runes := []rune(name)
	var b strings.Builder
	for i, r := range runes {
		if unicode.IsUpper(r) {
			prevLower := i > 0 && (unicode.IsLower(runes[i-1]) || unicode.IsDigit(runes[i-1]))
			nextLower := i+1 < len(runes) && unicode.IsLower(runes[i+1])
			if i > 0 && (prevLower || (nextLower && unicode.IsUpper(runes[i-1]))) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// fieldsAt is structFields for the struct type t at Go path at.path: an
// error names the field by its whole path, whichever entry point asks.
func fieldsAt(t reflect.Type, at where) ([]goField, error) {
	fields, err := structFields(t)
	if err != nil {
		err.Path = joinPath(at.path, err.Path)
		return nil, err
	}
	return fields, nil
}

// matchFields is the one rule by which decoding and Columns find the
// columns of a struct's fields: the fields of a struct at path at against
// columns, a schema's fields or a struct column's children. It returns,
// per field, the index of its column, or -1 for a field without one when
// AllowMissing is set; without it, a field without a column is
// ErrMissingColumn. With RejectExtraColumns, a column no field reads is
// ErrExtraColumn, which lists every such column.
//
// A field with `pos=` reads the column at that position, whose name must
// be the tag's when it has one. A field without reads the column of its
// name (matchColumn); when the name is on several columns, the one that no
// `pos=` field reads, and when that leaves more than one, it is an error
// naming them: the field would read one and leave the others unread.
func matchFields(fields []goField, columns []arrow.Field, at where, o *options) ([]int, error) {
	names := make([]string, len(columns))
	for i, f := range columns {
		names[i] = f.Name
	}
	matched := make([]int, len(fields))
	used := make([]bool, len(columns))
	byPos := make([]bool, len(columns))
	for _, gf := range fields {
		if gf.pos >= 0 && gf.pos < len(columns) {
			byPos[gf.pos] = true
		}
	}
	for k, gf := range fields {
		fat := at.field(gf.path, gf.name)
		i, err := matchColumn(gf, names, byPos, o.snakeCase)
		switch {
		case err != nil: // even with AllowMissing: the column is there, but which is not clear
			return nil, newError(err.kind, fat.path, fat.column, -1, "%s", err.msg)
		case i < 0 && gf.pos >= 0 && !o.allowMissing:
			return nil, newError(ErrMissingColumn, fat.path, fat.column, -1, "no column at position %d: there are %d", gf.pos, len(columns))
		case i < 0 && !o.allowMissing:
			return nil, newError(ErrMissingColumn, fat.path, fat.column, -1, "no column %q", gf.name)
		case i >= 0:
			used[i] = true
		}
		matched[k] = i
	}
	if o.rejectExtra && slices.Contains(used, false) {
		var extra []string
		for i, u := range used {
			if !u {
				extra = append(extra, strconv.Quote(names[i]))
			}
		}
		return nil, newError(ErrExtraColumn, at.path, at.column, -1, "no field reads %s", strings.Join(extra, ", "))
	}
	return matched, nil
}

// matchError is why a field's column cannot be told: a name on several
// columns, or a position whose column has another name (ErrTypeMismatch);
// a name that several columns match only case-insensitively, so that none
// is the field's (ErrMissingColumn).
type matchError struct {
	kind error
	msg  string
}

// matchColumn finds the column for a field among names, -1 for none: the
// column at the field's position, its name checked against the tag's;
// else the tag name exactly; else the field name exactly, then its
// snake_case spelling with SnakeCase, then case-insensitively. A name on
// several columns is the one not in byPos (the columns `pos=` fields read),
// or an error when that is not exactly one.
func matchColumn(f goField, names []string, byPos []bool, snake bool) (int, *matchError) {
	if f.pos >= 0 {
		switch {
		case f.pos >= len(names):
			return -1, nil
		case f.tagged && names[f.pos] != f.name:
			return -1, &matchError{ErrTypeMismatch, fmt.Sprintf("the column at position %d is named %q, the tag names %q", f.pos, names[f.pos], f.name)}
		}
		return f.pos, nil
	}
	// one picks the column among those that match, or none.
	one := func(matches []int, kind error) (int, *matchError) {
		if len(matches) > 1 {
			var free []int
			for _, i := range matches {
				if !byPos[i] {
					free = append(free, i)
				}
			}
			if len(free) != 1 {
				return -1, &matchError{kind, fmt.Sprintf("%q matches the columns at positions %s: tag the field with pos= to pick one", f.name, positions(matches))}
			}
			return free[0], nil
		}
		if len(matches) == 1 {
			return matches[0], nil
		}
		return -1, nil
	}
	exact := func(want string) []int {
		var matches []int
		for i, n := range names {
			if n == want {
				matches = append(matches, i)
			}
		}
		return matches
	}
	if m := exact(f.name); len(m) > 0 || f.tagged {
		return one(m, ErrTypeMismatch)
	}
	if snake {
		if m := exact(snakeCase(f.name)); len(m) > 0 {
			return one(m, ErrTypeMismatch)
		}
	}
	var folded []int
	for i, n := range names {
		if strings.EqualFold(n, f.name) || (snake && strings.EqualFold(n, snakeCase(f.name))) {
			folded = append(folded, i)
		}
	}
	return one(folded, ErrMissingColumn)
}

// positions lists column positions for an error: "0 and 1", "0, 2 and 5".
func positions(matches []int) string {
	parts := make([]string, len(matches))
	for k, i := range matches {
		parts[k] = strconv.Itoa(i)
	}
	if len(parts) <= 2 {
		return strings.Join(parts, " and ")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
