package bench

import (
	"reflect"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/views"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Sinks keep each iteration's result alive, so the compiler cannot drop the
// work being measured.
var (
	sinkView views.View
	sinkLen  int
)

// sliceCase is one array shape of BenchmarkSlice, after the slice bench of
// quiver's re-slice change (reference/quiver-reslice-pr.txt).
type sliceCase struct {
	name string
	// variants are the sub-benchmarks to run: fast, fallback, arrow.
	variants []string
	typ      views.Type
	// build makes the case's array with the given number of rows.
	build func(rows int) arrow.Array
	// fixture builds the array and its view once, on first use, so that
	// plain `go test` (which runs no benchmark) builds nothing.
	fixture func() (sliceFixture, error)
}

type sliceFixture struct {
	arr  arrow.Array
	view views.View
}

var (
	i64Type      = views.Type{Accept: views.AcceptOf(arrow.INT64)}
	utf8Type     = views.Type{Accept: views.Strings}
	listI64Type  = views.Type{Accept: views.Lists, Elem: &i64Type}
	listListType = views.Type{Accept: views.Lists, Elem: &listI64Type}
)

var allVariants = []string{"fast", "fallback", "arrow"}

var sliceCases = []sliceCase{
	newSliceCase("i64_1M", allVariants, i64Type, 1_000_000, func(n int) arrow.Array { return int64Array(n, false) }),
	newSliceCase("i64_1k", []string{"fast"}, i64Type, 1_000, func(n int) arrow.Array { return int64Array(n, false) }),
	newSliceCase("utf8_100k", allVariants, utf8Type, 100_000, stringArray),
	newSliceCase("list_i64_100k", allVariants, listI64Type, 100_000, func(n int) arrow.Array {
		return listArray(n, 7, func(m int) arrow.Array { return int64Array(m, false) })
	}),
	newSliceCase("list_list_i64_100k", allVariants, listListType, 100_000, func(n int) arrow.Array {
		return listArray(n, 3, func(m int) arrow.Array {
			return listArray(m, 7, func(k int) arrow.Array { return int64Array(k, false) })
		})
	}),
	// The case worth having: the items are not nullable and carry a validity
	// bitmap with no null in it, so validating a slice again scans the
	// bitmap of the whole child, which the list's slice shares.
	newSliceCase("list_i64_item_validity_100k", allVariants, listI64Type, 100_000, func(n int) arrow.Array {
		return listArray(n, 7, func(m int) arrow.Array { return int64Array(m, true) })
	}),
}

// newSliceCase is a case whose benchmark array, of the given rows, build
// makes.
func newSliceCase(name string, variants []string, t views.Type, rows int, build func(rows int) arrow.Array) sliceCase {
	return sliceCase{
		name:     name,
		variants: variants,
		typ:      t,
		build:    build,
		fixture: sync.OnceValues(func() (sliceFixture, error) {
			return newSliceFixture(build(rows), t)
		}),
	}
}

func newSliceFixture(arr arrow.Array, t views.Type) (sliceFixture, error) {
	v, err := views.New(arr, t)
	return sliceFixture{arr: arr, view: v}, err
}

// BenchmarkSlice measures narrowing a validated view to the middle half of
// its rows: fast moves the view's window (View.Slice); fallback validates
// array.NewSlice again, as a view with no fast path does; arrow is
// array.NewSlice alone, the floor for anything that makes an arrow.Array.
func BenchmarkSlice(b *testing.B) {
	for _, c := range sliceCases {
		b.Run(c.name, func(b *testing.B) {
			f, err := c.fixture()
			if err != nil {
				b.Fatal(err)
			}
			n := f.view.Len()
			i, j := n/4, 3*n/4
			checkSliceAgrees(b, f, c.typ, i, j)
			for _, variant := range c.variants {
				b.Run(variant, func(b *testing.B) { benchSlice(b, variant, f, c.typ, i, j) })
			}
		})
	}
}

func benchSlice(b *testing.B, variant string, f sliceFixture, t views.Type, i, j int) {
	b.ReportAllocs()
	switch variant {
	case "fast":
		v := f.view
		for range b.N {
			sinkView = v.Slice(i, j)
		}
	case "fallback":
		for range b.N {
			s := array.NewSlice(f.arr, int64(i), int64(j))
			v, err := views.New(s, t)
			s.Release()
			if err != nil {
				b.Fatal(err)
			}
			sinkView = v
		}
	case "arrow":
		for range b.N {
			s := array.NewSlice(f.arr, int64(i), int64(j))
			sinkLen = s.Len()
			s.Release()
		}
	default:
		b.Fatalf("unknown variant %q", variant)
	}
}

// checkSliceAgrees fails the benchmark unless the fast path and the fallback
// see the same rows, so that their figures compare the same work.
func checkSliceAgrees(b testing.TB, f sliceFixture, t views.Type, i, j int) {
	b.Helper()
	fast := f.view.Slice(i, j)
	s := array.NewSlice(f.arr, int64(i), int64(j))
	defer s.Release()
	slow, err := views.New(s, t)
	if err != nil {
		b.Fatalf("fallback: %v", err)
	}
	if fast.Len() != slow.Len() || fast.Len() == 0 {
		b.Fatalf("fast has %d rows, fallback %d", fast.Len(), slow.Len())
	}
	for _, r := range []int{0, fast.Len() - 1} {
		if got, want := fast.Value(r), slow.Value(r); !reflect.DeepEqual(got, want) {
			b.Fatalf("row %d: fast %v, fallback %v", r, got, want)
		}
	}
}

// int64Array is the n values 0..n-1, with an all-valid bitmap when validity
// is set and none otherwise. Arrays are assembled from buffers rather than
// builders, which always attach a bitmap.
func int64Array(n int, validity bool) arrow.Array {
	values := make([]int64, n)
	for i := range values {
		values[i] = int64(i)
	}
	var bitmap *memory.Buffer
	if validity {
		bitmap = allValid(n)
	}
	d := array.NewData(arrow.PrimitiveTypes.Int64, n,
		[]*memory.Buffer{bitmap, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(values))}, nil, 0, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// stringArray is n short strings "row 0", "row 1", … with no bitmap.
func stringArray(n int) arrow.Array {
	offsets := make([]int32, 0, n+1)
	var data []byte
	for i := range n {
		offsets = append(offsets, int32(len(data)))
		data = strconv.AppendInt(append(data, "row "...), int64(i), 10)
	}
	offsets = append(offsets, int32(len(data)))
	d := array.NewData(arrow.BinaryTypes.String, n,
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offsets)), memory.NewBufferBytes(data)}, nil, 0, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// listArray is n list rows, row i holding 1+i%maxLen of the elements elem
// makes, with no bitmap of its own.
func listArray(n, maxLen int, elem func(n int) arrow.Array) arrow.Array {
	offsets := make([]int32, n+1)
	for i := range n {
		offsets[i+1] = offsets[i] + int32(1+i%maxLen)
	}
	items := elem(int(offsets[n]))
	defer items.Release()
	d := array.NewData(arrow.ListOf(items.DataType()), n,
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offsets))},
		[]arrow.ArrayData{items.Data()}, 0, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

