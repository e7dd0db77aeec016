package main

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// boundedAllocator refuses any single allocation larger than what the
// input read so far could need: a corrupt file that claims a huge length
// makes arrow-go allocate it before reading the bytes behind it, and the
// machine would run out of memory rather than the command report a bad
// file. The bound is 64 MiB plus 64 times the bytes read (decompression
// expands): a file's size, or what a stream gave so far.
type boundedAllocator struct {
	memory.Allocator
	read func() int64
}

// tooLarge is the panic of a refused allocation, which the readers and
// run report as a corrupt input.
type tooLarge struct{ size, limit int64 }

func (e tooLarge) Error() string {
	return fmt.Sprintf("the input asks for %d bytes at once, more than it could hold (%d): is it corrupt?", e.size, e.limit)
}

func (a *boundedAllocator) check(size int) {
	if limit := 64<<20 + 64*a.read(); int64(size) > limit {
		panic(tooLarge{int64(size), limit})
	}
}

func (a *boundedAllocator) Allocate(size int) []byte {
	a.check(size)
	return a.Allocator.Allocate(size)
}

func (a *boundedAllocator) Reallocate(size int, b []byte) []byte {
	a.check(size)
	return a.Allocator.Reallocate(size, b)
}
