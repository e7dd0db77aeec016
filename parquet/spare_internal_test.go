package parquet

import (
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// What a goroutine puts, another takes, last put first; what no one took
// is dropped once two collections have passed, and kept through one.
func TestASpareListHandsOnWhatWasPutUntilTwoCollectionsPass(t *testing.T) {
	var l spareList[*int]
	one, two := new(int), new(int)
	var wg sync.WaitGroup
	wg.Go(func() { l.put(one); l.put(two) })
	wg.Wait()
	got, ok := l.take()
	require.True(t, ok)
	require.Same(t, two, got)
	got, ok = l.take()
	require.True(t, ok)
	require.Same(t, one, got)
	_, ok = l.take()
	require.False(t, ok, "empty")

	l.put(one)
	collect(t, &l, 1)
	got, ok = l.take()
	require.True(t, ok, "kept through one collection")
	require.Same(t, one, got)

	l.put(one)
	collect(t, &l, 2)
	_, ok = l.take()
	require.False(t, ok, "dropped after two")

	for range 2 * spareKeep {
		l.put(new(int))
	}
	l.mu.Lock()
	require.Len(t, l.fresh, spareKeep, "at most spareKeep")
	l.mu.Unlock()
}

// collect runs n collections and waits for each to rotate l's lists.
func collect(t *testing.T, l *spareList[*int], n int) {
	t.Helper()
	rotations := func() int {
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.rotations
	}
	for range n {
		before := rotations()
		runtime.GC()
		require.Eventually(t, func() bool { return rotations() > before }, 5e9, 1e6, "a rotation after the collection")
	}
}
