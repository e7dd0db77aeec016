package mapper

import (
	"reflect"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Builder builds record batches of rows of T, with the schema SchemaOf[T]:
// Append rows as they come, then take them as one record with
// NewRecordBatch, as many times as needed.
//
//	b, err := mapper.NewBuilder[Order]()
//	if err != nil { … }
//	defer b.Release()
//	for page := range pages {
//		if err := b.Append(page...); err != nil { … }
//	}
//	rec := b.NewRecordBatch()
//	defer rec.Release()
//
// A Builder keeps its Arrow builders and its scratch memory from one batch
// to the next, and holds the rows of its last Append until the next one or
// Release. It is not safe for concurrent use.
type Builder[T any] struct{ w *recordWriter }

// NewBuilder compiles the plan for T (once per T and options, as Encode
// does) and makes the Arrow builders of its columns, with the allocator of
// WithAllocator. It fails as SchemaOf does.
func NewBuilder[T any](opts ...WriteOption) (*Builder[T], error) {
	o, err := optionsFor("NewBuilder", encodeOptions, opts)
	if err != nil {
		return nil, err
	}
	p, err := cachedEncodePlan(reflect.TypeFor[T](), o)
	if err != nil {
		return nil, err
	}
	return &Builder[T]{newRecordWriter(p, o.mem)}, nil
}

// Append appends rows to the batch being built. A value that does not fit
// its column is an *Error naming the field (Path), the column and the row
// (counted from the start of the batch); then nothing of rows is appended
// and the Builder holds what it held before.
func (b *Builder[T]) Append(rows ...T) error {
	if b.w == nil {
		panic("arrowmap: Builder.Append after Release")
	}
	return b.w.append(unsafe.Pointer(unsafe.SliceData(rows)), len(rows))
}

// NewRecordBatch returns the rows appended since the last call as a record
// batch, which the caller must release, and starts a new batch.
func (b *Builder[T]) NewRecordBatch() arrow.RecordBatch {
	if b.w == nil {
		panic("arrowmap: Builder.NewRecordBatch after Release")
	}
	return b.w.newRecordBatch()
}

// Release frees the Arrow memory of the batch being built. The Builder
// cannot be used afterwards; releasing it again does nothing.
func (b *Builder[T]) Release() {
	if b.w != nil {
		b.w.release()
		b.w = nil
	}
}

// recordWriter is a Builder without its row type, whose size the plan
// knows.
type recordWriter struct {
	plan   *encodePlan
	mem    memory.Allocator
	cols   []columnBuilder // one per field of the schema
	fields fieldWriters
	top    [1]valueRun
	values goValues
	rows   int // rows appended since the last record
}

func newRecordWriter(p *encodePlan, mem memory.Allocator) *recordWriter {
	return newRecordWriterWith(p, mem, newColumnBuilder)
}

// newRecordWriterWith is newRecordWriter with the builders of the columns
// made by newBuilder.
func newRecordWriterWith(p *encodePlan, mem memory.Allocator, newBuilder func(memory.Allocator, arrow.DataType) columnBuilder) *recordWriter {
	w := &recordWriter{plan: p, mem: mem, cols: make([]columnBuilder, p.schema.NumFields())}
	for i, f := range p.schema.Fields() {
		w.cols[i] = newBuilder(mem, f.Type)
	}
	w.fields = bindFields(p.fields, func(i int) columnBuilder { return w.cols[i] })
	return w
}

// append appends the n rows at base.
func (w *recordWriter) append(base unsafe.Pointer, n int) error {
	if n == 0 {
		return nil
	}
	w.values = topValues(w.top[:], base, n, w.plan.rowType.Size(), w.rows)
	if err := w.fields.prepare(&w.values); err != nil {
		return err
	}
	w.fields.write()
	w.rows += n
	return nil
}

func (w *recordWriter) newRecordBatch() arrow.RecordBatch {
	cols := make([]arrow.Array, len(w.cols))
	for i, cb := range w.cols {
		cols[i] = cb.NewArray()
	}
	rec := array.NewRecordBatch(w.plan.schema, cols, int64(w.rows))
	for _, col := range cols {
		col.Release()
	}
	w.rows = 0
	return rec
}

func (w *recordWriter) release() {
	for _, cb := range w.cols {
		cb.Release()
	}
}

// writerFor is a recordWriter of p for one Encode: from the plan's pool
// when it allocates with the default allocator, so that Encode reuses the
// builders and scratch memory of earlier calls, as a Builder does.
func (p *encodePlan) writerFor(mem memory.Allocator) *recordWriter {
	if mem == memory.DefaultAllocator {
		if w, ok := p.writers.Get().(*recordWriter); ok {
			return w
		}
	}
	return newRecordWriter(p, mem)
}

// done takes back a writer of writerFor, which holds no rows.
func (p *encodePlan) done(w *recordWriter) {
	if w.mem == memory.DefaultAllocator {
		p.writers.Put(w)
		return
	}
	w.release()
}
