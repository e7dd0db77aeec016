package parquet

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

func TestPoolHandsOutAlignedZeroedBuffersAndReusesFreedOnes(t *testing.T) {
	p := &pool{}
	a := p.Allocate(100)
	require.Len(t, a, 100)
	require.Equal(t, 128, cap(a), "a power of two")
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
	require.Empty(t, p.free[class(1000)])
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
