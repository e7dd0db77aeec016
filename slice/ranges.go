package slice

import (
	"cmp"
	"slices"
)

// Ranges is a set of rows as sorted, disjoint, non-adjacent windows: the rows
// of a child that some parent rows reach. Nulls are reachable only through
// Ranges, so a null outside a window or under a null parent row never counts.
type Ranges []Window

// add appends w, merging it into the last window when they touch. w must not
// start before the last window does.
func (r Ranges) add(w Window) Ranges {
	if w.Len == 0 {
		return r
	}
	if n := len(r); n > 0 && w.Offset <= r[n-1].End() {
		if w.End() > r[n-1].End() {
			r[n-1].Len = w.End() - r[n-1].Offset
		}
		return r
	}
	return append(r, w)
}

// Normalize turns windows in any order, possibly overlapping, into Ranges.
func Normalize(ws []Window) Ranges {
	ws = slices.Clone(ws)
	slices.SortFunc(ws, func(a, b Window) int { return cmp.Compare(a.Offset, b.Offset) })
	var r Ranges
	for _, w := range ws {
		r = r.add(w)
	}
	return r
}

// FirstNullIn is the first null row of b in r, or -1 when there is none.
func (b Bitmap) FirstNullIn(r Ranges) int {
	for _, w := range r {
		if i := b.FirstNull(w); i >= 0 {
			return i
		}
	}
	return -1
}

// validRuns calls f with each maximal run of valid rows of w.
func (b Bitmap) validRuns(w Window, f func(Window)) {
	if b.Bits == nil || b.CountNulls(w) == 0 {
		f(w)
		return
	}
	start := -1
	for i := w.Offset; i < w.End(); i++ {
		switch valid := b.IsValid(i); {
		case valid && start < 0:
			start = i
		case !valid && start >= 0:
			f(Window{Offset: start, Len: i - start})
			start = -1
		}
	}
	if start >= 0 {
		f(Window{Offset: start, Len: w.End() - start})
	}
}

// ValidRows is the valid rows of r: what a struct's children are reachable
// through, since a null struct row hides its children's values.
func ValidRows(r Ranges, validity Bitmap) Ranges {
	if validity.Bits == nil {
		return r
	}
	var out Ranges
	for _, w := range r {
		validity.validRuns(w, func(run Window) { out = out.add(run) })
	}
	return out
}

// ListChildren is the rows of a list's child reached by the valid rows r of
// the list, through its monotone offsets.
func ListChildren[O Offset](r Ranges, validity Bitmap, offsets []O) Ranges {
	var out Ranges
	for _, w := range r {
		validity.validRuns(w, func(run Window) { out = out.add(ListChild(offsets, run)) })
	}
	return out
}

// ListViewChildren is the rows of a list view's child reached by the valid
// rows r: each row i reaches [offsets[i], offsets[i]+sizes[i]), in any order.
func ListViewChildren[O Offset](r Ranges, validity Bitmap, offsets, sizes []O) Ranges {
	var ws []Window
	for _, w := range r {
		validity.validRuns(w, func(run Window) {
			for i := run.Offset; i < run.End(); i++ {
				ws = append(ws, Window{Offset: int(offsets[i]), Len: int(sizes[i])})
			}
		})
	}
	return Normalize(ws)
}

// FixedSizeListChildren is the rows of a fixed-size list's child reached by
// the valid rows r. base is the list's own array offset: row i reaches
// [(base+i)*size, (base+i+1)*size) of the un-sliced child.
func FixedSizeListChildren(r Ranges, validity Bitmap, base, size int) Ranges {
	var out Ranges
	for _, w := range r {
		validity.validRuns(w, func(run Window) {
			out = out.add(FixedSizeListChild(Window{Offset: base + run.Offset, Len: run.Len}, size))
		})
	}
	return out
}
