package slice_test

import (
	"fmt"

	"github.com/arrowmap/arrowmap/slice"
)

func ExampleWindow_Slice() {
	w := slice.Whole(10).Slice(2, 8) // rows [2, 8) of a 10-row array
	v := w.Slice(1, 3)               // rows [1, 3) of w: rows [3, 5) of the array
	fmt.Println(w, v, v.End())
	fmt.Println(v == slice.Whole(10).Slice(3, 5))
	// Output:
	// {2 6} {3 2} 5
	// true
}

func ExampleReachableNulls() {
	// A list<int32> column [[1, null], null, [null, 4, 5], []]. The null row
	// 1 still points at child row 2, which is null but hidden by its parent.
	offsets := []int32{0, 2, 3, 6, 6}
	parent := slice.Bitmap{Bits: []byte{0b1101}}  // rows 0, 2, 3 valid
	child := slice.Bitmap{Bits: []byte{0b110001}} // child rows 0, 4, 5 valid

	fmt.Println(child.CountNulls(slice.Whole(6)))                             // every null of the child
	fmt.Println(slice.ReachableNulls(child, parent, offsets, slice.Whole(4))) // only those under valid rows
	fmt.Println(slice.ReachableNulls(child, parent, offsets, slice.Whole(4).Slice(2, 4)))
	// Output:
	// 3
	// 2
	// 1
}
