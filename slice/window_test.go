package slice

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWindowSlice(t *testing.T) {
	tests := []struct {
		name string
		w    Window
		i, j int
		want Window
	}{
		{"all of a whole window is the window itself", Whole(5), 0, 5, Window{Offset: 0, Len: 5}},
		{"a prefix keeps the window's offset", Window{Offset: 3, Len: 5}, 0, 2, Window{Offset: 3, Len: 2}},
		{"a suffix starts past the window's offset", Window{Offset: 3, Len: 5}, 2, 5, Window{Offset: 5, Len: 3}},
		{"a middle slice of an offset window adds the offsets", Window{Offset: 10, Len: 20}, 4, 9, Window{Offset: 14, Len: 5}},
		{"an empty slice at the start sits at the window's offset", Window{Offset: 3, Len: 5}, 0, 0, Window{Offset: 3, Len: 0}},
		{"an empty slice at the end sits one past the last row", Window{Offset: 3, Len: 5}, 5, 5, Window{Offset: 8, Len: 0}},
		{"an empty window sliced empty stays where it is", Window{Offset: 7, Len: 0}, 0, 0, Window{Offset: 7, Len: 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.w.Slice(tt.i, tt.j))
		})
	}
}

func TestWindowSliceComposes(t *testing.T) {
	tests := []struct {
		name         string
		w            Window
		outer, inner [2]int
		want         Window
	}{
		{"a window of a whole array's window is rows of the array", Whole(10), [2]int{2, 8}, [2]int{1, 3}, Window{Offset: 3, Len: 2}},
		{"a window of an offset window adds all three offsets", Window{Offset: 5, Len: 10}, [2]int{2, 8}, [2]int{1, 3}, Window{Offset: 8, Len: 2}},
		{"the whole of a window of a window is the outer slice", Window{Offset: 5, Len: 10}, [2]int{2, 8}, [2]int{0, 6}, Window{Offset: 7, Len: 6}},
		{"an empty window of a window sits at the summed offsets", Window{Offset: 5, Len: 10}, [2]int{4, 9}, [2]int{5, 5}, Window{Offset: 14, Len: 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.w.Slice(tt.outer[0], tt.outer[1]).Slice(tt.inner[0], tt.inner[1])
			assert.Equal(t, tt.want, got)
			once := tt.w.Slice(tt.outer[0]+tt.inner[0], tt.outer[0]+tt.inner[1])
			assert.Equal(t, once, got, "slicing twice differs from slicing once at the summed offsets")
		})
	}
}

func TestWindowSliceComposesForEveryBound(t *testing.T) {
	// Exhaustive over small windows: w[i:j][k:l] is w[i+k:i+l].
	for off := range 4 {
		for n := range 7 {
			w := Window{Offset: off, Len: n}
			for i := 0; i <= n; i++ {
				for j := i; j <= n; j++ {
					for k := 0; k <= j-i; k++ {
						for l := k; l <= j-i; l++ {
							require.Equal(t, w.Slice(i+k, i+l), w.Slice(i, j).Slice(k, l),
								"%+v[%d:%d][%d:%d]", w, i, j, k, l)
						}
					}
				}
			}
		}
	}
}

func TestWindowSlicePanicsOutOfRange(t *testing.T) {
	tests := []struct {
		name  string
		slice func() Window
		want  string
	}{
		{
			"a negative start panics",
			func() Window { return Window{Offset: 2, Len: 5}.Slice(-1, 3) },
			"arrowmap: slice bounds [-1:3] out of range for 5 rows",
		},
		{
			"an end before the start panics",
			func() Window { return Window{Offset: 2, Len: 5}.Slice(3, 2) },
			"arrowmap: slice bounds [3:2] out of range for 5 rows",
		},
		{
			"an end past the window panics",
			func() Window { return Window{Offset: 2, Len: 5}.Slice(0, 6) },
			"arrowmap: slice bounds [0:6] out of range for 5 rows",
		},
		{
			"an end past the window panics even when the array has the rows",
			func() Window { return Whole(10).Slice(2, 5).Slice(0, 4) },
			"arrowmap: slice bounds [0:4] out of range for 3 rows",
		},
		{
			"a start past the window panics even when the slice is empty",
			func() Window { return Window{Offset: 2, Len: 5}.Slice(6, 6) },
			"arrowmap: slice bounds [6:6] out of range for 5 rows",
		},
		{
			"any non-empty slice of an empty window panics",
			func() Window { return Window{Offset: 4, Len: 0}.Slice(0, 1) },
			"arrowmap: slice bounds [0:1] out of range for 0 rows",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.PanicsWithError(t, tt.want, func() { tt.slice() })
		})
	}
}

