package main

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// boundedAllocator refuses any single allocation larger than its limit: a
// corrupt file that claims a huge length makes arrow-go allocate it before
// reading the bytes behind it, and the machine would run out of memory
// rather than the command report a bad file.
type boundedAllocator struct {
	memory.Allocator
	limit int
}

// tooLarge is the panic of a refused allocation, which run reports as a
// corrupt input.
type tooLarge struct{ size, limit int }

func (e tooLarge) Error() string {
	return fmt.Sprintf("the input asks for %d bytes at once, more than it could hold (%d): is it corrupt?", e.size, e.limit)
}

// boundedFor is an allocator bounded by what an input of n bytes could
// need: its size many times over (decompression expands), and never less
// than 64 MiB.
func boundedFor(n int) memory.Allocator {
	return &boundedAllocator{Allocator: memory.DefaultAllocator, limit: 64<<20 + 64*n}
}

func (a *boundedAllocator) Allocate(size int) []byte {
	if size > a.limit {
		panic(tooLarge{size, a.limit})
	}
	return a.Allocator.Allocate(size)
}

func (a *boundedAllocator) Reallocate(size int, b []byte) []byte {
	if size > a.limit {
		panic(tooLarge{size, a.limit})
	}
	return a.Allocator.Reallocate(size, b)
}
