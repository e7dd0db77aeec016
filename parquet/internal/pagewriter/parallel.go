package pagewriter

import (
	"cmp"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// eachLeaf runs write on every leaf, each with a page scratch of its own
// goroutine: on d.workers goroutines at once (the caller's one of them),
// which take the leaves that took longest on the last record first, so
// that a long text column does not start last. A leaf's chunk is its own
// (its page buffers, dictionary, statistics, bloom filter and pages held
// until the row group ends), and the file's writer properties and codec
// are only read, so its leaves are written at once; the chunks go to the
// io.Writer one after the other, in leaf order, when the row group ends.
//
// The error is that of the first leaf in leaf order that failed, a panic
// an error naming its column: no panic escapes on any goroutine.
func (d *File) eachLeaf(write func(*leafWriter, *pageScratch) error) error {
	if d.workers <= 1 {
		for _, lw := range d.leaves {
			if err := guarded(lw, &d.scratch[0], write); err != nil {
				return err
			}
		}
		return nil
	}
	errs := make([]error, len(d.leaves))
	var next atomic.Int64
	run := func(sc *pageScratch) {
		for {
			k := int(next.Add(1) - 1)
			if k >= len(d.order) {
				return
			}
			lw := d.order[k]
			start := time.Now()
			errs[lw.index] = guarded(lw, sc, write)
			lw.took = time.Since(start)
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < d.workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run(&d.scratch[w])
		}()
	}
	run(&d.scratch[0])
	wg.Wait()
	slices.SortStableFunc(d.order, func(a, b *leafWriter) int { return cmp.Compare(b.took, a.took) })
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// guarded is write(lw, sc), a panic of it an error naming the column.
func guarded(lw *leafWriter, sc *pageScratch, write func(*leafWriter, *pageScratch) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("column %s: %v", lw.descr.Path(), p)
		}
	}()
	return write(lw, sc)
}
