package mapper

import (
	"cmp"
	"errors"
	"reflect"
	"slices"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/arrowmap/arrowmap/slice"
	"github.com/arrowmap/arrowmap/views"
)

// Decode decodes every row of rec into a []T, through a plan cached per
// (T, the columns it reads, plan options): after the first call for a
// schema it is as fast as a reused Mapper. Plans built with As are not
// cached.
func Decode[T any](rec arrow.RecordBatch, opts ...Option) ([]T, error) {
	if rec == nil {
		return nil, newError(ErrInvalidData, "", "", -1, "nil record")
	}
	m, err := newMapper[T]("Decode", rec.Schema(), opts)
	if err != nil {
		return nil, err
	}
	return m.Decode(rec)
}

// Mapper decodes records of one schema into values of struct type T. It is
// immutable after New and safe for concurrent use.
type Mapper[T any] struct{ mapping }

// mapping is a binding: a plan as one entry point applies it, to records
// of its schema (which the plan may have been compiled for another of,
// with the same planned columns) with call options.
type mapping struct {
	plan   *plan
	schema *arrow.Schema
	run    runOptions
}

// New returns the Mapper of records of schema into T, with the plan that
// maps them: compiled once per (T, the columns it reads, plan options) and
// cached. Everything that can be checked without data is checked here:
// each field's column (ErrMissingColumn), its Arrow type
// (ErrTypeMismatch), its tags (ErrTag) and its Go type (ErrUnsupported).
// Errors are *Error values naming the field and the column.
//
// New takes the decode options: Strict, AllowMissing, SnakeCase,
// RejectExtraColumns, LastKeyWins and As define the plan; ZeroCopy and
// Parallelism steer the Mapper's decoding.
func New[T any](schema *arrow.Schema, opts ...Option) (*Mapper[T], error) {
	return newMapper[T]("New", schema, opts)
}

func newMapper[T any](entry string, schema *arrow.Schema, opts []Option) (*Mapper[T], error) {
	o, err := optionsFor(entry, decodeOptions, opts)
	if err != nil {
		return nil, err
	}
	p, err := cachedDecodePlan(reflect.TypeFor[T](), schema, o)
	if err != nil {
		return nil, err
	}
	return &Mapper[T]{mapping{plan: p, schema: schema, run: o.run()}}, nil
}

// Schema is the schema the Mapper was built for.
func (m *Mapper[T]) Schema() *arrow.Schema { return m.schema }

// View validates the planned columns of rec once and returns the Batch of
// all its rows. Columns no field uses are neither viewed nor validated. A
// null that a field cannot hold is ErrNull with the first such row;
// malformed buffers are ErrInvalidData. rec must stay alive while the Batch
// is used.
func (m *Mapper[T]) View(rec arrow.RecordBatch) (Batch[T], error) {
	b, err := m.view(rec)
	if err != nil {
		return Batch[T]{}, err
	}
	return Batch[T]{b}, nil
}

// view is View without the row type. rec's schema may be another object
// than m's, but must agree with it on every planned column.
func (m mapping) view(rec arrow.RecordBatch) (batch, error) {
	p := m.plan
	if rec == nil {
		return batch{}, newError(ErrInvalidData, "", "", -1, "nil record")
	}
	rows := rec.NumRows()
	if rows < 0 || rows > maxRecordRows {
		return batch{}, newError(ErrInvalidData, "", "", -1, "a record of %d rows", rows)
	}
	recSchema := rec.Schema()
	cols := make([]views.View, len(p.columns))
	for k := range p.columns {
		col := &p.columns[k]
		if recSchema != m.schema && !col.in(recSchema) { // m's was checked when m was made
			return batch{}, newError(ErrTypeMismatch, col.codec.path, col.name, -1,
				"the record's schema differs from the Mapper's: build a Mapper for it")
		}
		v, err := views.Of(rec.Column(col.index), col.vt)
		if err != nil {
			return batch{}, viewError(col, err)
		}
		if int64(v.Len()) != rows {
			return batch{}, newError(ErrInvalidData, col.codec.path, col.name, -1, "%d rows in a record of %d", v.Len(), rows)
		}
		cols[k] = v
	}
	b := batch{plan: p, cols: cols, call: &call{runOptions: m.run}, w: slice.Whole(int(rec.NumRows()))}
	if p.prep {
		c := b.call
		c.slots = make([]unsafe.Pointer, p.slots)
		for k := range p.columns {
			c.top = true
			if err := p.columns[k].codec.prepareView(cols[k], c); err != nil {
				return batch{}, err
			}
		}
	}
	return b, nil
}

// maxRecordRows bounds a record's row count as views bounds an array's
// length: a count no column backs must not reach index arithmetic unchecked.
const maxRecordRows = 1 << 48

// viewError turns a views error into an *Error naming the Go field.
func viewError(col *column, err error) error {
	var ve *views.Error
	if !errors.As(err, &ve) {
		return &Error{Path: col.codec.path, Column: col.name, Row: -1, Err: err}
	}
	path := ve.Label
	if path == "" {
		path = col.codec.path
	}
	column := col.name
	if ve.Column != "" { // "" is the column's own array
		column = joinPath(col.name, ve.Column)
	}
	// The Error says where; keep only what the views error says went wrong.
	var what error = ve.Err
	if ve.Detail != "" {
		what = &detail{kind: ve.Err, msg: ve.Detail}
	}
	return &Error{Path: path, Column: column, Row: ve.Row, Err: what}
}

