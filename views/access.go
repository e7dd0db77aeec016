package views

import (
	"github.com/arrowmap/arrowmap/slice"
)

// Nulls is the validity of the rows of v: bit i is row i of the view. A nil
// Bits means no row is null. For a dictionary or run-end view whose values
// hold nulls, the bitmap is built (one allocation); for every other node it
// is the array's own.
func (v View) Nulls() slice.Bitmap {
	if n, ok := v.node.(interface {
		nullsIn(slice.Window) slice.Bitmap
	}); ok {
		return n.nullsIn(v.w)
	}
	return buildNulls(v.node, v.w)
}

func (l *level) nullsIn(w slice.Window) slice.Bitmap { return l.validity.Slice(w.Offset) }

// buildNulls is the validity of rows w of n, read row by row.
func buildNulls(n Node, w slice.Window) slice.Bitmap {
	var bits []byte
	for i := range w.Len {
		if n.IsNull(w.Offset + i) {
			if bits == nil {
				bits = make([]byte, bytesFor(w.Len))
				for k := range bits {
					bits[k] = 0xff
				}
			}
			bits[i>>3] &^= 1 << (i & 7)
		}
	}
	return slice.Bitmap{Bits: bits}
}

func (a *Dictionary[I]) nullsIn(w slice.Window) slice.Bitmap {
	if a.values.lvl().nulls == 0 {
		return a.validity.Slice(w.Offset)
	}
	return buildNulls(a, w)
}

func (a *RunEnd[R]) nullsIn(w slice.Window) slice.Bitmap {
	if a.values.lvl().nulls == 0 {
		return slice.Bitmap{}
	}
	return buildNulls(a, w)
}

// Encoded is a dictionary or run-end node: each row reads one row of a
// values view. Decoders decode the values once and gather.
type Encoded interface {
	Node
	// Values is the view of every value rows can refer to.
	Values() View
	// Gather is the values that rows w read and, appended to idx, the row
	// of those values each row of w reads, -1 for a null index.
	Gather(w slice.Window, idx []int) (View, []int)
}

// Gather is the window of entries rows w refer to and each row's entry in
// it, -1 for a null index.
func (a *Dictionary[I]) Gather(w slice.Window, idx []int) (View, []int) {
	lo, hi := a.values.Len(), 0
	for i := w.Offset; i < w.End(); i++ {
		if a.validity.IsValid(i) {
			e := int(a.indices[i])
			lo, hi = min(lo, e), max(hi, e+1)
		}
	}
	if lo >= hi {
		lo, hi = 0, 0
	}
	for i := w.Offset; i < w.End(); i++ {
		if a.validity.IsValid(i) {
			idx = append(idx, int(a.indices[i])-lo)
		} else {
			idx = append(idx, -1)
		}
	}
	return View{node: a.values, t: a.values.lvl().p.t, w: slice.Window{Offset: lo, Len: hi - lo}}, idx
}

// Gather is the window of runs that rows w fall in and each row's run in it.
func (a *RunEnd[R]) Gather(w slice.Window, idx []int) (View, []int) {
	runs := a.Runs(w)
	k := runs.Offset
	for i := w.Offset; i < w.End(); i++ {
		for int(a.runEnds[k]) <= a.off+i {
			k++
		}
		idx = append(idx, k-runs.Offset)
	}
	return View{node: a.values, t: a.values.lvl().p.t, w: runs}, idx
}
