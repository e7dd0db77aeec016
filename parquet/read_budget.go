package parquet

import (
	"fmt"
	"math"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/arrowmap/arrowmap/internal/expansion"
	"github.com/arrowmap/arrowmap/mapper"
)

// budget is the allocator arrow-go reads a file's records with: it counts
// the bytes it holds, and while a record is decoded (open to close) it
// refuses to hold more than a limit, by a panic of overBudget that
// fileRecords.Next, on the same goroutine, recovers.
//
// What a record decodes to is not bounded by the pages it comes from:
// arrow-go writes out a dictionary-encoded column's values (v18.8.0, when
// the column is not read as a dictionary) one copy a row, so a file of one
// 1 MiB dictionary entry and 65,536 indices of it, 1 MiB on disk, is a
// record of 64 GiB, and a fault of the Go runtime, which no recover
// stops, before arrow-go returns. It cannot be told before arrow-go
// decodes the page; so each allocation is.
type budget struct {
	memory.Allocator
	held  atomic.Int64
	limit atomic.Int64 // math.MaxInt64 but while a record is decoded
	allow atomic.Int64 // what open allowed, for the error
}

func newBudget(mem memory.Allocator) *budget {
	b := &budget{Allocator: mem}
	b.limit.Store(math.MaxInt64)
	return b
}

// overBudget is the panic of an allocation past the limit: the bytes the
// record's decoding was allowed.
type overBudget struct{ allow int64 }

func (b *budget) take(n int64) {
	if n <= 0 {
		b.held.Add(n)
		return
	}
	held := b.held.Add(n)
	if limit := b.limit.Load(); held > limit {
		b.held.Add(-n)
		panic(overBudget{allow: b.allow.Load()})
	}
}

func (b *budget) Allocate(size int) []byte {
	b.take(int64(size))
	return b.Allocator.Allocate(size)
}

func (b *budget) Reallocate(size int, buf []byte) []byte {
	b.take(int64(size - len(buf)))
	return b.Allocator.Reallocate(size, buf)
}

func (b *budget) Free(buf []byte) {
	b.held.Add(-int64(len(buf)))
	b.Allocator.Free(buf)
}

// open lets the decoding of a record hold up to allow bytes more than is
// held now; close lifts the limit. Both do nothing on a nil budget (a
// pqarrow.FileReader of the caller's, whose allocator is the caller's).
func (b *budget) open(allow int64) {
	if b == nil {
		return
	}
	b.allow.Store(allow)
	held := b.held.Load()
	b.limit.Store(held + min(allow, math.MaxInt64-held))
}

func (b *budget) close() {
	if b != nil {
		b.limit.Store(math.MaxInt64)
	}
}

// recordBudget is what decoding one record may allocate, with backed
// bytes of column chunks behind the records: what mapper.MaxExpansion
// allows for them, and twice the largest page the file may have (its
// bytes and its values), which ReadConfig.MaxPageSize bounds.
func (s *source) recordBudget(backed int64) int64 {
	allow := expansion.Limit(backed, s.ratio)
	if s.pages != nil {
		allow += min(2*s.pages.maxPage, math.MaxInt64-allow)
	}
	return allow
}

// tooLarge is the error of the record from row of src that would have
// made the reader allocate more than its budget, with backed bytes of
// column chunks behind the records.
func (o overBudget) tooLarge(src *source, row, backed int64) error {
	ratio := src.ratio
	if ratio <= 0 {
		ratio = expansion.DefaultRatio
	}
	return fmt.Errorf("arrowmap/parquet: %s: %w: the record from row %d would allocate more than %d bytes: "+
		"64 MiB plus %d times the %d bytes of the column chunks read (mapper.MaxExpansion), "+
		"and twice the largest page (ReadConfig.MaxPageSize); a dictionary's values are written out "+
		"for each row: raise mapper.MaxExpansion, or read fewer rows a record (ReadConfig.BatchRows)",
		src.name, mapper.ErrTooLarge, row, o.allow, ratio, backed)
}
