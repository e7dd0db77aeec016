package mapper

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/tags"
)

// goField is one field of a struct as the mapper sees it, after embedded
// structs have been flattened: its name, its tag and how to reach it.
type goField struct {
	name   string // the column name it looks for
	tagged bool   // the name comes from a tag
	tag    tags.Tag
	typ    reflect.Type
	index  []int  // as reflect.Type.FieldByIndex
	path   string // Go path from the struct: "Meta.Owner" for a promoted field shows where it lives
}

// structFields lists the fields of struct type t that map to columns, with
// encoding/json's rules for embedded structs: an embedded struct without a
// tag name is flattened (as is any struct field tagged `inline`); among
// fields of the same name the shallowest wins, then the only tagged one at
// that depth; any other tie hides them all. Unexported fields are ignored,
// except embedded structs, whose exported fields are promoted.
//
// The list is computed once per type and shared: callers must not modify it.
// Every error is returned as a fresh copy, which callers may extend.
func structFields(t reflect.Type) ([]goField, *Error) {
	if c, ok := fieldCache.Load(t); ok {
		return c.(cachedFields).get()
	}
	fields, err := listStructFields(t)
	c, _ := fieldCache.LoadOrStore(t, cachedFields{fields, err})
	return c.(cachedFields).get()
}

// fieldCache holds, per struct type, its fields with their parsed tags, as
// encoding/json's cachedTypeFields: a type's tags are parsed once, however
// many plans are built for it. Types are few; the cache is not bounded.
var fieldCache sync.Map // reflect.Type → cachedFields

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
	depthOf := map[string]int{}
	current := []queued{{typ: t}}
	visited := map[reflect.Type]bool{}
	for len(current) > 0 {
		var next []queued
		count := map[string]int{}
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
				if !sf.IsExported() && !(sf.Anonymous && ft.Kind() == reflect.Struct) {
					continue
				}
				tag, err := tags.Of(sf)
				path := joinPath(q.path, sf.Name)
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
				if !sf.IsExported() {
					continue
				}
				name := tag.Name
				if name == "" {
					name = sf.Name
				}
				count[name]++
				level = append(level, goField{name: name, tagged: tag.Name != "", tag: tag, typ: sf.Type, index: index, path: path})
			}
		}
		// Resolve the fields of this depth against each other and against
		// the shallower ones, which always win.
		byName := map[string][]goField{}
		for _, f := range level {
			byName[f.name] = append(byName[f.name], f)
		}
		for name, fs := range byName {
			if _, shallower := depthOf[name]; shallower {
				continue
			}
			depthOf[name] = len(current)
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

// isLeafStruct reports whether a struct type maps to one column rather than
// to a struct of fields: time.Time, the decimal number types and the
// interval types.
func isLeafStruct(t reflect.Type) bool {
	switch kindOf(t) {
	case kindTime, kindDecimal, kindInterval:
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
func matchFields(fields []goField, columns []arrow.Field, at where, o *options) ([]int, error) {
	names := make([]string, len(columns))
	for i, f := range columns {
		names[i] = f.Name
	}
	matched := make([]int, len(fields))
	used := make([]bool, len(columns))
	for k, gf := range fields {
		i, ok := matchColumn(gf, names, o.snakeCase)
		if !ok {
			if !o.allowMissing {
				fat := at.field(gf.path, gf.name)
				return nil, newError(ErrMissingColumn, fat.path, fat.column, -1, "no column %q", gf.name)
			}
			i = -1
		} else {
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

// matchColumn finds the column for a field among names: the tag name
// exactly; else the field name exactly, then its snake_case spelling with
// SnakeCase, then case-insensitively when only one column matches.
func matchColumn(f goField, names []string, snake bool) (int, bool) {
	exact := func(want string) (int, bool) {
		i := slices.Index(names, want)
		return i, i >= 0
	}
	if i, ok := exact(f.name); ok || f.tagged {
		return i, ok
	}
	if snake {
		if i, ok := exact(snakeCase(f.name)); ok {
			return i, ok
		}
	}
	match := -1
	for i, n := range names {
		if strings.EqualFold(n, f.name) || (snake && strings.EqualFold(n, snakeCase(f.name))) {
			if match >= 0 {
				return -1, false
			}
			match = i
		}
	}
	return match, match >= 0
}
