package views

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/slice"
)

// List is the view node of a list or large_list array: row i holds the
// child rows [Offsets()[i], Offsets()[i+1]).
type List[O slice.Offset] struct {
	level
	offsets []O // indexed by row, len n+1
	child   builtin
}

func newList[O slice.Offset](d arrow.ArrayData, l *level) (*List[O], error) {
	childData, err := child(d, 0, &l.p)
	if err != nil {
		return nil, err
	}
	offsets, err := checkOffsets[O](d, l, childData.Len(), "child")
	if err != nil {
		return nil, err
	}
	n := &List[O]{level: *l, offsets: offsets}
	elem := l.dt.(arrow.ListLikeType).ElemField()
	childData = reach(childData, int(offsets[l.n]), &l.p)
	if n.child, err = buildChild(childData, elem.Type, l.p.t.Elem, n.p.child(elem.Name, l.p.t.Elem)); err != nil {
		return nil, err
	}
	n.clean = n.clean && n.child.lvl().clean
	return n, nil
}

// Offsets is where each row starts in the child, and where the last ends:
// indexed by row, len Len()+1.
func (a *List[O]) Offsets() []O { return a.offsets }

// Child is the view of the child rows that rows w of the list reach. The
// child is shared, not copied: only the window moves.
func (a *List[O]) Child(w slice.Window) View {
	return View{node: a.child, t: a.child.lvl().p.t, w: slice.ListChild(a.offsets, w)}
}

// Value is row i as a []any of its elements, or nil.
func (a *List[O]) Value(i int) any {
	if a.IsNull(i) {
		return nil
	}
	return values(a.Child(slice.Window{Offset: i, Len: 1}))
}

func (a *List[O]) checkChildren(rows slice.Ranges) *Error {
	return checkNulls(a.child, slice.ListChildren(rows, a.validity, a.offsets))
}

// values is every row of v as plain Go values.
func values(v View) []any {
	out := make([]any, v.Len())
	for i := range out {
		out[i] = v.Value(i)
	}
	return out
}

// ListView is the view node of a list_view or large_list_view array: row i
// holds the child rows [Offsets()[i], Offsets()[i]+Sizes()[i]), which may
// overlap other rows' and come in any order.
type ListView[O slice.Offset] struct {
	level
	offsets, sizes []O // indexed by row
	child          builtin
}

func newListView[O slice.Offset](d arrow.ArrayData, l *level) (*ListView[O], error) {
	childData, err := child(d, 0, &l.p)
	if err != nil {
		return nil, err
	}
	offsets, err := fixed[O](d, 1, d.Offset(), l.n, &l.p, "offsets")
	if err != nil {
		return nil, err
	}
	sizes, err := fixed[O](d, 2, d.Offset(), l.n, &l.p, "sizes")
	if err != nil {
		return nil, err
	}
	limit := int64(childData.Len())
	var reached int64 // the end of the child rows the rows reach
	for i := range l.n {
		if l.validity.IsNull(i) {
			continue // a null row's offset and size are never read
		}
		if offsets[i] < 0 || sizes[i] < 0 || int64(offsets[i]) > limit-int64(sizes[i]) {
			return nil, l.p.fail(ErrInvalidData, i, "list view [%d, +%d) outside the child's %d rows", offsets[i], sizes[i], limit)
		}
		if sizes[i] > 0 {
			reached = max(reached, int64(offsets[i])+int64(sizes[i]))
		}
	}
	n := &ListView[O]{level: *l, offsets: offsets, sizes: sizes}
	elem := l.dt.(arrow.ListLikeType).ElemField()
	childData = reach(childData, int(reached), &l.p)
	if n.child, err = buildChild(childData, elem.Type, l.p.t.Elem, n.p.child(elem.Name, l.p.t.Elem)); err != nil {
		return nil, err
	}
	n.clean = n.clean && n.child.lvl().clean
	return n, nil
}

// Offsets is where each row starts in the child, indexed by row.
func (a *ListView[O]) Offsets() []O { return a.offsets }

// Sizes is the number of child rows of each row, indexed by row.
func (a *ListView[O]) Sizes() []O { return a.sizes }

// Child is the view of the child rows of row i.
func (a *ListView[O]) Child(i int) View {
	return View{node: a.child, t: a.child.lvl().p.t, w: slice.Window{Offset: int(a.offsets[i]), Len: int(a.sizes[i])}}
}

// Elements is the view of the whole child, which rows index through Offsets
// and Sizes.
func (a *ListView[O]) Elements() View {
	return View{node: a.child, t: a.child.lvl().p.t, w: slice.Whole(a.child.Len())}
}

// Value is row i as a []any of its elements, or nil.
func (a *ListView[O]) Value(i int) any {
	if a.IsNull(i) {
		return nil
	}
	return values(a.Child(i))
}

func (a *ListView[O]) checkChildren(rows slice.Ranges) *Error {
	return checkNulls(a.child, slice.ListViewChildren(rows, a.validity, a.offsets, a.sizes))
}

// FixedSizeList is the view node of a fixed_size_list array of Size()
// elements a row.
type FixedSizeList struct {
	level
	base  int // the array's offset: row i is child rows [(base+i)*size, (base+i+1)*size)
	size  int
	child builtin
}

func newFixedSizeList(d arrow.ArrayData, l *level) (*FixedSizeList, error) {
	childData, err := child(d, 0, &l.p)
	if err != nil {
		return nil, err
	}
	size, _ := arrowtype.ListSize(l.dt)
	if size < 0 || (size > 0 && childData.Len()/size < d.Offset()+l.n) {
		return nil, l.p.fail(ErrInvalidData, -1, "child of %d rows for %d lists of %d at offset %d", childData.Len(), l.n, size, d.Offset())
	}
	n := &FixedSizeList{level: *l, base: d.Offset(), size: size}
	elem := l.dt.(arrow.ListLikeType).ElemField()
	childData = reach(childData, (n.base+l.n)*size, &l.p)
	if n.child, err = buildChild(childData, elem.Type, l.p.t.Elem, n.p.child(elem.Name, l.p.t.Elem)); err != nil {
		return nil, err
	}
	n.clean = n.clean && n.child.lvl().clean
	return n, nil
}

// Size is the number of elements of every row.
func (a *FixedSizeList) Size() int { return a.size }

// Child is the view of the child rows that rows w reach. Unlike a list's,
// the child window moves with the rows: arrow-go indexes the un-sliced child
// at (offset+i)*size.
func (a *FixedSizeList) Child(w slice.Window) View {
	w.Offset += a.base
	return View{node: a.child, t: a.child.lvl().p.t, w: slice.FixedSizeListChild(w, a.size)}
}

// Value is row i as a []any of its elements, or nil.
func (a *FixedSizeList) Value(i int) any {
	if a.IsNull(i) {
		return nil
	}
	return values(a.Child(slice.Window{Offset: i, Len: 1}))
}

func (a *FixedSizeList) checkChildren(rows slice.Ranges) *Error {
	return checkNulls(a.child, slice.FixedSizeListChildren(rows, a.validity, a.base, a.size))
}
