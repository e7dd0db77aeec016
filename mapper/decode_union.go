package mapper

import (
	"reflect"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/tags"
	"github.com/arrowmap/arrowmap/views"
)

// UnionCode is the type of a union struct's field tagged `arrow:",type_code"`:
// each row's type code, which Decode fills in and Encode writes a row
// with no variant set with, so that a null row keeps the variant it
// selects. Any int8 type will do; UnionCode says what the field is for.
type UnionCode int8

// A union is a struct field tagged union (sparse_union, dense_union)
// whose fields are its variants, each a pointer:
//
//	type Value struct {
//		Int  *int64  `arrow:"i,code=5"`
//		Text *string `arrow:"s,code=7,nullable"`
//		Code mapper.UnionCode `arrow:",type_code"`
//	}
//
// The variant a row selects is the one non-nil pointer; a variant's child
// may hold nulls only when tagged nullable (or when its type is nullable by
// nature: a slice, a map), as every other level. The rules below, which
// Go fields make which variants with which codes, are the one place
// decoding, encoding and SchemaOf read them from.

// unionShape is the variants of a union struct type and its type_code
// field.
type unionShape struct {
	variants []unionVariant
	code     uintptr // offset of the type_code field
	hasCode  bool
}

// unionVariant is one variant field: a pointer, at offset in the struct.
type unionVariant struct {
	goField
	offset   uintptr
	code     int8
	explicit bool // code= gave the code
}

// unionShapeOf reads the variants of union struct type t, for encoding
// or decoding.
func unionShapeOf(t reflect.Type, tag tags.Tag, at where, encoding bool) (*unionShape, error) {
	if t.Kind() != reflect.Struct {
		return nil, newError(ErrTag, at.path, at.column, -1, "%s applies to a struct of pointer variants, not %s", tag.Union, t)
	}
	if tag.Dict || tag.REE || pinsEncoding(tag) || tag.Decimal != nil || tag.Elem != nil || tag.Key != nil || tag.Value != nil {
		return nil, newError(ErrTag, at.path, at.column, -1, "a union takes no encoding, temporal or element options")
	}
	fields, err := fieldsAt(t, at)
	if err != nil {
		return nil, err
	}
	shape := &unionShape{}
	var codeField string
	byCode := map[int8]string{}
	for _, gf := range fields {
		fat := at.field(gf.path, gf.name)
		offsets := offsetsOf(t, gf.index)
		if len(offsets) > 1 {
			return nil, newError(ErrUnsupported, fat.path, fat.column, -1, "a union variant cannot be promoted through an embedded pointer")
		}
		if gf.tag.TypeCode {
			if gf.typ.Kind() != reflect.Int8 {
				return nil, newError(ErrTag, fat.path, "", -1, "type_code needs an int8 (mapper.UnionCode), not %s", gf.typ)
			}
			if codeField != "" {
				return nil, newError(ErrTag, fat.path, "", -1, "a second type_code field, after %s", codeField)
			}
			codeField = fat.path
			shape.code, shape.hasCode = offsets[0], true
			continue
		}
		if gf.typ.Kind() != reflect.Pointer {
			return nil, newError(ErrTag, fat.path, fat.column, -1, "a union variant is a pointer, not %s: the one non-nil variant is the row's", gf.typ)
		}
		v := unionVariant{goField: gf, offset: offsets[0], code: int8(len(shape.variants))}
		if gf.tag.Code != nil {
			v.code, v.explicit = *gf.tag.Code, true
		}
		// Decoding takes a code without code= from the column; encoding
		// writes it, so there it must be unique too.
		if v.explicit || encoding {
			if other, ok := byCode[v.code]; ok {
				return nil, newError(ErrTag, fat.path, fat.column, -1, "type code %d is %s's too", v.code, other)
			}
			byCode[v.code] = fat.path
		}
		shape.variants = append(shape.variants, v)
	}
	if len(shape.variants) == 0 {
		return nil, newError(ErrUnsupported, at.path, at.column, -1, "union %s has no variant", t)
	}
	return shape, nil
}

