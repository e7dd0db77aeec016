// Package slice is the window arithmetic behind arrowmap's zero-copy views.
//
// A [Window] is a run of rows [Offset, Offset+Len) of one array. Windows
// compose (a window of a window), map through list offsets to the window of
// the child they reach, and through a fixed size to a fixed-size list's child
// window. [Ranges] are the rows of a child that a set of parent rows can
// reach; [Bitmap] counts and finds the nulls among them. None of it needs an
// Arrow type: offsets are plain Go slices and validity is a bitmap.
//
// The one call most users of the views package rely on:
//
//	w := slice.Whole(n).Slice(i, j) // rows [i, j) of an n-row array
package slice
