package views

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/slice"
)

// Union is the view node of a sparse_union or dense_union array: row i is
// row ChildRow(i) of child ChildIndex(i), the child its type code
// TypeCode(i) selects. A union has no validity bitmap: row i is null when
// that child's row is.
//
// Every type code a row holds is one the union declares, and, in a dense
// union, every offset is inside its child: New checks both once, so the
// accessors index without checking.
type Union struct {
	level
	dense    bool
	base     int    // the array's offset: row i of a sparse union is row base+i of every child
	codes    []int8 // indexed by row
	offsets  []int32
	childOf  [128]int8 // the child of each declared type code, -1 for the others
	declared []arrow.UnionTypeCode
	children []builtin // in the union's order
}

func newUnion(d arrow.ArrayData, l *level) (*Union, error) {
	ut := l.dt.(arrow.UnionType)
	fields := ut.Fields()
	n := &Union{level: *l, dense: ut.Mode() == arrow.DenseMode, base: d.Offset(), declared: ut.TypeCodes()}
	for k := range n.childOf {
		n.childOf[k] = -1
	}
	for j, code := range n.declared {
		n.childOf[code] = int8(j) // arrow-go's UnionOf checks codes are 0 to 127 and distinct
	}
	if len(d.Children()) != len(fields) {
		return nil, n.p.fail(ErrInvalidData, -1, "%d children for a union of %d", len(d.Children()), len(fields))
	}
	codes, err := fixed[int8](d, 1, n.base, n.n, &n.p, "type ids")
	if err != nil {
		return nil, err
	}
	n.codes = codes
	for i, c := range codes {
		if c < 0 || n.childOf[c] < 0 {
			return nil, n.p.fail(ErrInvalidData, i, "type id %d is none of the union's codes %v", c, n.declared)
		}
	}
	lengths := make([]int, len(fields))
	for j := range fields {
		cd, err := child(d, j, &n.p)
		if err != nil {
			return nil, err
		}
		lengths[j] = cd.Len()
		if !n.dense && lengths[j] < n.base+n.n {
			return nil, n.p.fail(ErrInvalidData, -1, "child %q has %d rows, the sparse union needs %d", fields[j].Name, lengths[j], n.base+n.n)
		}
	}
	if n.dense {
		if n.offsets, err = fixed[int32](d, 2, n.base, n.n, &n.p, "offsets"); err != nil {
			return nil, err
		}
		for i, off := range n.offsets {
			j := n.childOf[codes[i]]
			if off < 0 || int(off) >= lengths[j] {
				return nil, n.p.fail(ErrInvalidData, i, "offset %d outside child %q of %d rows", off, fields[j].Name, lengths[j])
			}
		}
	}
	// The rows of each child that the rows reach: a sparse union's own,
	// a dense union's up to the last offset that selects the child.
	reached := make([]int, len(fields))
	for j := range reached {
		if !n.dense {
			reached[j] = n.base + n.n
		}
	}
	if n.dense && n.p.prefix {
		for i, off := range n.offsets {
			j := n.childOf[codes[i]]
			reached[j] = max(reached[j], int(off)+1)
		}
	}
	t := n.p.t
	n.children = make([]builtin, len(fields))
	for j, f := range fields {
		ft := unionFieldType(t, f.Name)
		if n.children[j], err = buildChild(reach(d.Children()[j], reached[j], &n.p), f.Type, ft, n.p.child(f.Name, ft)); err != nil {
			return nil, err
		}
	}
	for _, c := range n.children {
		if c.lvl().nulls > 0 {
			for i := range n.n {
				if n.IsNull(i) {
					n.nulls++
				}
			}
			break
		}
	}
	n.clean = t.Nullable || n.nulls == 0
	for _, c := range n.children {
		n.clean = n.clean && c.lvl().clean
	}
	return n, nil
}

// unionFieldType is the type of the union child named name: checkType
// made sure t names every child once.
func unionFieldType(t *Type, name string) *Type {
	for i := range t.Fields {
		if t.Fields[i].Name == name {
			return &t.Fields[i].Type
		}
	}
	return nil
}

// Mode is the union's mode, sparse or dense.
func (a *Union) Mode() arrow.UnionMode {
	if a.dense {
		return arrow.DenseMode
	}
	return arrow.SparseMode
}

// Codes are the type codes the union declares, one per child in order.
func (a *Union) Codes() []arrow.UnionTypeCode { return a.declared }