// Decode decodes every row of rec.
func (m *Mapper[T]) Decode(rec arrow.RecordBatch) ([]T, error) {
	return m.Append(nil, rec)
}

// Append decodes every row of rec and appends them to dst. On any error it
// returns dst unchanged.
func (m *Mapper[T]) Append(dst []T, rec arrow.RecordBatch) ([]T, error) {
	b, err := m.View(rec)
	if err != nil {
		return dst, err
	}
	return b.Append(dst), nil
}

// Batch is a window of rows of a validated record. It is a small value:
// copying and slicing it are cheap and allocate nothing.
type Batch[T any] struct{ batch }

// batch is a Batch without its row type: the plan knows the type's size.
// DecodeTo, for types built at run time, uses it directly.
type batch struct {
	plan *plan
	cols []views.View // one per planned column, over the whole record
	// call is made once per View, not per decode: decoders take it through
	// an interface, so a fresh one would escape to the heap at every page.
	// Decoding only reads it.
	call *call
	w    slice.Window
}

// Len is the number of rows in the batch.
func (b Batch[T]) Len() int { return b.w.Len }

// Slice is the batch of rows [i, j). It panics when the bounds are out of
// range, like a Go slice expression. Nothing is validated again.
func (b Batch[T]) Slice(i, j int) Batch[T] {
	b.w = b.w.Slice(i, j)
	return b
}

// Row overwrites *dst with row i.
func (b Batch[T]) Row(i int, dst *T) {
	row := b.Slice(i, i+1)
	var zero T
	*dst = zero
	row.decode(unsafe.Pointer(dst), nil)
}

// Append decodes the rows of the batch and appends them to dst, growing it
// once.
func (b Batch[T]) Append(dst []T) []T {
	n := b.w.Len
	if n == 0 {
		return dst
	}
	if cap(dst)-len(dst) < n {
		// Fresh memory is zero already; grow like append, to amortise.
		grown := growRows(dst, n, -1, -1)
		b.decode(unsafe.Pointer(unsafe.SliceData(grown[len(dst):len(dst)+n])), nil)
		return grown[:len(dst)+n]
	}
	out := dst[len(dst) : len(dst)+n]
	b.decode(unsafe.Pointer(unsafe.SliceData(out)), func(i, j int) { clear(out[i:j]) })
	return dst[:len(dst)+n]
}

// minParallelRows is the fewest rows worth a goroutine of their own.
const minParallelRows = 4096

// defaultTileRows is how many rows the inPlace columns decode at a time:
// enough for long column loops, few enough that the rows stay in cache.
const defaultTileRows = 2048

// decode writes the rows of b to consecutive rows of the plan's type at
// base. Those rows are zero, or clearRows zeroes rows [i, j) of them: each
// window clears its own rows, so that reused memory is cleared in parallel.
func (b batch) decode(base unsafe.Pointer, clearRows func(i, j int)) {
	p := b.plan
	rows := strided{base, p.rowType.Size()}
	parts := min(b.call.parallelism, b.w.Len/minParallelRows)
	if parts <= 1 {
		b.decodeWindow(0, b.w.Len, rows, clearRows)
		return
	}
	var wg sync.WaitGroup
	for k := range parts {
		i, j := b.w.Len*k/parts, b.w.Len*(k+1)/parts
		wg.Go(func() { b.decodeWindow(i, j, rows.from(i), clearRows) })
	}
	wg.Wait()
}

// decodeWindow decodes rows [i, j) of b to rows (row i of b at rows.at(0)):
// the inPlace columns a tile of rows at a time, each tile cleared first
// when clearRows is set, then the other columns over the whole window.
func (b batch) decodeWindow(i, j int, rows strided, clearRows func(i, j int)) {
	if len(b.plan.tiled) == 0 && clearRows != nil {
		clearRows(i, j)
	}
	tile := cmp.Or(b.call.tileRows, defaultTileRows)
	for t := i; t < j && len(b.plan.tiled) > 0; t += tile {
		end := min(t+tile, j)
		if clearRows != nil {
			clearRows(t, end)
		}
		b.decodeMembers(b.plan.tiled, t, end, rows.from(t-i))
	}
	b.decodeMembers(b.plan.members, i, j, rows)
}

// decodeMembers decodes rows [i, j) of b's members to rows (row i of b at
// rows.at(0)).
func (b batch) decodeMembers(members []member, i, j int, rows strided) {
	if len(members) == 0 || i == j {
		return
	}
	w := b.w.Slice(i, j)
	decodeMembers(members, func(k int) views.View { return b.cols[k].Slice(w.Offset, w.End()) }, w.Len, rows, b.call)
}

// ColumnIndexes is the indexes in the schema of the columns the plan reads,
// in increasing order: what a source that can project columns (Parquet,
// Flight SQL) needs to read, and nothing more.
func (m *Mapper[T]) ColumnIndexes() []int {
	idx := make([]int, len(m.plan.columns))
	for k, col := range m.plan.columns {
		idx[k] = col.index
	}
	slices.Sort(idx)
	return slices.Compact(idx)
}
