package views

import (
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/slice"
)

// Dictionary is the view node of a dictionary array: row i is entry
// Indices()[i] of Values. A row is null when its index is null or the entry
// it refers to is.
type Dictionary[I integer] struct {
	level
	indices []I // indexed by row
	values  builtin
}

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// newDictionary is the node of a dictionary array, by the Go type of its
// indices.
func newDictionary(d arrow.ArrayData, l *level) (builtin, error) {
	indices, _ := arrowtype.DictionaryIndices(l.dt)
	newNode := dictionaryOf(indices)
	if newNode == nil {
		return nil, l.p.fail(ErrInvalidData, -1, "dictionary index type %s is not an integer", indices)
	}
	return newNode(d, l)
}

// dictionaryOf is the constructor of a dictionary node with indices of
// datatype dt, nil when dt is no integer.
func dictionaryOf(dt arrow.DataType) func(d arrow.ArrayData, l *level) (builtin, error) {
	if dt == nil {
		return nil
	}
	if r := arrowtype.OfType(dt); r.Integer {
		return nodesOf(r.Value).dictionary
	}
	return nil
}

func newDictionaryOf[I integer](d arrow.ArrayData, l *level) (*Dictionary[I], error) {
	dict := d.Dictionary()
	// *array.Data hands back its missing dictionary as a typed nil.
	if data, ok := dict.(*array.Data); dict == nil || ok && data == nil {
		return nil, l.p.fail(ErrInvalidData, -1, "dictionary array without a dictionary")
	}
	if want, _ := arrowtype.Encoded(l.dt); !arrow.TypeEqual(dict.DataType(), want) {
		return nil, l.p.fail(ErrInvalidData, -1, "dictionary of datatype %s for values of %s", dict.DataType(), want)
	}
	indices, err := fixed[I](d, 1, d.Offset(), l.n, &l.p, "indices")
	if err != nil {
		return nil, err
	}
	size := uint64(dict.Len())
	for i, idx := range indices {
		// A negative index becomes huge as a uint64, so one compare catches both.
		if uint64(int64(idx)) >= size && l.validity.IsValid(i) {
			return nil, l.p.fail(ErrInvalidData, i, "dictionary index %d out of range for %d entries", int64(idx), size)
		}
	}
	n := &Dictionary[I]{level: *l, indices: indices}
	// The values are the same column in another encoding: same type, same path.
	vl, err := newLevel(dict, arrowtype.Storage(dict.DataType()), l.p.t, l.p)
	if err != nil {
		return nil, err
	}
	if n.values, err = buildLevel(dict, vl); err != nil {
		return nil, err
	}
	n.clean = n.clean && n.values.lvl().clean
	return n, nil
}

// Indices is the dictionary index of each row, indexed by row. The index
// of a null row is unspecified.
func (a *Dictionary[I]) Indices() []I { return a.indices }

// Values is the view of the whole dictionary.
func (a *Dictionary[I]) Values() View {
	return View{node: a.values, t: a.values.lvl().p.t, w: slice.Whole(a.values.Len())}
}

// IsNull reports whether row i is null: a null index or a null entry.
func (a *Dictionary[I]) IsNull(i int) bool {
	return a.validity.IsNull(i) || a.values.IsNull(int(a.indices[i]))
}

// Value is the entry of row i, or nil.
func (a *Dictionary[I]) Value(i int) any {
	if a.IsNull(i) {
		return nil
	}
	return a.values.Value(int(a.indices[i]))
}

func (a *Dictionary[I]) firstNull(rows slice.Ranges) int {
	if a.values.lvl().nulls == 0 {
		return a.validity.FirstNullIn(rows)
	}
	for _, w := range rows {
		for i := w.Offset; i < w.End(); i++ {
			if a.IsNull(i) {
				return i
			}
		}
	}
	return -1
}

func (a *Dictionary[I]) checkChildren(rows slice.Ranges) *Error {
	if a.values.lvl().clean {
		return nil
	}
	// Only the entries a valid row refers to are reachable.
	referenced := make([]bool, a.values.Len())
	for _, w := range rows {
		for i := w.Offset; i < w.End(); i++ {
			if !a.IsNull(i) {
				referenced[a.indices[i]] = true
			}
		}
	}
	var entries []slice.Window
	for e, ok := range referenced {
		if ok {
			entries = append(entries, slice.Window{Offset: e, Len: 1})
		}
	}
	return a.values.checkChildren(slice.Normalize(entries))
}

// RunEnd is the view node of a run_end_encoded array: row i is the value of
// the run that covers it, entry Physical(i) of Values.
type RunEnd[R int16 | int32 | int64] struct {
	level
	runEnds []R // run k covers logical rows [runEnds[k-1], runEnds[k]) of the un-sliced array
	off     int // the array's offset: row i is logical row off+i
	values  builtin
}

// newRunEnd is the node of a run-end encoded array, by the Go type of its
// run ends.
func newRunEnd(d arrow.ArrayData, l *level) (builtin, error) {
	ends, _ := arrowtype.RunEnds(l.dt)
	newNode := runEndOf(ends)
	if newNode == nil {
		return nil, l.p.fail(ErrInvalidData, -1, "run end type %s is not int16, int32 or int64", ends)
	}
	return newNode(d, l)
}

