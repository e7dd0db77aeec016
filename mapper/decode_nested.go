package mapper

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/slice"
	"github.com/arrowmap/arrowmap/tags"
	"github.com/arrowmap/arrowmap/views"
)

func (c *compiler) compileList(t reflect.Type, tag tags.Tag, dt, value arrow.DataType, vt *views.Type, cd *codec, at where) (*codec, *views.Type, error) {
	id := value.ID()
	accept := views.Lists | fixedLists
	switch {
	case t.Kind() == reflect.Array:
		accept = fixedLists
		vt.Size = t.Len()
		if n, ok := arrowtype.ListSize(value); ok && int(n) != t.Len() {
			return nil, nil, newError(ErrTypeMismatch, at.path, at.column, -1, "%s from %s: the sizes differ", t, dt)
		}
	case entriesOf(t) && arrowtype.OfType(value).Map:
		// A slice of two-field structs reads a map as its entries, in
		// their order and with every duplicate key, which a Go map cannot.
		accept = mapAccept
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

// entriesOf reports whether t, a slice, can hold a map's entries: its
// elements are structs (or pointers to them) of two fields, the key and
// the value.
func entriesOf(t reflect.Type) bool {
	if t.Kind() != reflect.Slice {
		return false
	}
	e := t.Elem()
	if e.Kind() == reflect.Pointer {
		e = e.Elem()
	}
	return e.Kind() == reflect.Struct && e.NumField() == 2
}

func (c *compiler) compileMap(t reflect.Type, tag tags.Tag, value arrow.DataType, vt *views.Type, cd *codec, at where) (*codec, *views.Type, error) {
	mt, ok := arrowtype.MapParts(value)
	if !ok {
		return nil, nil, newError(ErrTypeMismatch, at.path, at.column, -1, "%s from %s: a map reads map", t, value)
	}
	if !t.Key().Comparable() {
		return nil, nil, newError(ErrUnsupported, at.path, at.column, -1, "map key %s is not comparable", t.Key())
	}
	vt.Accept |= mapAccept
	var ktag, vtag tags.Tag
	if tag.Key != nil {
		ktag = *tag.Key
	}
	if tag.Value != nil {
		vtag = *tag.Value
	}
	entries := joinPath(at.column, mt.Entries.Name)
	key, kvt, err := c.compile(t.Key(), ktag, mt.Key.Type, where{path: at.path + "[key]", column: joinPath(entries, mt.Key.Name)})
	if err != nil {
		return nil, nil, err
	}
	val, vvt, err := c.compile(t.Elem(), vtag, mt.Item.Type, where{path: at.path + "[value]", column: joinPath(entries, mt.Item.Name)})
	if err != nil {
		return nil, nil, err
	}
	vt.Key, vt.Value = kvt, vvt
	dec := &mapDecoder{key: key, value: val, typ: t}
	cd.dec = dec
	cd.needsPrep = key.needsPrep || val.needsPrep
	if !c.opts.lastKeyWins {
		cd.prep = uniqueKeys{cd: cd, m: dec}
		cd.needsPrep = true
	}
	return c.finish(cd, at), vt, nil
}

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
	vt.Accept |= structAccept
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
