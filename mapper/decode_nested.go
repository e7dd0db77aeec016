package mapper

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/slice"
	"github.com/arrowmap/arrowmap/tags"
	"github.com/arrowmap/arrowmap/views"
)

func (c *compiler) compileStruct(t reflect.Type, value arrow.DataType, vt *views.Type, cd *codec, at where) (*codec, *views.Type, error) {
	fields, ok := structChildren(value)
	if !ok {
		return nil, nil, newError(ErrTypeMismatch, at.path, at.column, -1, "%s from %s: a struct reads struct", t, value)
	}
	if c.stack[t] {
		return nil, nil, newError(ErrUnsupported, at.path, at.column, -1, "%s is recursive", t)
	}
	c.stack[t] = true
	defer delete(c.stack, t)
	vt.Accept |= views.Structs
	var codecs []*codec
	members, err := c.compileMembers(t, fields, at, func(f arrow.Field, i int, fcd *codec, fvt *views.Type) int {
		vt.Fields = append(vt.Fields, views.Field{Name: f.Name, Type: *fvt, Pos: &i}) // the child matchFields chose
		codecs = append(codecs, fcd)
		return len(vt.Fields) - 1
	})
	if err != nil {
		return nil, nil, err
	}
	for _, fcd := range codecs {
		cd.needsPrep = cd.needsPrep || fcd.needsPrep
	}
	cd.dec = &structDecoder{members: members, codecs: codecs, row: cd,
		zero: sync.OnceValue(func() unsafe.Pointer { return reflect.New(cd.typ).UnsafePointer() })}
	return c.finish(cd, at), vt, nil
}

// member is one field of a struct being decoded: either a codec writing at
// an offset, from child view k, or the group of fields behind an embedded
// pointer.
type member struct {
	k      int
	offset uintptr
	codec  *codec
	group  *embedded
}

// embedded is the fields reached through an embedded pointer field at the
// member's offset: they are decoded into one array of the pointed-to
// struct, and each row's pointer set to its element.
type embedded struct {
	typ     reflect.Type
	slice   reflect.Type
	size    uintptr
	members []member
}

// decodeMembers decodes n rows of every member, reading child view k
// through field(k).
func decodeMembers(members []member, field func(k int) views.View, n int, dst strided, c *call) {
	for _, m := range members {
		if g := m.group; g != nil {
			backing := strided{newArray(g.slice, n), g.size}
			decodeMembers(g.members, field, n, backing, c)
			pointers := dst.field(m.offset)
			for i := range n {
				*(*unsafe.Pointer)(pointers.at(i)) = backing.at(i)
			}
			continue
		}
		m.codec.decodeView(field(m.k), dst.field(m.offset), c)
	}
}

// structDecoder decodes a struct array into a Go struct, field by field.
type structDecoder struct {
	members []member
	codecs  []*codec // by child view
	row     *codec   // the struct's own codec, to clear null rows
	// zero is a zero row, copied over null rows: made at the first, not
	// with the plan, whose Go type a schema can make gigabytes large (a
	// fixed_size_list of 2^29 elements) without a byte of data behind it.
	zero func() unsafe.Pointer
}

func (d *structDecoder) decode(v views.View, dst strided, c *call) {
	n := v.Node().(*views.Struct)
	w := v.Window()
	decodeMembers(d.members, func(k int) views.View { return n.Field(k, w) }, w.Len, dst, c)
	// The fields of a null row were decoded with the rest: clear the row.
	if nulls := v.Nulls(); nulls.Bits != nil {
		for i := range w.Len {
			if nulls.IsNull(i) {
				d.row.move(dst.at(i), d.zero())
			}
		}
	}
}

func (d *structDecoder) prepareChildren(v views.View, c *call) error {
	n := v.Node().(*views.Struct)
	for k, cd := range d.codecs {
		if err := cd.prepareView(n.Field(k, slice.Whole(n.Len())), c); err != nil {
			return err
		}
	}
	return nil
}

// compilePointer plans *T as T, whose level may be null.
func (c *compiler) compilePointer(t reflect.Type, tag tags.Tag, dt arrow.DataType, at where) (*codec, *views.Type, error) {
	elem, vt, err := c.compile(t.Elem(), tag, dt, at)
	if err != nil {
		return nil, nil, err
	}
	vt.Nullable = true
	cd := newCodec(t)
	cd.dec = &pointerDecoder{elem: elem}
	cd.needsPrep = elem.needsPrep
	return c.finish(cd, at), vt, nil
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
