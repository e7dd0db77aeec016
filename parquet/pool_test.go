package parquet

import (
	"context"
	"strings"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

func TestPoolHandsOutAlignedZeroedBuffersAndReusesFreedOnes(t *testing.T) {
	p := &pool{}
	a := p.Allocate(100)
	require.Len(t, a, 100)
	require.Equal(t, 100, cap(a), "no room past its length, as memory.GoAllocator's")
	require.Zero(t, uintptr(unsafe.Pointer(unsafe.SliceData(a)))%poolAlign, "64-byte aligned")
	for i := range a {
		a[i] = 0xff
	}
	p.Free(a)
	b := p.Allocate(120)
	require.Equal(t, unsafe.SliceData(a), unsafe.SliceData(b), "the freed buffer of the class comes back")
	require.Equal(t, make([]byte, 120), b, "zeroed")

	b[0], b[119] = 1, 2
	c := p.Reallocate(300, b)
	require.Len(t, c, 300)
	require.Equal(t, byte(1), c[0])
	require.Equal(t, byte(2), c[119])
	require.Equal(t, make([]byte, 180), c[120:], "the new bytes zeroed")
	d := p.Reallocate(10, c)
	require.Equal(t, byte(1), d[0], "shrinking keeps the contents")

	p.Free(make([]byte, 1000)) // not one of ours: ignored
	p.Free(make([]byte, 0))
	p.Free(nil)
	require.Empty(t, p.free[class(1000)])
	p.Free(d)
	p.Free(d) // freed twice: kept once
	require.Len(t, p.free[class(10)], 1)
	for range poolKeep + 3 {
		p.Free(p.Allocate(1 << 20)[: 0 : 1<<20])
	}
	require.LessOrEqual(t, len(p.free[20]), poolKeep)
}

func TestAReleasedPoolsBuffersComeBackZeroedToTheNextPool(t *testing.T) {
	first := &pool{}
	b := first.Allocate(1000)
	for i := range b {
		b[i] = 0xff
	}
	first.Free(b)
	first.release()
	next := &pool{}
	for range 3 { // whether a spare is taken or a new buffer made
		got := next.Allocate(1000)
		require.Len(t, got, 1000)
		require.Equal(t, make([]byte, 1000), got)
		for i := range got {
			got[i] = 0xee
		}
	}
}

func TestArrowGosTakeKernelCastsADictionaryInThePoolsBuffers(t *testing.T) {
	// The dictionary's mean value is shorter than the values taken: the
	// kernel reserves that mean times the rows, then appends up to the
	// capacity it is handed before asking for more.
	p := &pool{}
	bld := array.NewDictionaryBuilder(p, &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}).(*array.BinaryDictionaryBuilder)
	defer bld.Release()
	want := make([]string, 1000)
	for i := range want {
		want[i] = strings.Repeat("l", 20)
	}
	want[0] = "s"
	for _, v := range want {
		require.NoError(t, bld.AppendString(v))
	}
	dict := bld.NewArray()
	defer dict.Release()
	dense, err := compute.CastArray(compute.WithAllocator(context.Background(), p), dict, compute.SafeCastOptions(arrow.BinaryTypes.String))
	require.NoError(t, err)
	defer dense.Release()
	got := dense.(*array.String)
	require.Equal(t, len(want), got.Len())
	for i, v := range want {
		require.Equal(t, v, got.Value(i), "row %d", i)
	}
}

func TestAResizableBufferOfThePoolHasNoCapacityPastItsLength(t *testing.T) {
	p := &pool{}
	buf := memory.NewResizableBuffer(p)
	defer buf.Release()
	for _, n := range []int{1, 100, 1000, 700, 5000, 64, 1 << 16} {
		buf.Resize(n)
		require.Equal(t, len(buf.Buf()), cap(buf.Buf()), "resized to %d", n)
		require.Equal(t, n, buf.Len())
	}
}
