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

func ExampleListChildren() {
	// A list<int32> column [[1, null], null, [null, 4, 5], []]. The null row
	// 1 still points at child row 2, which is null but hidden by its parent.
	offsets := []int32{0, 2, 3, 6, 6}
	parent := slice.Bitmap{Bits: []byte{0b1101}}  // rows 0, 2, 3 valid
	child := slice.Bitmap{Bits: []byte{0b110001}} // child rows 0, 4, 5 valid

	all := slice.ListChildren(slice.Ranges{slice.Whole(4)}, parent, offsets)
	fmt.Println(all, child.FirstNullIn(all)) // child row 2 is not reached
	last := slice.ListChildren(slice.Ranges{slice.Whole(4).Slice(2, 4)}, parent, offsets)
	fmt.Println(last, child.FirstNullIn(last))
	// Output:
	// [{0 2} {3 3}] 1
	// [{3 3}] 3
}
