package batches

import (
	"errors"
	"iter"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func seqOf(n int, failAt int) iter.Seq2[int, error] {
	return func(yield func(int, error) bool) {
		for i := range n {
			if i == failAt {
				yield(0, errors.New("row failed"))
				return
			}
			if !yield(i, nil) {
				return
			}
		}
	}
}

// collect copies each batch, as Gather reuses its buffer.
func collect(s iter.Seq2[[]int, error]) (out [][]int, err error) {
	for b, e := range s {
		if e != nil {
			return out, e
		}
		out = append(out, slices.Clone(b))
	}
	return out, nil
}

func TestGatherGivesFullBatchesAndAShorterLast(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n     int
		sizes []int
	}{
		{"no rows, no batch", 0, nil},
		{"one row, one batch", 1, []int{1}},
		{"a batch exactly", 3, []int{3}},
		{"a batch and one row", 4, []int{3, 1}},
		{"three batches", 9, []int{3, 3, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := collect(Gather(seqOf(tc.n, -1), 3))
			require.NoError(t, err)
			var sizes []int
			var all []int
			for _, b := range got {
				sizes = append(sizes, len(b))
				all = append(all, b...)
			}
			assert.Equal(t, tc.sizes, sizes)
			for i, v := range all {
				assert.Equal(t, i, v)
			}
			assert.Len(t, all, tc.n)
		})
	}
}

func TestGatherYieldsTheSequencesErrorAndStops(t *testing.T) {
	got, err := collect(Gather(seqOf(10, 4), 3))
	require.EqualError(t, err, "row failed")
	assert.Equal(t, [][]int{{0, 1, 2}}, got)
}

func TestCutSplitsLargePagesAndSkipsEmptyOnes(t *testing.T) {
	pages := func(yield func([]int, error) bool) {
		for _, p := range [][]int{{0, 1, 2, 3, 4}, nil, {5}, {6, 7, 8}} {
			if !yield(p, nil) {
				return
			}
		}
	}
	got, err := collect(Cut(pages, 2))
	require.NoError(t, err)
	assert.Equal(t, [][]int{{0, 1}, {2, 3}, {4}, {5}, {6, 7}, {8}}, got)
}

func TestCutYieldsThePagesErrorAndStops(t *testing.T) {
	pages := func(yield func([]int, error) bool) {
		if yield([]int{1}, nil) {
			yield(nil, errors.New("page failed"))
		}
	}
	got, err := collect(Cut(pages, 2))
	require.EqualError(t, err, "page failed")
	assert.Equal(t, [][]int{{1}}, got)
}

func TestOneIsTheRowsAsOnePage(t *testing.T) {
	got, err := collect(One([]int{1, 2, 3}))
	require.NoError(t, err)
	assert.Equal(t, [][]int{{1, 2, 3}}, got)
}

func TestASequenceThatGoesOnAfterItWasStoppedIsIgnored(t *testing.T) {
	rows := func(yield func(int, error) bool) {
		yield(1, nil)
		yield(0, errors.New("row failed"))
		yield(2, nil) // a caller's bug: it was told to stop
	}
	got, err := collect(Gather(rows, 3))
	require.EqualError(t, err, "row failed")
	assert.Empty(t, got)

	pages := func(yield func([]int, error) bool) {
		yield([]int{1}, errors.New("page failed"))
		yield([]int{2}, nil)
	}
	got, err = collect(Cut(pages, 3))
	require.EqualError(t, err, "page failed")
	assert.Empty(t, got)

	var seen [][]int
	for b := range Gather(func(yield func(int, error) bool) {
		for i := range 10 {
			yield(i, nil) // never looks at yield's answer
		}
	}, 2) {
		seen = append(seen, slices.Clone(b))
		break
	}
	assert.Equal(t, [][]int{{0, 1}}, seen)
}
