package mapper

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
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
func Decode[T any](rec arrow.RecordBatch, opts ...ReadOption) ([]T, error) {
	if rec == nil {
		return nil, newError(ErrInvalidData, "", "", -1, "nil record")
	}
	m, err := newMapper[T]("Decode", decodeOptions, rec.Schema(), opts)
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
func New[T any](schema *arrow.Schema, opts ...ReadOption) (*Mapper[T], error) {
	return newMapper[T]("New", decodeOptions, schema, opts)
}

// newMapper is New for entry point entry, which takes the options in
// accepted.
func newMapper[T any](entry string, accepted optionSet, schema *arrow.Schema, opts []ReadOption) (*Mapper[T], error) {
	o, err := optionsFor(entry, accepted, opts)
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
// all its rows. Columns no field uses are neither viewed nor validated.
// rec must stay alive while the Batch is used.
//
// An error about a row — a null the field cannot hold (ErrNull), a value
// the spec or a conversion refuses, an offset, index or view that is out
// of place at that row — names the first row it is about, and View
// returns it with the Batch of the rows before that row, every one of
// them validated. An error about the record as a whole returns an empty
// Batch: a column that is not as long as the record, a buffer too short
// for it, a null count that contradicts the bitmap, a run end or a
// dictionary entry at fault (entries are checked whole, whichever rows
// use them), or a fault below the rows that no row reaches.
func (m *Mapper[T]) View(rec arrow.RecordBatch) (Batch[T], error) {
	b, err := m.view(rec)
	return Batch[T]{b}, err
}

// view is View without the row type. rec's schema may be another object
// than m's, but must agree with it on every planned column. A record
// without fault is validated once; only a fault about a row costs more,
// the validation of a few prefixes of the record to find its first row.
func (m mapping) view(rec arrow.RecordBatch) (batch, error) {
	b, err, aboutRow := m.viewRows(rec, -1)
	if err == nil || !aboutRow {
		return b, err
	}
	return m.viewBefore(rec, err)
}

// viewRows validates the planned columns of rec, or of its first prefix
// rows alone when prefix >= 0 (views.OfPrefix), and returns their Batch.
// On an error it reports whether the error is about a row: a views error
// with a row, or a preparer's (a value a conversion or a range check
// refuses). Every column is checked for faults about the record before a
// fault about a row is reported, so that a later column's short buffer is
// not taken for a row's fault.
func (m mapping) viewRows(rec arrow.RecordBatch, prefix int) (b batch, err error, aboutRow bool) {
	p := m.plan
	if rec == nil {
		return batch{}, newError(ErrInvalidData, "", "", -1, "nil record"), false
	}
	rows := rec.NumRows()
	if rows < 0 || rows > maxRecordRows {
		return batch{}, newError(ErrInvalidData, "", "", -1, "a record of %d rows", rows), false
	}
	recSchema := rec.Schema()
	cols := make([]views.View, len(p.columns))
	var rowErr error
	for k := range p.columns {
		col := &p.columns[k]
		if recSchema != m.schema && !col.in(recSchema) { // m's was checked when m was made
			return batch{}, newError(ErrTypeMismatch, col.codec.path, col.name, -1,
				"the record's schema differs from the Mapper's: build a Mapper for it"), false
		}
		arr := rec.Column(col.index)
		if arr != nil && int64(arr.Len()) != rows {
			return batch{}, newError(ErrInvalidData, col.codec.path, col.name, -1, "%d rows in a record of %d", arr.Len(), rows), false
		}
		var v views.View
		var err error
		if prefix < 0 {
			v, err = views.Of(arr, col.vt)
		} else {
			v, err = views.OfPrefix(arr, col.vt, prefix)
		}
		if err != nil {
			e := viewError(col, err, p.nullRemedy)
			if e.Row < 0 {
				return batch{}, e, false
			}
			if rowErr == nil {
				rowErr = e
			}
			continue
		}
		cols[k] = v
	}
	if rowErr != nil {
		return batch{}, rowErr, true
	}
	n := int(rows)
	if prefix >= 0 {
		n = prefix
	}
	b = batch{plan: p, cols: cols, call: &call{runOptions: m.run}, w: slice.Whole(n)}
	if p.prep {
		c := b.call
		c.slots = make([]unsafe.Pointer, p.slots)
		for k := range p.columns {
			c.top = true
			if err := p.columns[k].codec.prepareView(cols[k], c); err != nil {
				return batch{}, err, true
			}
		}
	}
	return b, nil, false
}

// viewBefore is, after err, a failure of view about a row of rec, the
// Batch of the rows before the first row a fault is about, and that fault
// as an error of that row; or no Batch and an error about the record.
func (m mapping) viewBefore(rec arrow.RecordBatch, err error) (batch, error) {
	var good batch
	k, err := firstFault(int(rec.NumRows()), err, func(k int) (error, bool) {
		b, err, aboutRow := m.viewRows(rec, k)
		if err == nil {
			good = b
		}
		return err, aboutRow
	})
	if k < 0 {
		return batch{}, err
	}
	return good, err
}

// firstFault finds the first row of a record of n rows that a fault is
// about, after err, a failure of the whole record about a row. try
// validates the record's first k rows alone (views.OfPrefix) and reports
// its failure and whether that is about a row. Validity is monotone in
// prefixes, so the row is found by bisection over them, starting from the
// row err names: a top-level fault names the record's row, one below it
// the row of its own level, which is checked, not trusted. It returns k,
// the rows before that row, and the fault as an error of row k, the last
// prefix try validated being the first k rows; or -1 and an error about
// the record: a fault no row reaches, or one that fails every prefix (a
// dictionary's entries, validated whole), or one about the record that a
// prefix meets (a later column's short buffer).
func firstFault(n int, err error, try func(k int) (error, bool)) (int, error) {
	// Prefix lo is valid; prefix hi fails with hiErr once hiErr is set.
	lo, hi := 0, n
	var hiErr, recordErr error
	step := func(k int) {
		switch err, aboutRow := try(k); {
		case err == nil:
			lo = k
		case !aboutRow:
			recordErr = err
		default:
			hi, hiErr = k, err
		}
	}
	if first, aboutRow := try(0); first != nil {
		if !aboutRow {
			return -1, first
		}
		return -1, atRow(first, -1) // a fault whatever the rows
	}
	if e, ok := err.(*Error); ok && e.Row >= 0 && e.Row < n {
		if step(e.Row + 1); hiErr != nil && recordErr == nil && e.Row > lo {
			step(e.Row)
		}
	}
	if hiErr == nil && recordErr == nil {
		if step(n); hiErr == nil && recordErr == nil {
			return -1, atRow(err, -1) // no row reaches the fault
		}
	}
	for hi-lo > 1 && recordErr == nil {
		step(lo + (hi-lo)/2)
	}
	if recordErr != nil {
		return -1, recordErr
	}
	return lo, atRow(hiErr, lo)
}

// atRow is err, an *Error, about the record's row row (-1: about none).
func atRow(err error, row int) error {
	e, ok := err.(*Error)
	if !ok {
		return err
	}
	moved := *e
	moved.Row = row
	return &moved
}

// maxRecordRows bounds a record's row count as views bounds an array's
// length: a count no column backs must not reach index arithmetic unchecked.
const maxRecordRows = 1 << 48

// viewError turns a views error into an *Error naming the Go field. An
// ErrNull says, by remedy of its level's label, how the field could take
// the null: the column may well be nullable, the Go field is not.
func viewError(col *column, err error, remedy func(label string) string) *Error {
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
	if ve.Err == views.ErrNull && remedy != nil {
		if msg := remedy(path); msg != "" {
			what = &detail{kind: ve.Err, msg: msg}
		}
	}
	return &Error{Path: path, Column: column, Row: ve.Row, Err: what}
}

// nullRemedy is what an ErrNull at the level labelled label says: its Go
// type cannot hold a null, and the two ways to let it.
func (p *plan) nullRemedy(label string) string {
	t, ok := p.holders[label]
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s cannot hold a null: make it a *%s, or tag it %s to read a null as the zero value", t, t, nullableTag(label))
}

// nullableTag is how the level of Go path label is tagged nullable: in its
// field's arrow tag, or, for a list's elements and a map's keys and values,
// in arrow-elem, arrow-key or arrow-value (elem(…) for each list below).
func nullableTag(label string) string {
	var levels []string // the suffixes after the field's name, outermost first
	for {
		var found bool
		for _, suffix := range [...]string{"[]", "[key]", "[value]"} {
			if rest, ok := strings.CutSuffix(label, suffix); ok {
				levels = append([]string{suffix}, levels...)
				label, found = rest, true
				break
			}
		}
		if !found {
			break
		}
	}
	if len(levels) == 0 {
		return "nullable"
	}
	opts := "nullable"
	for _, l := range levels[1:] {
		if l != "[]" {
			return "nullable at that level" // no tag reaches a map's keys or values below a list
		}
		opts = "elem(" + opts + ")"
	}
	key := map[string]string{"[]": "arrow-elem", "[key]": "arrow-key", "[value]": "arrow-value"}[levels[0]]
	return fmt.Sprintf("%s:%q", key, opts)
}

// Decode decodes every row of rec. On an error about a row it returns the
// rows before that row with the error, as View validates them; on an
// error about the record, none.
func (m *Mapper[T]) Decode(rec arrow.RecordBatch) ([]T, error) {
	return m.Append(nil, rec)
}

// Append decodes every row of rec and appends them to dst. On an error
// about a row it appends the rows before that row and returns the error
// (see View); on an error about the record it returns dst unchanged.
func (m *Mapper[T]) Append(dst []T, rec arrow.RecordBatch) ([]T, error) {
	b, err := m.View(rec)
	return b.Append(dst), err
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
