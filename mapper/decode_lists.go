package mapper

import (
	"reflect"
	"unsafe"

	"github.com/arrowmap/arrowmap/slice"
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

// mapDecoder decodes a map array into a Go map, one map per row.
type mapDecoder struct {
	key, value *codec
	typ        reflect.Type
}

func (d *mapDecoder) decode(v views.View, dst strided, c *call) {
	n := v.Node().(*views.Map)
	w := v.Window()
	keys := d.key.decodeBacking(n.Keys(w), c)
	values := d.value.decodeBacking(n.Values(w), c)
	offsets := n.Offsets()[w.Offset : w.End()+1]
	nulls := v.Nulls()
	for i := range w.Len {
		if !nulls.IsValid(i) {
			continue
		}
		a, b := int(offsets[i]-offsets[0]), int(offsets[i+1]-offsets[0])
		m := reflect.MakeMapWithSize(d.typ, b-a)
		for e := a; e < b; e++ {
			// Go maps have no unsafe insert: one reflect call per entry.
			m.SetMapIndex(reflect.NewAt(d.key.typ, keys.at(e)).Elem(), reflect.NewAt(d.value.typ, values.at(e)).Elem())
		}
		*(*unsafe.Pointer)(dst.at(i)) = m.UnsafePointer()
	}
}

func (d *mapDecoder) prepareChildren(v views.View, c *call) error {
	n := v.Node().(*views.Map)
	whole := slice.Whole(n.Len())
	if err := d.key.prepareView(n.Keys(whole), c); err != nil {
		return err
	}
	return d.value.prepareView(n.Values(whole), c)
}

// uniqueKeys checks, when the record is viewed, that no map row has a key
// twice: a Go map holds one entry per key, so decoding such a row would
// drop all but the last silently. LastKeyWins turns the check off.
type uniqueKeys struct {
	cd *codec
	m  *mapDecoder
}

func (u uniqueKeys) prepare(v views.View, c *call) (unsafe.Pointer, error) {
	n := v.Node().(*views.Map)
	w := v.Window()
	keysView := n.Keys(w)
	if u.m.key.needsPrep {
		// The keys' own conversions run before they can be compared.
		top := c.top
		c.top = false
		err := u.m.key.prepareView(keysView, c)
		c.top = top
		if err != nil {
			return nil, err
		}
	}
	// The keys are compared, not kept: they may alias the record.
	zeroCopy := c.zeroCopy
	c.zeroCopy = true
	keys := u.m.key.decodeBacking(keysView, c)
	c.zeroCopy = zeroCopy

	offsets := n.Offsets()[w.Offset : w.End()+1]
	nulls := v.Nulls()
	var strs map[string]struct{}
	var seen reflect.Value
	if u.m.key.typ.Kind() == reflect.String {
		strs = map[string]struct{}{}
	} else {
		seen = reflect.MakeMap(reflect.MapOf(u.m.key.typ, reflect.TypeFor[struct{}]()))
	}
	present := reflect.ValueOf(struct{}{})
	for i := range w.Len {
		a, b := int(offsets[i]-offsets[0]), int(offsets[i+1]-offsets[0])
		if b-a < 2 || !nulls.IsValid(i) {
			continue
		}
		if strs != nil {
			clear(strs)
			for e := a; e < b; e++ {
				k := *(*string)(keys.at(e))
				if _, dup := strs[k]; dup {
					return nil, u.cd.rowError(ErrDuplicateKey, c, i, "key %q twice (LastKeyWins keeps the last entry)", k)
				}
				strs[k] = struct{}{}
			}
			continue
		}
		seen.Clear()
		for e := a; e < b; e++ {
			k := reflect.NewAt(u.m.key.typ, keys.at(e)).Elem()
			if seen.MapIndex(k).IsValid() {
				return nil, u.cd.rowError(ErrDuplicateKey, c, i, "key %v twice (LastKeyWins keeps the last entry)", k)
			}
			seen.SetMapIndex(k, present)
		}
	}
	return nil, nil
}

// pointerDecoder decodes into *T: the values of all rows go into one array,
// and each non-null row points to its element.
type pointerDecoder struct{ elem *codec }

func (d *pointerDecoder) decode(v views.View, dst strided, c *call) {
	backing := d.elem.decodeBacking(v, c)
	nulls := v.Nulls()
	for i := range v.Len() {
		if nulls.IsValid(i) {
			*(*unsafe.Pointer)(dst.at(i)) = backing.at(i)
		}
	}
}

func (d *pointerDecoder) prepareChildren(v views.View, c *call) error {
	return d.elem.prepareView(v, c)
}
