package mapper

import (
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"
)

// SchemaOfType is SchemaOf for a struct type known only at run time, such
// as GoTypeOf's.
func SchemaOfType(t reflect.Type, opts ...WriteOption) (*arrow.Schema, error) {
	o, err := optionsFor("SchemaOfType", ^optionSet(0), opts)
	if err != nil {
		return nil, err
	}
	p, err := cachedEncodePlan(t, o)
	if err != nil {
		return nil, err
	}
	return p.schema, nil
}

// EncodeTo is Encode for rows, a slice of a struct type known only at run
// time: what DecodeTo decoded, encoded again.
func EncodeTo(rows reflect.Value, opts ...WriteOption) (arrow.RecordBatch, error) {
	o, err := optionsFor("EncodeTo", ^optionSet(0), opts)
	if err != nil {
		return nil, err
	}
	p, err := cachedEncodePlan(rows.Type().Elem(), o)
	if err != nil {
		return nil, err
	}
	w := p.writerFor(o.mem)
	defer p.done(w)
	if err := w.append(rows.UnsafePointer(), rows.Len()); err != nil {
		return nil, err
	}
	return w.newRecordBatch(), nil
}
