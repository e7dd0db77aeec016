package mapper

import (
	"reflect"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// DecodeTo decodes every row of rec into a new []typ, for a struct type
// known only at run time — one built with reflect.StructOf from a schema
// read from a file, say — where Decode[T] needs T at compile time. It
// returns a reflect.Value of type []typ (a nil slice when rec has no rows);
// on error it returns the zero reflect.Value and an *Error, exactly as
// Decode[T] would for the same type.
//
// Tags, options and semantics are those of Decode: build the fields of typ
// with reflect.StructField.Tag set to `arrow:"column,nullable"` and the
// like. The plan is compiled once per (typ, schema fingerprint, options)
// and cached, as Decode caches its Mappers; plans built with As are not
// cached.
//
//	fields := make([]reflect.StructField, len(schema.Fields()))
//	for i, f := range schema.Fields() {
//		fields[i] = reflect.StructField{
//			Name: fmt.Sprintf("F%d", i),
//			Type: goTypeFor(f.Type), // the caller's choice, e.g. *int64 for int64
//			Tag:  reflect.StructTag(fmt.Sprintf(`arrow:%q`, f.Name)),
//		}
//	}
//	rows, err := mapper.DecodeTo(reflect.StructOf(fields), rec)
//	for i := range rows.Len() {
//		fmt.Println(rows.Index(i).Field(0).Interface())
//	}
func DecodeTo(typ reflect.Type, rec arrow.RecordBatch, opts ...Option) (reflect.Value, error) {
	if typ == nil {
		return reflect.Value{}, newError(ErrUnsupported, "", "", -1, "nil type")
	}
	if rec == nil {
		return reflect.Value{}, newError(ErrInvalidData, "", "", -1, "nil record")
	}
	schema := rec.Schema()
	p, err := cachedPlan(typ, schema, newOptions(opts))
	if err != nil {
		return reflect.Value{}, err
	}
	// The plan may have been compiled for another schema object with the
	// same fingerprint; viewing against rec's own schema skips the check
	// View needs for that, which the fingerprint already made.
	b, err := p.view(schema, rec)
	if err != nil {
		return reflect.Value{}, err
	}
	if b.w.Len == 0 {
		return reflect.Zero(reflect.SliceOf(typ)), nil
	}
	rows := reflect.MakeSlice(reflect.SliceOf(typ), b.w.Len, b.w.Len)
	b.decode(rows.UnsafePointer(), nil)
	return rows, nil
}

// plans caches the plans of DecodeTo: cacheKey → *plan.
var plans sync.Map

func cachedPlan(typ reflect.Type, schema *arrow.Schema, o *options) (*plan, error) {
	okey, cacheable := o.key()
	fp := ""
	if cacheable {
		fp = schema.Fingerprint()
	}
	if fp == "" {
		return compilePlan(typ, schema, o)
	}
	key := cacheKey{typ, fp, okey}
	if p, ok := plans.Load(key); ok {
		return p.(*plan), nil
	}
	p, err := compilePlan(typ, schema, o)
	if err != nil {
		return nil, err
	}
	plans.Store(key, p)
	return p, nil
}