// runEndOf is the constructor of a run-end node with run ends of datatype
// dt, nil when dt is no int16, int32 or int64.
func runEndOf(dt arrow.DataType) func(d arrow.ArrayData, l *level) (builtin, error) {
	if dt == nil {
		return nil
	}
	if r := arrowtype.OfType(dt); r.Integer {
		return nodesOf(r.Value).runEnd
	}
	return nil
}

func newRunEndOf[R int16 | int32 | int64](d arrow.ArrayData, l *level) (*RunEnd[R], error) {
	ends, err := child(d, 0, &l.p)
	if err != nil {
		return nil, err
	}
	vals, err := child(d, 1, &l.p)
	if err != nil {
		return nil, err
	}
	// The values are read as the declared encoded type: one of another
	// datatype would be checked as a type arrow-go does not read it as.
	endsType, _ := arrowtype.RunEnds(l.dt)
	valuesType, _ := arrowtype.Encoded(l.dt)
	if !arrow.TypeEqual(ends.DataType(), endsType) || !arrow.TypeEqual(vals.DataType(), valuesType) {
		return nil, l.p.fail(ErrInvalidData, -1, "children of datatypes %s and %s for %s", ends.DataType(), vals.DataType(), l.dt)
	}
	if ends.NullN() != 0 {
		return nil, l.p.fail(ErrInvalidData, -1, "run ends with %d nulls", ends.NullN())
	}
	if ends.Offset() < 0 || ends.Len() < 0 || ends.Len() > maxRows || ends.Offset() > maxRows-ends.Len() {
		return nil, l.p.fail(ErrInvalidData, -1, "run ends of length %d at offset %d", ends.Len(), ends.Offset())
	}
	runEnds, err := fixed[R](ends, 1, ends.Offset(), ends.Len(), &l.p, "run ends")
	if err != nil {
		return nil, err
	}
	for k, end := range runEnds {
		if end <= 0 || (k > 0 && end <= runEnds[k-1]) {
			return nil, l.p.fail(ErrInvalidData, -1, "run end %d at %d is not positive and increasing", end, k)
		}
	}
	off := d.Offset()
	if l.n > 0 && (len(runEnds) == 0 || int64(runEnds[len(runEnds)-1]) < int64(off+l.n)) {
		return nil, l.p.fail(ErrInvalidData, -1, "runs do not cover rows [%d, %d)", off, off+l.n)
	}
	if vals.Len() < len(runEnds) {
		return nil, l.p.fail(ErrInvalidData, -1, "%d values for %d runs", vals.Len(), len(runEnds))
	}
	n := &RunEnd[R]{level: *l, runEnds: runEnds, off: off}
	vl, err := newLevel(vals, arrowtype.Storage(valuesType), l.p.t, l.p)
	if err != nil {
		return nil, err
	}
	if n.values, err = buildLevel(vals, vl); err != nil {
		return nil, err
	}
	n.clean = n.values.lvl().clean
	return n, nil
}

// RunEnds is the end of each run, in rows of the un-sliced array; row i of
// the view node is row Offset()+i there.
func (a *RunEnd[R]) RunEnds() []R { return a.runEnds }

// Offset is the array's offset into its runs.
func (a *RunEnd[R]) Offset() int { return a.off }

// Physical is the run that covers row i.
func (a *RunEnd[R]) Physical(i int) int {
	row := R(a.off + i)
	return sort.Search(len(a.runEnds), func(k int) bool { return a.runEnds[k] > row })
}

// Runs is the window of runs that cover rows w.
func (a *RunEnd[R]) Runs(w slice.Window) slice.Window {
	if w.Len == 0 {
		return slice.Window{Offset: a.Physical(w.Offset)}
	}
	first := a.Physical(w.Offset)
	return slice.Window{Offset: first, Len: a.Physical(w.End()-1) + 1 - first}
}

// Values is the view of every run's value.
func (a *RunEnd[R]) Values() View {
	return View{node: a.values, t: a.values.lvl().p.t, w: slice.Whole(a.values.Len())}
}

// IsNull reports whether the run that covers row i is null.
func (a *RunEnd[R]) IsNull(i int) bool { return a.values.IsNull(a.Physical(i)) }

// Value is the value of the run that covers row i, or nil.
func (a *RunEnd[R]) Value(i int) any { return a.values.Value(a.Physical(i)) }

func (a *RunEnd[R]) firstNull(rows slice.Ranges) int {
	for _, w := range rows {
		if w.Len == 0 {
			continue
		}
		runs := a.Runs(w)
		for k := runs.Offset; k < runs.End(); k++ {
			if a.values.IsNull(k) {
				start := 0
				if k > 0 {
					start = int(a.runEnds[k-1])
				}
				return max(start-a.off, w.Offset)
			}
		}
	}
	return -1
}

func (a *RunEnd[R]) checkChildren(rows slice.Ranges) *Error {
	var runs slice.Ranges
	for _, w := range rows {
		if w.Len > 0 {
			runs = append(runs, a.Runs(w))
		}
	}
	runs = slice.Normalize(runs)
	return a.values.checkChildren(slice.ValidRows(runs, a.values.lvl().validity))
}
