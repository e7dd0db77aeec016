package mapper

import (
	"reflect"
	"slices"
)

// FieldTag is a struct field of a row type that carries a struct tag of
// the key FieldTags was given, with the column SchemaOf makes of it.
type FieldTag struct {
	// Columns is the names of the Arrow fields from the top-level column
	// down to the field's column, as SchemaOf names them: the struct
	// fields on the way, a list's elements adding no name.
	Columns []string
	// Path is the field's Go path from the row type ("Customer.Name").
	Path string
	// Tag is the value of the field's tag of the key.
	Tag string
}

// FieldTags lists the fields of struct type T (and of the structs under
// its fields, through pointers, slices and arrays, but not maps) that
// carry a struct tag of key, in field order, with the column names
// SchemaOf gives them under opts (SnakeCase included): the way an IO
// package reads tags of its own, such as parquet's `arrow-parquet:"bloom"`,
// with the mapper's one rule of which field is which column. A field As
// converts is listed, but not the fields of its type.
func FieldTags[T any](key string, opts ...WriteOption) ([]FieldTag, error) {
	o, err := optionsFor("FieldTags", schemaOptions, opts)
	if err != nil {
		return nil, err
	}
	t := reflect.TypeFor[T]()
	if t.Kind() != reflect.Struct {
		return nil, newError(ErrUnsupported, "", "", -1, "%s is not a struct", t)
	}
	var out []FieldTag
	var stack []reflect.Type // the structs being walked, for a recursive type
	var walk func(t reflect.Type, columns []string, path string) error
	walk = func(t reflect.Type, columns []string, path string) error {
		if slices.Contains(stack, t) {
			return nil // recursive: SchemaOf refuses the type
		}
		stack = append(stack, t)
		defer func() { stack = stack[:len(stack)-1] }()
		fields, ferr := structFields(t)
		if ferr != nil {
			ferr.Path = joinPath(path, ferr.Path)
			return ferr
		}
		for _, gf := range fields {
			name := gf.name
			if o.snakeCase && !gf.tagged {
				name = snakeCase(name)
			}
			// The field's column names and Go path are made only for a
			// tagged field and a struct walked: a Writer asks for the tags
			// of its type at every NewWriter.
			cols := func() []string { return append(columns[:len(columns):len(columns)], name) }
			if tag, ok := t.FieldByIndex(gf.index).Tag.Lookup(key); ok {
				out = append(out, FieldTag{Columns: cols(), Path: joinPath(path, gf.path), Tag: tag})
			}
			ft := gf.typ
			for {
				if _, conv := o.conversions[ft]; conv {
					ft = nil
					break
				}
				switch ft.Kind() {
				case reflect.Pointer, reflect.Slice, reflect.Array:
					ft = ft.Elem()
					continue
				}
				break
			}
			if ft != nil && ft.Kind() == reflect.Struct && !isLeafStruct(ft) {
				if err := walk(ft, cols(), joinPath(path, gf.path)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(t, nil, ""); err != nil {
		return nil, err
	}
	return out, nil
}
