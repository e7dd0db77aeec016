package mapper

import (
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"
)

// DecodeTo decodes every row of rec into a new []typ, for a struct type
// known only at run time — the one GoTypeOf builds from the schema of a
// file, say — where Decode[T] needs T at compile time. It
// returns a reflect.Value of type []typ (a nil slice when rec has no rows);
// on error an *Error, exactly as Decode[T] would for the same type, and
// the rows Decode[T] would give with it: those before the row an error is
// about, none (the zero reflect.Value) for an error about the record.
//
// Tags, options and semantics are those of Decode: give the fields of typ
// a reflect.StructField.Tag such as `arrow:"column,nullable"`. GoTypeOf
// builds such a type from a schema, with the Go types a user would write.
// The plan is compiled once per (typ, the columns it reads, plan options)
// and cached, as Decode's are; plans built with As are not cached.
//
//	typ, err := mapper.GoTypeOf(rec.Schema())
//	if err != nil {
//		return err
//	}
//	rows, err := mapper.DecodeTo(typ, rec)
//	if err != nil {
//		return err
//	}
//	for i := range rows.Len() {
//		fmt.Println(rows.Index(i).Field(0).Interface()) // the first column
//	}
func DecodeTo(typ reflect.Type, rec arrow.RecordBatch, opts ...ReadOption) (reflect.Value, error) {
	if typ == nil {
		return reflect.Value{}, newError(ErrUnsupported, "", "", -1, "nil type")
	}
	if rec == nil {
		return reflect.Value{}, newError(ErrInvalidData, "", "", -1, "nil record")
	}
	o, err := optionsFor("DecodeTo", decodeOptions, opts)
	if err != nil {
		return reflect.Value{}, err
	}
	p, err := cachedDecodePlan(typ, rec.Schema(), o)
	if err != nil {
		return reflect.Value{}, err
	}
	b, err := mapping{plan: p, schema: rec.Schema(), run: o.run()}.view(rec)
	switch {
	case err != nil && b.w.Len == 0:
		return reflect.Value{}, err
	case b.w.Len == 0:
		return reflect.Zero(reflect.SliceOf(typ)), nil
	}
	rows := reflect.MakeSlice(reflect.SliceOf(typ), b.w.Len, b.w.Len)
	b.decode(rows.UnsafePointer(), nil)
	return rows, err
}
