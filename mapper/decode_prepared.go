package mapper

import (
	"encoding"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/tags"
	"github.com/arrowmap/arrowmap/views"
)

// preparedDecoder copies the values a preparer converted when the record
// was viewed: conversions that can fail run once, up front.
type preparedDecoder struct{ cd *codec }

func (d preparedDecoder) decode(v views.View, dst strided, c *call) {
	p := (*preparedValues)(d.cd.prepared(c))
	w := v.Window()
	nulls := v.Nulls()
	for i := range w.Len {
		if nulls.IsValid(i) {
			d.cd.move(dst.at(i), p.values.at(w.Offset-p.offset+i))
		}
	}
}

// preparedValues is what a preparer converted: the values of the rows of
// the node it was given, from row offset on. A struct field's or a list
// element's view does not start at row 0 of its node when the parent array
// is sliced, and decoding reads by node row.
type preparedValues struct {
	values strided
	offset int
}

func newPreparedValues(v views.View, values strided) unsafe.Pointer {
	return unsafe.Pointer(&preparedValues{values: values, offset: v.Window().Offset})
}

// textPreparer decodes utf8 into a type that implements
// encoding.TextUnmarshaler.
type textPreparer struct{ cd *codec }

func (p textPreparer) prepare(v views.View, c *call) (unsafe.Pointer, error) {
	results := p.cd.newBacking(v.Len())
	err := eachBytes(v, func(i int, b []byte) error {
		u := reflect.NewAt(p.cd.typ, results.at(i)).Interface().(encoding.TextUnmarshaler)
		if err := u.UnmarshalText(b); err != nil {
			return p.cd.rowError(ErrInvalidData, c, i, "%s.UnmarshalText(%q): %v", p.cd.typ, b, err)
		}
		return nil
	})
	return newPreparedValues(v, results), err
}

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