// NumChildren is the number of children of the union.
func (a *Union) NumChildren() int { return len(a.children) }

// TypeCodes is the type code of each row, indexed by row.
func (a *Union) TypeCodes() []int8 { return a.codes }

// Offsets is, for a dense union, the row of each row in its child, indexed
// by row; nil for a sparse union.
func (a *Union) Offsets() []int32 { return a.offsets }

// TypeCode is the type code of row i.
func (a *Union) TypeCode(i int) int8 { return a.codes[i] }

// ChildIndex is the child row i selects, in the union's order.
func (a *Union) ChildIndex(i int) int { return int(a.childOf[a.codes[i]]) }

// ChildOf is the child type code code selects, or -1 when the union does
// not declare it.
func (a *Union) ChildOf(code int8) int {
	if code < 0 {
		return -1
	}
	return int(a.childOf[code])
}

// ChildRow is the row of row i in the child it selects.
func (a *Union) ChildRow(i int) int {
	if a.dense {
		return int(a.offsets[i])
	}
	return a.base + i
}

// Child is the view of every row of child k.
func (a *Union) Child(k int) View {
	c := a.children[k]
	return View{node: c, t: c.lvl().p.t, w: slice.Whole(c.Len())}
}

// Aligned is, for a sparse union, the view of child k's rows beside rows w
// of the union: row i of it is child k's row of union row w.Offset+i,
// whichever child that row selects. Slicing a sparse union moves every
// child's window; a dense union's children stay, read through Offsets.
func (a *Union) Aligned(k int, w slice.Window) View {
	c := a.children[k]
	w.Offset += a.base
	return View{node: c, t: c.lvl().p.t, w: w}
}

// IsNull reports whether row i is null: whether the row of the child it
// selects is.
func (a *Union) IsNull(i int) bool {
	return a.children[a.childOf[a.codes[i]]].IsNull(a.ChildRow(i))
}

// Value is the value of row i in the child it selects, or nil.
func (a *Union) Value(i int) any {
	return a.children[a.childOf[a.codes[i]]].Value(a.ChildRow(i))
}

func (a *Union) firstNull(rows slice.Ranges) int {
	if a.nulls == 0 {
		return -1
	}
	for _, w := range rows {
		for i := w.Offset; i < w.End(); i++ {
			if a.IsNull(i) {
				return i
			}
		}
	}
	return -1
}

func (a *Union) nullsIn(w slice.Window) slice.Bitmap {
	if a.nulls == 0 {
		return slice.Bitmap{}
	}
	return buildNulls(a, w)
}

// checkChildren checks each child over the rows that select it: a value
// no row selects is not reachable.
func (a *Union) checkChildren(rows slice.Ranges) *Error {
	reached := make([][]slice.Window, len(a.children))
	for _, w := range rows {
		for i := w.Offset; i < w.End(); i++ {
			j := a.childOf[a.codes[i]]
			if a.children[j].lvl().clean {
				continue
			}
			r, last := a.ChildRow(i), len(reached[j])-1
			if last >= 0 && reached[j][last].End() == r {
				reached[j][last].Len++
				continue
			}
			reached[j] = append(reached[j], slice.Window{Offset: r, Len: 1})
		}
	}
	for j, c := range a.children {
		if len(reached[j]) == 0 {
			continue
		}
		if err := checkNulls(c, slice.Normalize(reached[j])); err != nil {
			return err
		}
	}
	return nil
}

// checkUnion checks a union datatype against t: every child named once,
// by a field of t, and every field of t a child.
func checkUnion(dt arrow.UnionType, t *Type, p *path) *Error {
	fields := dt.Fields()
	for i := range t.Fields {
		f := &t.Fields[i]
		fp := p.child(f.Name, &f.Type)
		var idx []int
		for j := range fields {
			if fields[j].Name == f.Name {
				idx = append(idx, j)
			}
		}
		switch len(idx) {
		case 0:
			return fp.fail(ErrTypeMismatch, -1, "%s has no child %q", dt, f.Name)
		case 1:
		default:
			return fp.fail(ErrTypeMismatch, -1, "%s has %d children named %q", dt, len(idx), f.Name)
		}
		if err := checkType(fields[idx[0]].Type, &f.Type, &fp, true); err != nil {
			return err
		}
	}
	for _, f := range fields {
		if unionFieldType(t, f.Name) == nil {
			return p.fail(ErrTypeMismatch, -1, "%s: the type does not view child %q, which rows may select", dt, f.Name)
		}
	}
	return nil
}
