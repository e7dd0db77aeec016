package main

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/arrowmap/arrowmap/tags"
)

// A union decodes into a struct of pointer variants, one of them set; head
// prints it as that variant's value (null for a null row), as arrow-go's
// JSON does, not as an object of mostly nulls.

// isUnionStruct reports whether t is a union struct of GoTypeOf: a struct
// with a field tagged type_code.
func isUnionStruct(t reflect.Type) bool {
	if t.Kind() != reflect.Struct {
		return false
	}
	for i := range t.NumField() {
		if tag, err := tags.Of(t.Field(i)); err == nil && tag.TypeCode {
			return true
		}
	}
	return false
}

// holdsUnion reports whether a value of t reaches a union struct.
func holdsUnion(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return holdsUnion(t.Elem())
	case reflect.Map:
		return holdsUnion(t.Elem())
	case reflect.Struct:
		if isUnionStruct(t) {
			return true
		}
		for i := range t.NumField() {
			if holdsUnion(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// jsonOf is v ready for json.Marshal with each union as its selected
// variant; v itself when it holds no union.
func jsonOf(v reflect.Value) any {
	t := v.Type()
	if !holdsUnion(t) {
		return v.Interface()
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return jsonOf(v.Elem())
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && v.IsNil() {
			return nil
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = jsonOf(v.Index(i))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return nil
		}
		out := reflect.MakeMapWithSize(reflect.MapOf(t.Key(), reflect.TypeFor[any]()), v.Len())
		for it := v.MapRange(); it.Next(); {
			out.SetMapIndex(it.Key(), reflect.ValueOf(jsonOf(it.Value())))
		}
		return out.Interface()
	}
	if isUnionStruct(t) {
		for i := range t.NumField() {
			if f := v.Field(i); f.Kind() == reflect.Pointer && !f.IsNil() {
				return jsonOf(f)
			}
		}
		return nil
	}
	var obj jsonObject
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		obj = append(obj, jsonMember{name, jsonOf(v.Field(i))})
	}
	return obj
}

// jsonObject is a JSON object that keeps its members' order.
type jsonObject []jsonMember

type jsonMember struct {
	name  string
	value any
}

func (o jsonObject) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, m := range o {
		if i > 0 {
			b = append(b, ',')
		}
		name, err := json.Marshal(m.name)
		if err != nil {
			return nil, err
		}
		value, err := json.Marshal(m.value)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, name...), ':'), value...)
	}
	return append(b, '}'), nil
}
