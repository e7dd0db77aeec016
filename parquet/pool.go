package parquet

import (
	"math/bits"
	"sync"
	"unsafe"
	"weak"
)

// pool is the allocator of a Writer without mapper.Allocator: Go memory,
// as memory.DefaultAllocator's, but a buffer that arrow-go frees (the
// records the Writer builds, pqarrow's page and level buffers) is kept and
// handed out again, instead of left to the garbage collector. Writing
// allocates the same few dozen buffers for every batch; kept, they make the
// heap stay near what one row group needs, where the collector would let
// it grow to twice the caller's live heap before collecting.
//
// Buffers come in powers of two from 64 bytes, 64-byte aligned like
// memory.GoAllocator's, zeroed as make zeroes them; at most poolKeep of a
// size are kept. A buffer is handed out with its capacity equal to its
// length, as memory.GoAllocator's: arrow-go's builders take cap() as room
// they may append to without Reallocate, but write within len(), so a
// buffer with more capacity than length is overrun (the Take kernel of a
// dictionary cast panics on one). The pool finds the size class of a buffer
// it is handed back through out, by the buffer's first byte.
//
// A pool let go (release) hands its buffers to spare, where the next
// Writer's pool finds them: a program writing file after file allocates
// its buffers once, not once a file, and the collector still frees what
// stays unused (spare is sync.Pools).
type pool struct {
	mu   sync.Mutex
	free [64][][]byte // by size class: buffers of 1<<class bytes, their full capacity
	// out is each buffer handed out and not yet freed, by the address of
	// its first byte. Its weak pointer tells one of the pool's buffers from
	// another's at the same address (once the collector took a buffer that
	// arrow-go dropped without freeing it, its weak pointer is nil), and
	// keeps no buffer alive.
	out     map[uintptr]lent
	sweepAt int // the size of out at which the entries of collected buffers are dropped
}

// lent is a buffer handed out: a weak pointer to its first byte, and its
// size class.
type lent struct {
	first weak.Pointer[byte]
	class uint8
}

// spare holds, by size class, the buffers of released pools.
var spare [64]sync.Pool

const (
	poolAlign = 64
	poolMin   = 6 // the smallest class: 64 bytes
	poolKeep  = 16
	poolSweep = 1024 // the least size of out that is swept
)

func class(size int) int {
	if size <= 1<<poolMin {
		return poolMin
	}
	return bits.Len(uint(size - 1))
}

// Allocate returns size zeroed bytes, with a capacity of size.
func (p *pool) Allocate(size int) []byte {
	if size < 0 {
		panic("arrowmap/parquet: negative allocation")
	}
	c := class(size)
	var full []byte
	p.mu.Lock()
	if n := len(p.free[c]); n > 0 {
		full = p.free[c][n-1]
		p.free[c][n-1] = nil
		p.free[c] = p.free[c][:n-1]
	}
	p.mu.Unlock()
	if full == nil {
		if b, ok := spare[c].Get().(*[]byte); ok {
			full = *b
		}
	}
	if full == nil {
		raw := make([]byte, 1<<c+poolAlign)
		off := 0
		if rem := int(uintptr(unsafe.Pointer(unsafe.SliceData(raw))) % poolAlign); rem != 0 {
			off = poolAlign - rem
		}
		full = raw[off : off+1<<c : off+1<<c]
	} else {
		clear(full[:size])
	}
	p.lend(full, c)
	return full[:size:size]
}

// lend records full, a buffer of class c, as handed out.
func (p *pool) lend(full []byte, c int) {
	first := unsafe.SliceData(full)
	wp := weak.Make(first)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.out == nil {
		p.out = make(map[uintptr]lent)
	}
	p.out[uintptr(unsafe.Pointer(first))] = lent{first: wp, class: uint8(c)}
	if len(p.out) >= max(p.sweepAt, poolSweep) {
		for k, l := range p.out {
			if l.first.Value() == nil {
				delete(p.out, k)
			}
		}
		p.sweepAt = 2 * len(p.out)
	}
}

// classOf is the size class of b, a buffer handed out and not freed, and
// whether b is one. The caller holds p.mu.
func (p *pool) classOf(b []byte) (int, bool) {
	first := unsafe.SliceData(b)
	l, ok := p.out[uintptr(unsafe.Pointer(first))]
	if !ok || l.first.Value() != first {
		return 0, false
	}
	return int(l.class), true
}

// Reallocate returns b grown or shrunk to size bytes, its contents kept
// and any new bytes zeroed, with a capacity of size.
func (p *pool) Reallocate(size int, b []byte) []byte {
	p.mu.Lock()
	c, ok := p.classOf(b)
	p.mu.Unlock()
	if ok && class(size) == c {
		full := unsafe.Slice(unsafe.SliceData(b), 1<<c)
		if size > len(b) {
			clear(full[len(b):size])
		}
		return full[:size:size]
	}
	nb := p.Allocate(size)
	copy(nb, b)
	p.Free(b)
	return nb
}

// Free keeps b for a later Allocate of its size class. A buffer the pool
// did not hand out, or freed already, is left to the garbage collector.
func (p *pool) Free(b []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	c, ok := p.classOf(b)
	if !ok {
		return
	}
	delete(p.out, uintptr(unsafe.Pointer(unsafe.SliceData(b))))
	if len(p.free[c]) < poolKeep {
		p.free[c] = append(p.free[c], unsafe.Slice(unsafe.SliceData(b), 1<<c))
	}
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
	clear(p.out)
	p.sweepAt = 0
}
