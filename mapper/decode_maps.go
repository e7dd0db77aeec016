package mapper

import (
	"reflect"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/slice"
	"github.com/arrowmap/arrowmap/tags"
	"github.com/arrowmap/arrowmap/views"
)

// Go maps, and a map's entries as a Go slice ([]E tagged map), decoded
// from Arrow maps; encode_maps.go writes both.

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
	vt.Accept |= views.Maps
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
