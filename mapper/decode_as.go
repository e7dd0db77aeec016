package mapper

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/tags"
	"github.com/arrowmap/arrowmap/views"
)

// The decoding side of an As conversion: a column read as R, each value
// converted to T when the record is viewed; encode_as.go writes T as R.

// asPreparer decodes a column as R, then converts every value to T with an
// As conversion.
type asPreparer struct {
	cd, from *codec
	conv     *conversion
}

func (p asPreparer) prepare(v views.View, c *call) (unsafe.Pointer, error) {
	if err := p.from.prepareView(v, c); err != nil {
		return nil, err
	}
	scratch := p.from.decodeBacking(v, c)
	results := p.cd.newBacking(v.Len())
	nulls := v.Nulls()
	for i := range v.Len() {
		if !nulls.IsValid(i) {
			continue
		}
		if err := p.conv.decode(results.at(i), scratch.at(i)); err != nil {
			e := p.cd.rowError(ErrInvalidData, c, i, "converting %s to %s", p.from.typ, p.cd.typ)
			e.Err = fmt.Errorf("%w: %w", e.Err, err)
			return nil, e
		}
	}
	return newPreparedValues(v, results), nil
}

func (c *compiler) compileAs(t reflect.Type, conv *conversion, tag tags.Tag, dt arrow.DataType, at where) (*codec, *views.Type, error) {
	from, vt, err := c.compile(conv.from, tag, dt, at)
	if err != nil {
		return nil, nil, err
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map:
		vt.Nullable = true
	}
	cd := newCodec(t)
	cd.dec = preparedDecoder{cd: cd}
	cd.prep = asPreparer{cd: cd, from: from, conv: conv}
	cd.needsPrep = true
	return c.finish(cd, at), vt, nil
}
