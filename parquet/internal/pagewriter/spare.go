package pagewriter

import (
	"runtime"
	"slices"
	"sync"
)

// spareList holds values a closed writer leaves for the next writer to
// take (its buffers, grown to what its columns needed) until two garbage
// collections have passed with no writer taking them, as a sync.Pool holds
// its values, but any goroutine takes what any goroutine put: a sync.Pool
// keeps one value per P where only a Get on that P finds it, and a
// program's next writer runs on any P (measured: the next Writer of
// TPC-H's lineitem found its buffers in a sync.Pool in one run of three,
// and allocated 50 MB afresh in the others). It holds at most spareKeep
// values.
type spareList[T any] struct {
	mu         sync.Mutex
	fresh, old []T  // put since the last collection; put before it
	armed      bool // a collection will rotate fresh and old
	rotations  int
}

const spareKeep = 4

// put leaves v for a taker.
func (l *spareList[T]) put(v T) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.fresh) == spareKeep {
		l.fresh = l.fresh[1:]
	}
	l.fresh = append(l.fresh, v)
	l.arm()
}

// take is the value put last of those fit reports true of, else the
// value put last, and whether there is one.
func (l *spareList[T]) take(fit func(T) bool) (v T, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	lists := []*[]T{&l.fresh, &l.old}
	for _, list := range lists {
		for i := len(*list) - 1; i >= 0; i-- {
			if fit((*list)[i]) {
				return l.remove(list, i), true
			}
		}
	}
	for _, list := range lists {
		if n := len(*list); n > 0 {
			return l.remove(list, n-1), true
		}
	}
	return v, false
}

// remove takes value i out of list. The caller holds l.mu.
func (l *spareList[T]) remove(list *[]T, i int) T {
	v := (*list)[i]
	*list = slices.Delete(*list, i, i+1) // zeroes the last element
	return v
}

// arm makes the next collection rotate the lists, unless one will. The
// caller holds l.mu.
func (l *spareList[T]) arm() {
	if l.armed {
		return
	}
	l.armed = true
	// The sentinel is unreachable at once: the collector's next cycle
	// runs the cleanup. (Of 32 bytes: the allocator packs smaller
	// pointer-free objects into blocks it frees only whole.)
	runtime.AddCleanup(new([32]byte), (*spareList[T]).rotate, l)
}

// rotate drops what was put before the last collection and keeps what was
// put since it for one more.
func (l *spareList[T]) rotate() {
	l.mu.Lock()
	defer l.mu.Unlock()
	clear(l.old)
	l.old, l.fresh = l.fresh, l.old[:0]
	l.armed = false
	l.rotations++
	if len(l.old) > 0 {
		l.arm()
	}
}
