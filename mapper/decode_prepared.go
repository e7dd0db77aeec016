package mapper

import (
	"unsafe"

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
