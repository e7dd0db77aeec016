// Package batches cuts the rows of an ingest into the batches its entry
// points encode: rows gathered, pages cut, so that IngestSeq (rows) and
// IngestPages (pages) of flightsql and adbc are one path each, not a copy.
package batches

import "iter"

// Gather is rows in slices of n (the last may be shorter; none is empty).
// The slice is one buffer, reused: a batch must be done with before the
// next is asked for. An error of rows is yielded as it is, and ends it.
//
// rows is called, not ranged over: a caller's sequence that goes on
// yielding after it was told to stop is then ignored, where a range
// statement would panic.
func Gather[T any](rows iter.Seq2[T, error], n int) iter.Seq2[[]T, error] {
	return func(yield func([]T, error) bool) {
		buf := make([]T, 0, min(n, 4096))
		done := false
		rows(func(row T, err error) bool {
			switch {
			case done:
			case err != nil:
				yield(nil, err)
				done = true
			default:
				if buf = append(buf, row); len(buf) == n {
					done = !yield(buf, nil)
					buf = buf[:0]
				}
			}
			return !done
		})
		if !done && len(buf) > 0 {
			yield(buf, nil)
		}
	}
}

// Cut is pages cut into slices of at most n rows, in order; an empty page
// yields nothing. An error of pages is yielded as it is, and ends it. As
// Gather does, it ignores a sequence that goes on after it was stopped.
func Cut[T any](pages iter.Seq2[[]T, error], n int) iter.Seq2[[]T, error] {
	return func(yield func([]T, error) bool) {
		done := false
		pages(func(page []T, err error) bool {
			if done {
				return false
			}
			if err != nil {
				yield(nil, err)
				done = true
				return false
			}
			for len(page) > 0 && !done {
				part := page[:min(n, len(page))]
				page = page[len(part):]
				done = !yield(part, nil)
			}
			return !done
		})
	}
}

// One is rows as a sequence of one page.
func One[T any](rows []T) iter.Seq2[[]T, error] {
	return func(yield func([]T, error) bool) { yield(rows, nil) }
}
