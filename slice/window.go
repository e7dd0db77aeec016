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
	// As unsigned, a negative i or j is huge: two compares check all four
	// bounds, and keep Slice cheap enough to inline.
	if uint(i) > uint(j) || uint(j) > uint(w.Len) {
		panic(boundsError{i, j, w.Len})
	}
	return Window{Offset: w.Offset + i, Len: j - i}
}

// boundsError is the panic of Slice out of range, formatted only when
// printed.
type boundsError struct{ i, j, n int }

func (e boundsError) Error() string {
	return fmt.Sprintf("arrowmap: slice bounds [%d:%d] out of range for %d rows", e.i, e.j, e.n)
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