// variantTag is a variant's tag as its value's level reads it: without
// the options that only say which variant it is.
func variantTag(tag tags.Tag) tags.Tag {
	tag.Code, tag.TypeCode = nil, false
	return tag
}

// unionAccept is what a union tag decodes: either mode, or the one it
// pins.
func unionAccept(mode tags.UnionMode) views.Accept {
	pinned := mode == tags.SparseUnion || mode == tags.DenseUnion
	return acceptRows(func(r *arrowtype.Row) bool {
		return r.Layout == arrowtype.Union && (!pinned || r.Name == mode.String())
	})
}

// compileUnion plans a union struct from a union column: each child of
// the column read by the variant of its name. Every child needs one: a row
// that selected a child no variant reads would decode to nothing.
func (c *compiler) compileUnion(t reflect.Type, tag tags.Tag, dt arrow.DataType, at where) (*codec, *views.Type, error) {
	shape, err := unionShapeOf(t, tag, at, false)
	if err != nil {
		return nil, nil, err
	}
	accept := unionAccept(tag.Union)
	value := views.Storage(dt)
	ut, ok := value.(arrow.UnionType)
	if !ok || !accept.Has(value.ID()) {
		return nil, nil, mismatchOf(t, dt, at, "a union tagged %s reads %s", tag.Union, accept)
	}
	if c.stack[t] {
		return nil, nil, newError(ErrUnsupported, at.path, at.column, -1, "%s is recursive", t)
	}
	c.stack[t] = true
	defer delete(c.stack, t)

	children := ut.Fields()
	goFields := make([]goField, len(shape.variants))
	for k, v := range shape.variants {
		goFields[k] = v.goField
	}
	opts := *c.opts
	opts.rejectExtra = false // every child is checked below, whatever the option
	matched, err := matchFields(goFields, children, at, &opts)
	if err != nil {
		return nil, nil, err
	}
	vt := &views.Type{Accept: accept, Nullable: true, Label: at.path}
	dec := &unionDecoder{parts: make([]unionPart, len(children)), code: shape.code, hasCode: shape.hasCode}
	cd := newCodec(t)
	read := make([]bool, len(children))
	for k, v := range shape.variants {
		i := matched[k]
		if i < 0 {
			continue // AllowMissing: the variant stays nil
		}
		fat := at.field(v.path, children[i].Name)
		if read[i] {
			return nil, nil, newError(ErrTypeMismatch, fat.path, fat.column, -1, "a second variant reads child %q", children[i].Name)
		}
		read[i] = true
		if want := ut.TypeCodes()[i]; v.explicit && v.code != want {
			return nil, nil, newError(ErrTypeMismatch, fat.path, fat.column, -1, "the tag says code=%d, the column's child %q has code %d", v.code, children[i].Name, want)
		}
		elem, evt, err := c.compile(v.typ.Elem(), variantTag(v.tag), children[i].Type, fat)
		if err != nil {
			return nil, nil, err
		}
		vt.Fields = append(vt.Fields, views.Field{Name: children[i].Name, Type: *evt})
		dec.parts[i] = unionPart{elem: elem, offset: v.offset}
		cd.needsPrep = cd.needsPrep || elem.needsPrep
	}
	for i, ok := range read {
		if !ok {
			return nil, nil, newError(ErrTypeMismatch, at.path, joinPath(at.column, children[i].Name), -1,
				"no variant of %s reads child %q (code %d): the rows that select it would be lost", t, children[i].Name, ut.TypeCodes()[i])
		}
	}
	cd.dec = dec
	return c.finish(cd, at), vt, nil
}

// unionDecoder decodes a union into a struct of pointer variants: the
// values each child holds for the rows that select it go into one array,
// and each row's variant points to its element.
type unionDecoder struct {
	parts   []unionPart // by child of the union
	code    uintptr     // the type_code field's offset
	hasCode bool
}

// unionPart is the variant that reads one child.
type unionPart struct {
	elem   *codec
	offset uintptr
}

