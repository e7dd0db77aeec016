package views

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/slice"
)

// Struct is the view node of a struct array, with a child node for each
// field its Type names, in that order.
type Struct struct {
	level
	base   int // the array's offset: row i is row base+i of every child
	fields []builtin
}

func newStruct(d arrow.ArrayData, l *level) (*Struct, error) {
	dt := l.dt.(arrowtype.StructLike)
	t := l.p.t
	n := &Struct{level: *l, base: d.Offset(), fields: make([]builtin, len(t.Fields))}
	for i := range t.Fields {
		f := &t.Fields[i]
		idx, _ := childIndex(dt, f) // checkType made sure there is one
		fd, err := child(d, idx, &n.p)
		if err != nil {
			return nil, err
		}
		if fd.Len() < n.base+n.n {
			return nil, n.p.fail(ErrInvalidData, -1, "field %q has %d rows, the struct needs %d", f.Name, fd.Len(), n.base+n.n)
		}
		fd = reach(fd, n.base+n.n, &n.p)
		if n.fields[i], err = buildChild(fd, dt.Field(idx).Type, &f.Type, n.p.child(f.Name, &f.Type)); err != nil {
			return nil, err
		}
		n.clean = n.clean && n.fields[i].lvl().clean
	}
	return n, nil
}

// NumField is the number of viewed fields.
func (a *Struct) NumField() int { return len(a.fields) }

// Field is the view of field k (in the order of Type.Fields) for rows w.
func (a *Struct) Field(k int, w slice.Window) View {
	f := a.fields[k]
	w.Offset += a.base
	return View{node: f, t: f.lvl().p.t, w: w}
}

// Value is row i as a map from field name to value, or nil.
func (a *Struct) Value(i int) any {
	if a.IsNull(i) {
		return nil
	}
	out := make(map[string]any, len(a.fields))
	for _, f := range a.fields {
		out[f.lvl().p.name] = f.Value(a.base + i)
	}
	return out
}

func (a *Struct) checkChildren(rows slice.Ranges) *Error {
	valid := shift(slice.ValidRows(rows, a.validity), a.base)
	for _, f := range a.fields {
		if err := checkNulls(f, valid); err != nil {
			return err
		}
	}
	return nil
}

// shift moves every window of r by delta rows.
func shift(r slice.Ranges, delta int) slice.Ranges {
	if delta == 0 {
		return r
	}
	out := make(slice.Ranges, len(r))
	for i, w := range r {
		out[i] = slice.Window{Offset: w.Offset + delta, Len: w.Len}
	}
	return out
}

// Map is the view node of a map array: row i holds the entries
// [Offsets()[i], Offsets()[i+1]) of the Keys and Values children.
type Map struct {
	level
	offsets      []int32 // indexed by row, len n+1
	base         int     // the entries' offset: entry e is row base+e of keys and values
	keys, values builtin
}

func newMap(d arrow.ArrayData, l *level) (*Map, error) {
	entries, err := child(d, 0, &l.p)
	if err != nil {
		return nil, err
	}
	offsets, err := checkOffsets[int32](d, l, entries.Len(), "entries")
	if err != nil {
		return nil, err
	}
	mp, _ := arrowtype.MapParts(l.dt)
	key, item := mp.Key, mp.Item
	ep := l.p.child(l.dt.(arrow.ListLikeType).ElemField().Name, nil)
	if bits := buffer(entries, 0); bits != nil && entries.NullN() != 0 {
		return nil, ep.fail(ErrInvalidData, -1, "map entries with a validity bitmap and %d nulls", entries.NullN())
	}
	keys, err := child(entries, 0, &ep)
	if err != nil {
		return nil, err
	}
	items, err := child(entries, 1, &ep)
	if err != nil {
		return nil, err
	}
	base := entries.Offset()
	// newLevel never sees the entries: bound them here, or base+e overflows.
	if base < 0 || entries.Len() < 0 || base > maxRows || entries.Len() > maxRows-base {
		return nil, ep.fail(ErrInvalidData, -1, "%d entries at offset %d out of range", entries.Len(), base)
	}
	if keys.Len() < base+entries.Len() || items.Len() < base+entries.Len() {
		return nil, ep.fail(ErrInvalidData, -1, "keys (%d) or values (%d) shorter than the %d entries at offset %d", keys.Len(), items.Len(), entries.Len(), base)
	}
	reached := base + int(offsets[l.n])
	keys, items = reach(keys, reached, &l.p), reach(items, reached, &l.p)
	n := &Map{level: *l, offsets: offsets, base: base}
	n.p.t = l.p.t
	ep.up = &n.p
	t := n.p.t
	if n.keys, err = buildChild(keys, key.Type, t.Key, ep.child(key.Name, t.Key)); err != nil {
		return nil, err
	}
	if n.values, err = buildChild(items, item.Type, t.Value, ep.child(item.Name, t.Value)); err != nil {
		return nil, err
	}
	n.clean = n.clean && n.keys.lvl().clean && n.values.lvl().clean
	return n, nil
}

// Offsets is where each row's entries start, and where the last ends:
// indexed by row, len Len()+1.
func (a *Map) Offsets() []int32 { return a.offsets }

// Keys is the view of the keys of the entries that rows w reach.
func (a *Map) Keys(w slice.Window) View { return a.entries(a.keys, w) }

// Values is the view of the values of the entries that rows w reach.
func (a *Map) Values(w slice.Window) View { return a.entries(a.values, w) }

func (a *Map) entries(n builtin, w slice.Window) View {
	cw := slice.ListChild(a.offsets, w)
	cw.Offset += a.base
	return View{node: n, t: n.lvl().p.t, w: cw}
}

// Value is row i as a [][2]any of key and value, or nil.
func (a *Map) Value(i int) any {
	if a.IsNull(i) {
		return nil
	}
	w := slice.Window{Offset: i, Len: 1}
	keys, vals := a.Keys(w), a.Values(w)
	out := make([][2]any, keys.Len())
	for e := range out {
		out[e] = [2]any{keys.Value(e), vals.Value(e)}
	}
	return out
}

func (a *Map) checkChildren(rows slice.Ranges) *Error {
	entries := shift(slice.ListChildren(rows, a.validity, a.offsets), a.base)
	if err := checkNulls(a.keys, entries); err != nil {
		return err
	}
	return checkNulls(a.values, entries)
}