func TestWindowEnd(t *testing.T) {
	tests := []struct {
		name string
		w    Window
		want int
	}{
		{"an empty window at zero ends at zero", Window{}, 0},
		{"a whole window ends at its length", Whole(7), 7},
		{"an offset window ends at offset plus length", Window{Offset: 3, Len: 4}, 7},
		{"an empty offset window ends where it starts", Window{Offset: 9, Len: 0}, 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.w.End())
		})
	}
}

func TestWhole(t *testing.T) {
	tests := []struct {
		name string
		n    int
		want Window
	}{
		{"a whole empty array is the empty window at zero", 0, Window{}},
		{"a whole array starts at zero and spans every row", 5, Window{Offset: 0, Len: 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Whole(tt.n))
		})
	}
}

func TestListChild(t *testing.T) {
	// Rows 0..3 reach child rows [0,2) [2,5) [5,5) [5,9).
	offsets := []int64{0, 2, 5, 5, 9}
	// The same list sliced: offsets start at 7, not 0.
	sliced := []int64{7, 9, 12, 12, 16}
	tests := []struct {
		name    string
		offsets []int64
		w       Window
		want    Window
	}{
		{"the whole list reaches from the first offset to the last", offsets, Whole(4), Window{Offset: 0, Len: 9}},
		{"one row reaches its own run of the child", offsets, Window{Offset: 1, Len: 1}, Window{Offset: 2, Len: 3}},
		{"an empty row reaches an empty window at its start", offsets, Window{Offset: 2, Len: 1}, Window{Offset: 5, Len: 0}},
		{"an empty window reaches an empty window at its offset", offsets, Window{Offset: 3, Len: 0}, Window{Offset: 5, Len: 0}},
		{"an empty window past the last row reaches the child's end", offsets, Window{Offset: 4, Len: 0}, Window{Offset: 9, Len: 0}},
		{"offsets of a sliced list are used as they are", sliced, Whole(4), Window{Offset: 7, Len: 9}},
		{"an already offset window reads the offsets from its own offset", sliced, Window{Offset: 1, Len: 3}, Window{Offset: 9, Len: 7}},
		{"a window of a window reaches what the composed window reaches", sliced, Whole(4).Slice(1, 4).Slice(1, 3), Window{Offset: 12, Len: 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name+" with int64 offsets", func(t *testing.T) {
			assert.Equal(t, tt.want, ListChild(tt.offsets, tt.w))
		})
		t.Run(tt.name+" with int32 offsets", func(t *testing.T) {
			offsets32 := make([]int32, len(tt.offsets))
			for i, o := range tt.offsets {
				offsets32[i] = int32(o)
			}
			assert.Equal(t, tt.want, ListChild(offsets32, tt.w))
		})
	}
}

func TestListChildKeepsLargeOffsets(t *testing.T) {
	// A large list's offsets past the int32 range must not be truncated.
	offsets := []int64{1 << 40, 1<<40 + 3, 1<<41 + 3}
	assert.Equal(t, Window{Offset: 1<<40 + 3, Len: 1 << 40}, ListChild(offsets, Window{Offset: 1, Len: 1}))
}

func TestFixedSizeListChild(t *testing.T) {
	tests := []struct {
		name string
		w    Window
		size int
		want Window
	}{
		{"a whole list reaches size rows per row", Whole(4), 3, Window{Offset: 0, Len: 12}},
		{"an offset window starts at offset times size", Window{Offset: 2, Len: 3}, 2, Window{Offset: 4, Len: 6}},
		{"a size of one reaches the same rows", Window{Offset: 5, Len: 2}, 1, Window{Offset: 5, Len: 2}},
		{"a size of zero reaches nothing", Window{Offset: 2, Len: 3}, 0, Window{Offset: 0, Len: 0}},
		{"an empty window reaches an empty window at offset times size", Window{Offset: 5, Len: 0}, 3, Window{Offset: 15, Len: 0}},
		{"a window of a window reaches what the composed window reaches", Window{Offset: 1, Len: 6}.Slice(2, 4), 3, Window{Offset: 9, Len: 6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, FixedSizeListChild(tt.w, tt.size))
		})
	}
}
