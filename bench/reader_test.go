package bench

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
)

// Prim is a record of primitive columns only: decoding a page of it needs
// no memory of its own, so what a Reader allocates is its own overhead.
type Prim struct {
	ID    int64   `arrow:"id"`
	Price float64 `arrow:"price"`
	Qty   int32   `arrow:"qty"`
	OK    bool    `arrow:"ok"`
}

var primSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "price", Type: arrow.PrimitiveTypes.Float64},
	{Name: "qty", Type: arrow.PrimitiveTypes.Int32},
	{Name: "ok", Type: arrow.FixedWidthTypes.Boolean},
}, nil)

// primRecord is a record of n Prim rows.
func primRecord(mem memory.Allocator, n int) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, primSchema)
	defer b.Release()
	b.Reserve(n)
	ids := b.Field(0).(*array.Int64Builder)
	price := b.Field(1).(*array.Float64Builder)
	qty := b.Field(2).(*array.Int32Builder)
	ok := b.Field(3).(*array.BooleanBuilder)
	for i := range n {
		ids.Append(int64(i))
		price.Append(float64(i) * 0.25)
		qty.Append(int32(i % 1000))
		ok.Append(i%3 == 0)
	}
	return b.NewRecordBatch()
}

// streamBatchRows is the size of the record batches of the IPC streams read.
const streamBatchRows = 64 * 1024

// streams caches the IPC streams of the Reader benchmarks, by record kind.
var streams = struct {
	sync.Mutex
	m map[string][]byte
}{m: map[string][]byte{}}

// ipcStream is the IPC stream of n rows of kind ("flat", "primitives"), in
// batches of streamBatchRows, written once by arrow-go's writer.
func ipcStream(b *testing.B, kind string, n int) []byte {
	streams.Lock()
	defer streams.Unlock()
	key := kind + "/" + rows(n)
	if data, ok := streams.m[key]; ok {
		return data
	}
	var rec arrow.RecordBatch
	switch kind {
	case "flat":
		rec = record("flat", n) // cached, not released
		rec.Retain()
	case "primitives":
		rec = primRecord(memory.DefaultAllocator, n)
	}
	defer rec.Release()
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(rec.Schema()))
	for i := 0; i < n; i += streamBatchRows {
		batch := rec.NewSlice(int64(i), int64(min(i+streamBatchRows, n)))
		err := w.Write(batch)
		batch.Release()
		if err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	streams.m[key] = buf.Bytes()
	return buf.Bytes()
}

// readWhole decodes each batch of the stream whole, appending to dst.
func readWhole[T any](b *testing.B, data []byte, dst []T) []T {
	rr, err := ipc.NewReader(bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	defer rr.Release()
	m, err := mapper.New[T](rr.Schema())
	if err != nil {
		b.Fatal(err)
	}
	for rr.Next() {
		if dst, err = m.Append(dst, rr.RecordBatch()); err != nil {
			b.Fatal(err)
		}
	}
	if err := rr.Err(); err != nil && !errors.Is(err, io.EOF) {
		b.Fatal(err)
	}
	return dst
}

// readPages reads the stream through a Reader in pages of size rows,
// copying each page to dst.
func readPages[T any](b *testing.B, data []byte, size int, dst []T) []T {
	rr, err := ipc.NewReader(bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	defer rr.Release()
	r, err := mapper.NewReader[T](rr)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Release()
	for page, err := range r.Pages(size) {
		if err != nil {
			b.Fatal(err)
		}
		dst = append(dst, page...)
	}
	return dst
}

const readerPage = 4096

// BenchmarkReader reads an IPC stream of 1M rows in batches of 64k, decoding
// each batch whole (whole) or through a Reader in pages of 4096 rows
// (pages4096), into one preallocated slice. allocs/page, what the Reader
// allocates beyond whole per page, is constant: a few string arenas for
// flat, none for primitives.
func BenchmarkReader(b *testing.B) {
	b.Run("flat_1M", func(b *testing.B) { benchReader[Flat](b, "flat", 1_000_000) })
	b.Run("primitives_1M", func(b *testing.B) { benchReader[Prim](b, "primitives", 1_000_000) })
}

func benchReader[T any](b *testing.B, kind string, n int) {
	data := ipcStream(b, kind, n)
	dst := make([]T, 0, n)
	variants := []struct {
		name string
		read func() []T
	}{
		{"whole", func() []T { return readWhole(b, data, dst[:0]) }},
		{"pages4096", func() []T { return readPages(b, data, readerPage, dst[:0]) }},
	}
	want := append([]T(nil), variants[0].read()...)
	if len(want) != n {
		b.Fatalf("whole reads %d rows, want %d", len(want), n)
	}
	// What whole allocates per read, measured here so that allocs/page is
	// right when pages4096 runs alone.
	wholeAllocs := testing.AllocsPerRun(1, func() { sink = variants[0].read() })
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			if got := v.read(); !equalRows(got, want) {
				b.Fatalf("%s reads differently from whole: %s", v.name, firstDifference(got, want))
			}
			var before, after runtime.MemStats
			b.ReportAllocs()
			runtime.ReadMemStats(&before)
			b.ResetTimer()
			for b.Loop() {
				sink = v.read()
			}
			b.StopTimer()
			runtime.ReadMemStats(&after)
			allocs := float64(after.Mallocs-before.Mallocs) / float64(b.N)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/row")
			if v.name == "whole" {
				return
			}
			// The IPC reader allocates the same per batch either way.
			pages := (n + readerPage - 1) / readerPage
			b.ReportMetric((allocs-wholeAllocs)/float64(pages), "allocs/page")
		})
	}
}
