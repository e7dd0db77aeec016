package mapper

import (
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"
)

// SchemaOfType is SchemaOf for a struct type known only at run time, such
// as GoTypeOf's.
func SchemaOfType(t reflect.Type, opts ...Option) (*arrow.Schema, error) {
	p, err := cachedEncodePlan(t, testOptions(opts))
	if err != nil {
		return nil, err
	}
	return p.schema, nil
}

// EncodeTo is Encode for rows, a slice of a struct type known only at run
// time: what DecodeTo decoded, encoded again.
func EncodeTo(rows reflect.Value, opts ...Option) (arrow.RecordBatch, error) {
	o := testOptions(opts)
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
