package mapper

import (
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/slice"
	"github.com/arrowmap/arrowmap/tags"
	"github.com/arrowmap/arrowmap/views"
)

// sliceDecoder decodes any list encoding into a Go slice: the elements of
// all rows go into one backing array, and each row's slice is a capped
// window of it.
type sliceDecoder struct{ elem *codec }

func (d *sliceDecoder) decode(v views.View, dst strided, c *call) {
	w := v.Window()
	nulls := v.Nulls()
	switch n := v.Node().(type) {
	case *views.List[int32]:
		decodeList(d.elem, n.Offsets()[w.Offset:w.End()+1], n.Child(w), nulls, dst, c)
	case *views.List[int64]:
		decodeList(d.elem, n.Offsets()[w.Offset:w.End()+1], n.Child(w), nulls, dst, c)
	case *views.FixedSizeList:
		backing := d.elem.decodeBacking(n.Child(w), c)
		size := n.Size()
		for i := range w.Len {
			if nulls.IsValid(i) {
				setSlice(dst.at(i), backing.at(i*size), size)
			}
		}
	case *views.ListView[int32]:
		decodeListView(d.elem, n, w, nulls, dst, c)
	case *views.ListView[int64]:
		decodeListView(d.elem, n, w, nulls, dst, c)
	}
}

// newBacking allocates n zeroed values of cd's type, back to back.
func (cd *codec) newBacking(n int) strided { return strided{newArray(cd.slice, n), cd.size} }

// decodeBacking decodes every row of v into a new array of cd's type.
func (cd *codec) decodeBacking(v views.View, c *call) strided {
	backing := cd.newBacking(v.Len())
	cd.decodeView(v, backing, c)
	return backing
}

// decodeList decodes the rows whose child rows offsets delimit; child is the
// view of exactly those child rows.
func decodeList[O slice.Offset](elem *codec, offsets []O, child views.View, nulls slice.Bitmap, dst strided, c *call) {
	backing := elem.decodeBacking(child, c)
	start := offsets[0]
	for i := range len(offsets) - 1 {
		if !nulls.IsValid(i) {
			continue
		}
		a, b := offsets[i]-start, offsets[i+1]-start
		if a == b {
			// Not backing+a: at the last offset it is past the end of
			// backing, a pointer checkptr (-race) rejects.
			setSlice(dst.at(i), nil, 0)
			continue
		}
		setSlice(dst.at(i), backing.at(int(a)), int(b-a))
	}
}

// decodeListView decodes list view rows, whose child rows may overlap and
// come in any order: each row's elements are decoded into its own part of
// one backing array.
func decodeListView[O slice.Offset](elem *codec, n *views.ListView[O], w slice.Window, nulls slice.Bitmap, dst strided, c *call) {
	sizes := n.Sizes()[w.Offset:w.End()]
	total := 0
	for i, s := range sizes {
		if nulls.IsValid(i) {
			total += int(s)
		}
	}
	backing := elem.newBacking(total)
	at := 0
	for i, s := range sizes {
		if !nulls.IsValid(i) {
			continue
		}
		if s == 0 {
			setSlice(dst.at(i), nil, 0) // backing+at may be past its end
			continue
		}
		part := backing.from(at)
		elem.decodeView(n.Child(w.Offset+i), part, c)
		setSlice(dst.at(i), part.base, int(s))
		at += int(s)
	}
}

func (d *sliceDecoder) prepareChildren(v views.View, c *call) error {
	return d.elem.prepareView(listElements(v), c)
}

// listElements is the view of every element of a list-like view's node.
func listElements(v views.View) views.View {
	switch n := v.Node().(type) {
	case *views.List[int32]:
		return n.Child(slice.Whole(n.Len()))
	case *views.List[int64]:
		return n.Child(slice.Whole(n.Len()))
	case *views.FixedSizeList:
		return n.Child(slice.Whole(n.Len()))
	case *views.ListView[int32]:
		return n.Elements()
	case *views.ListView[int64]:
		return n.Elements()
	}
	return views.View{}
}

// arrayDecoder decodes a fixed_size_list(N) into a Go array [N]T, in place.
type arrayDecoder struct {
	elem *codec
	n    int
}

func (d *arrayDecoder) decode(v views.View, dst strided, c *call) {
	n := v.Node().(*views.FixedSizeList)
	w := v.Window()
	child := n.Child(w)
	nulls := v.Nulls()
	if nulls.Bits == nil && dst.stride == uintptr(d.n)*d.elem.size {
		// The arrays are back to back: one pass over all the elements.
		d.elem.decodeView(child, strided{dst.base, d.elem.size}, c)
		return
	}
	for i := range w.Len {
		if nulls.IsValid(i) {
			d.elem.decodeView(child.Slice(i*d.n, (i+1)*d.n), strided{dst.at(i), d.elem.size}, c)
		}
	}
}

func (d *arrayDecoder) prepareChildren(v views.View, c *call) error {
	return d.elem.prepareView(listElements(v), c)
}

func (c *compiler) compileList(t reflect.Type, tag tags.Tag, dt, value arrow.DataType, vt *views.Type, cd *codec, at where) (*codec, *views.Type, error) {
	id := value.ID()
	accept := views.Lists | views.FixedLists
	switch {
	case t.Kind() == reflect.Array:
		accept = views.FixedLists
		vt.Size = t.Len()
		if n, ok := arrowtype.ListSize(value); ok && int(n) != t.Len() {
			return nil, nil, newError(ErrTypeMismatch, at.path, at.column, -1, "%s from %s: the sizes differ", t, dt)
		}
	case entriesOf(t) && arrowtype.OfType(value).Map:
		// A slice of two-field structs reads a map as its entries, in
		// their order and with every duplicate key, which a Go map cannot.
		accept = views.Maps
	case c.opts.strict && !pinsEncoding(tag):
		accept = plainLists
	}
	if !accept.Has(id) {
		return nil, nil, newError(ErrTypeMismatch, at.path, at.column, -1, "%s from %s: it reads %s", t, dt, accept)
	}
	vt.Accept |= accept
	elemField := value.(arrow.ListLikeType).ElemField()
	var etag tags.Tag
	if tag.Elem != nil {
		etag = *tag.Elem
	}
	elem, evt, err := c.compile(t.Elem(), etag, elemField.Type, at.elem(elemField.Name))
	if err != nil {
		return nil, nil, err
	}
	vt.Elem = evt
	if t.Kind() == reflect.Array {
		cd.dec = &arrayDecoder{elem: elem, n: t.Len()}
	} else {
		cd.dec = &sliceDecoder{elem: elem}
	}
	cd.needsPrep = elem.needsPrep
	return c.finish(cd, at), vt, nil
}

// plainLists is the plain list layout, which Strict reads where no tag
// pins another.
var plainLists = acceptRows(func(r *arrowtype.Row) bool { return r.PlainLayout() && r.Layout == arrowtype.List })