func (d *unionDecoder) decode(v views.View, dst strided, c *call) {
	n := v.Node().(*views.Union)
	w := v.Window()
	codes := n.TypeCodes()[w.Offset:w.End()]
	if d.hasCode {
		for i, code := range codes {
			*(*int8)(unsafe.Add(dst.at(i), d.code)) = code
		}
	}
	// The rows of the window by the child they select, in one pass (a
	// counting sort): child k's are byChild[start[k+1]:start[k+2]], in
	// order; bucket 0 would hold the rows of an undeclared code, which
	// View refuses in every slot: none, but no index is ever -1.
	start := make([]int, len(d.parts)+2)
	for _, code := range codes {
		start[n.ChildOf(code)+2]++
	}
	for b := 1; b < len(start); b++ {
		start[b] += start[b-1]
	}
	byChild := make([]int32, len(codes))
	next := append([]int(nil), start[:len(d.parts)+1]...)
	for i, code := range codes {
		b := n.ChildOf(code) + 1
		byChild[next[b]] = int32(i)
		next[b]++
	}
	for k, part := range d.parts {
		rows := byChild[start[k+1]:start[k+2]]
		if len(rows) == 0 {
			continue
		}
		if n.Mode() == arrow.SparseMode {
			// Child row of window row i is aligned row i: decode the rows
			// from the first that selects the child to the last.
			lo, hi := int(rows[0]), int(rows[len(rows)-1])+1
			part.point(n.Aligned(k, w).Slice(lo, hi), rows, lo, dst, c)
			continue
		}
		offsets := n.Offsets()[w.Offset:w.End()]
		lo, hi, ordered := int(offsets[rows[0]]), int(offsets[rows[0]])+1, true
		for j := 1; j < len(rows); j++ {
			off := int(offsets[rows[j]])
			ordered = ordered && off > hi-1
			hi = max(hi, off+1)
			lo = min(lo, off)
		}
		child := n.Child(k)
		// In order and dense enough, decode the span; else only the rows'
		// values, which a window of few rows spanning a large child needs.
		if ordered && hi-lo <= 2*len(rows)+sparseSlack {
			part.pointDense(child.Slice(lo, hi), rows, offsets, lo, dst, c)
			continue
		}
		// Rows that share a child value must not share its element.
		backing := part.elem.newBacking(len(rows))
		for j, i := range rows {
			off := int(offsets[i])
			one := child.Slice(off, off+1)
			part.elem.decodeView(one, backing.from(j), c)
			if !one.IsNull(0) {
				*(*unsafe.Pointer)(unsafe.Add(dst.at(int(i)), part.offset)) = backing.at(j)
			}
		}
	}
}

// point decodes the child rows of v, window row lo+r being row r of v,
// and points the variant of each of rows at its value.
func (p *unionPart) point(v views.View, rows []int32, lo int, dst strided, c *call) {
	backing := p.elem.decodeBacking(v, c)
	nulls := v.Nulls()
	for _, i := range rows {
		if r := int(i) - lo; nulls.IsValid(r) {
			*(*unsafe.Pointer)(unsafe.Add(dst.at(int(i)), p.offset)) = backing.at(r)
		}
	}
}

// pointDense is point for a dense child: window row i reads child row
// offsets[i], row offsets[i]-lo of v.
func (p *unionPart) pointDense(v views.View, rows []int32, offsets []int32, lo int, dst strided, c *call) {
	backing := p.elem.decodeBacking(v, c)
	nulls := v.Nulls()
	for _, i := range rows {
		if r := int(offsets[i]) - lo; nulls.IsValid(r) {
			*(*unsafe.Pointer)(unsafe.Add(dst.at(int(i)), p.offset)) = backing.at(r)
		}
	}
}

func (d *unionDecoder) prepareChildren(v views.View, c *call) error {
	n := v.Node().(*views.Union)
	for k, part := range d.parts {
		if err := part.elem.prepareView(n.Child(k), c); err != nil {
			return err
		}
	}
	return nil
}
