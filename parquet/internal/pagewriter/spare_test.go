package pagewriter

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
	got, ok := l.take(none)
	require.True(t, ok)
	require.Same(t, two, got)
	got, ok = l.take(none)
	require.True(t, ok)
	require.Same(t, one, got)
	_, ok = l.take(none)
	require.False(t, ok, "empty")

	l.put(one)
	collect(t, &l, 1)
	got, ok = l.take(none)
	require.True(t, ok, "kept through one collection")
	require.Same(t, one, got)

	l.put(one)
	collect(t, &l, 2)
	_, ok = l.take(none)
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

func none(*int) bool { return false }

// take gives the value put last that fits, before any put after it.
func TestASpareListGivesTheValueThatFitsFirst(t *testing.T) {
	var l spareList[*int]
	a, b, c := ptrTo(1), ptrTo(2), ptrTo(1)
	l.put(a)
	l.put(b)
	l.put(c)
	is := func(n int) func(*int) bool { return func(p *int) bool { return *p == n } }
	got, ok := l.take(is(2))
	require.True(t, ok)
	require.Same(t, b, got)
	got, _ = l.take(is(1))
	require.Same(t, c, got, "the last put of those that fit")
	got, _ = l.take(is(3))
	require.Same(t, a, got, "none fits: the last put")
	_, ok = l.take(is(1))
	require.False(t, ok)
}

func ptrTo(n int) *int { return &n }
