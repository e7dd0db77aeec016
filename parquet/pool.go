package parquet

import (
	"math/bits"
	"sync"
	"unsafe"
)

// pool is the allocator of a Writer with no WriteConfig.Alloc: Go memory,
// as memory.DefaultAllocator's, but a buffer that arrow-go frees (the
// records the Writer builds, pqarrow's page and level buffers) is kept and
// handed out again, instead of left to the garbage collector. Writing
// allocates the same few dozen buffers for every batch; kept, they make the
// heap stay near what one row group needs, where the collector would let
// it grow to twice the caller's live heap before collecting.
//
// Buffers come in powers of two from 64 bytes, 64-byte aligned like
// memory.GoAllocator's, zeroed as make zeroes them; at most poolKeep of a
// size are kept.
//
// A pool let go (release) hands its buffers to spare, where the next
// Writer's pool finds them: a program writing file after file allocates
// its buffers once, not once a file, and the collector still frees what
// stays unused (spare is sync.Pools).
type pool struct {
	mu   sync.Mutex
	free [64][][]byte // by size class: buffers of 1<<class bytes
}

// spare holds, by size class, the buffers of released pools.
var spare [64]sync.Pool

const (
	poolAlign = 64
	poolMin   = 6 // the smallest class: 64 bytes
	poolKeep  = 16
)

func class(size int) int {
	if size <= 1<<poolMin {
		return poolMin
	}
	return bits.Len(uint(size - 1))
}

// Allocate returns size zeroed bytes.
func (p *pool) Allocate(size int) []byte {
	if size < 0 {
		panic("arrowmap/parquet: negative allocation")
	}
	c := class(size)
	p.mu.Lock()
	if n := len(p.free[c]); n > 0 {
		b := p.free[c][n-1]
		p.free[c][n-1] = nil
		p.free[c] = p.free[c][:n-1]
		p.mu.Unlock()
		b = b[:size]
		clear(b)
		return b
	}
	p.mu.Unlock()
	if b, ok := spare[c].Get().(*[]byte); ok {
		buf := (*b)[:size]
		clear(buf)
		return buf
	}
	full := 1 << c
	raw := make([]byte, full+poolAlign)
	off := 0
	if rem := int(uintptr(unsafe.Pointer(unsafe.SliceData(raw))) % poolAlign); rem != 0 {
		off = poolAlign - rem
	}
	return raw[off : off+size : off+full]
}

// Reallocate returns b grown or shrunk to size bytes, its contents kept
// and any new bytes zeroed.
func (p *pool) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) && class(size) == class(cap(b)) {
		old := len(b)
		b = b[:size]
		if size > old {
			clear(b[old:])
		}
		return b
	}
	nb := p.Allocate(size)
	copy(nb, b)
	p.Free(b)
	return nb
}

// Free keeps b for a later Allocate of its size class.
func (p *pool) Free(b []byte) {
	c := cap(b)
	if c < 1<<poolMin || c&(c-1) != 0 {
		return // not one of ours: left to the garbage collector
	}
	k := bits.Len(uint(c)) - 1
	p.mu.Lock()
	if len(p.free[k]) < poolKeep {
		p.free[k] = append(p.free[k], b[:0])
	}
	p.mu.Unlock()
}

// release hands the buffers kept to spare: the caller allocates no more
// from p, and what it allocated is freed (a buffer still in use must not be
// handed to the next pool).
func (p *pool) release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.free {
		for k, b := range p.free[c] {
			spare[c].Put(&b)
			p.free[c][k] = nil
		}
		p.free[c] = p.free[c][:0]
	}
}