func allValid(n int) *memory.Buffer {
	bits := make([]byte, (n+7)/8)
	for i := range bits {
		bits[i] = 0xff
	}
	return memory.NewBufferBytes(bits)
}

// TestSliceCasesAgree runs BenchmarkSlice's agreement check over small
// arrays of every case, so that plain go test keeps the fixtures honest.
func TestSliceCasesAgree(t *testing.T) {
	for _, c := range sliceCases {
		t.Run(c.name, func(t *testing.T) {
			f, err := newSliceFixture(c.build(64), c.typ)
			require.NoError(t, err)
			defer f.arr.Release()
			checkSliceAgrees(t, f, c.typ, 16, 48)
		})
	}
}

// TestItemValidityCaseHasABitmapAndNoNull pins down what makes the
// validity case the costly one for the fallback, and that the plain list
// case lacks it.
func TestItemValidityCaseHasABitmapAndNoNull(t *testing.T) {
	for _, tt := range []struct {
		name   string
		bitmap bool
	}{
		{"list_i64_item_validity_100k", true},
		{"list_i64_100k", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			i := slices.IndexFunc(sliceCases, func(c sliceCase) bool { return c.name == tt.name })
			require.GreaterOrEqual(t, i, 0, "no case %s", tt.name)
			arr := sliceCases[i].build(64)
			defer arr.Release()
			items := arr.Data().Children()[0]
			assert.Equal(t, tt.bitmap, items.Buffers()[0] != nil, "items have a bitmap")
			assert.Zero(t, items.NullN(), "items hold no null")
		})
	}
}
