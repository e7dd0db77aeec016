package slice

import "fmt"

// Window is the run of rows [Offset, Offset+Len) of an array.
type Window struct {
	Offset int
	Len    int
}

// Whole is the window over all n rows of an array.
func Whole(n int) Window { return Window{Len: n} }

// End is one past the last row of w.
func (w Window) End() int { return w.Offset + w.Len }

// Slice is the window of rows [i, j) of w, in the index space w lives in: a
// window of a window composes, it never restarts from the original array.
// Like a Go slice expression it panics when 0 <= i <= j <= w.Len does not
// hold.
func (w Window) Slice(i, j int) Window {
	if i < 0 || j < i || j > w.Len {
		outOfRange(i, j, w.Len)
	}
	return Window{Offset: w.Offset + i, Len: j - i}
}

// outOfRange panics for Slice; kept apart so that Slice stays small enough
// to inline.
func outOfRange(i, j, n int) {
	panic(fmt.Sprintf("arrowmap: slice bounds [%d:%d] out of range for %d rows", i, j, n))
}

// Offset is the integer type of list offsets: int32 for list, map and
// list_view, int64 for their large variants.
type Offset interface{ ~int32 | ~int64 }

// ListChild is the window of the child that rows w of a list reach, given
// the list's offsets indexed by row (offsets[i] is where row i starts, so
// offsets has at least w.End()+1 entries). Offsets are assumed monotone, as
// validated views guarantee.
func ListChild[O Offset](offsets []O, w Window) Window {
	start := int(offsets[w.Offset])
	return Window{Offset: start, Len: int(offsets[w.End()]) - start}
}

// FixedSizeListChild is the window of the child that rows w of a fixed-size
// list of the given size reach: [w.Offset*size, w.End()*size). w must already
// include the list's own array offset, since arrow-go indexes a fixed-size
// list's un-sliced child at (offset+i)*size.
func FixedSizeListChild(w Window, size int) Window {
	return Window{Offset: w.Offset * size, Len: w.Len * size}
}
