package parquet

import (
	"bytes"
	"cmp"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/mapper"
)

// sortOrder checks that the rows of each row group come in the order of
// WriteConfig.SortingColumns, record by record and from each record's
// first row to the last row before it: a file whose footer declares an
// order it does not have makes engines that trust it (merges, sorted
// aggregations) give wrong answers, so a row out of order is refused.
type sortOrder struct {
	keys []sortKey
	// last is the sorting columns of the last row of the row group so
	// far, copied; nil at a row group's start.
	last *keyRow
}

// sortKey is one sorting column: the way to its leaf array in a record,
// and how its values compare.
type sortKey struct {
	column     string // its Parquet path, for errors
	path       []int  // the record's column, then struct fields
	compare    func(a arrow.Array, i int, b arrow.Array, j int) int
	descending bool
	nullsFirst bool
}

// newSortOrder is the check of cols, checked by sortingColumns, over
// records of arrowSchema (the storage schema the file is written from);
// nil when no column is given. A column whose values it cannot compare
// (decimals, float16, intervals) is declared but not checked.
func newSortOrder(arrowSchema *arrow.Schema, pqPaths []string, cols []SortingColumn, leafOf func(string) int) *sortOrder {
	if len(cols) == 0 {
		return nil
	}
	leaves := arrowLeaves(arrowSchema)
	if len(leaves) != len(pqPaths) {
		return nil // no leaf of ours to be sure of: declared, not checked
	}
	s := &sortOrder{}
	for _, sc := range cols {
		leaf := leafOf(sc.Column)
		if leaf < 0 || leaf >= len(leaves) || leaves[leaf].list {
			continue // refused by sortingColumns already
		}
		var f arrow.Field
		fields := arrowSchema.Fields()
		for _, i := range leaves[leaf].path {
			f = fields[i]
			if t := arrowtype.Storage(f.Type); arrowtype.OfType(t).Layout == arrowtype.Struct {
				fields = t.(arrow.NestedType).Fields()
			}
		}
		compare, ok := comparatorOf(arrowtype.Storage(f.Type))
		if !ok {
			continue
		}
		s.keys = append(s.keys, sortKey{column: pqPaths[leaf], path: leaves[leaf].path, compare: compare, descending: sc.Descending, nullsFirst: sc.NullsFirst})
	}
	if len(s.keys) == 0 {
		return nil
	}
	return s
}

// comparatorOf compares values of arrays of dt, in Parquet's order of
// their logical type (signed integers signed, unsigned unsigned, byte
// arrays as unsigned bytes, false before true); ok is false for a type it
// does not compare.
func comparatorOf(dt arrow.DataType) (func(a arrow.Array, i int, b arrow.Array, j int) int, bool) {
	r := arrowtype.OfType(dt)
	switch r.Layout {
	case arrowtype.Boolean:
		return func(a arrow.Array, i int, b arrow.Array, j int) int {
			x, y := a.(interface{ Value(int) bool }).Value(i), b.(interface{ Value(int) bool }).Value(j)
			return cmp.Compare(boolInt(x), boolInt(y))
		}, true
	case arrowtype.Binary, arrowtype.View, arrowtype.FixedBinary:
		return func(a arrow.Array, i int, b arrow.Array, j int) int {
			return bytes.Compare(byteValue(a, i), byteValue(b, j))
		}, true
	case arrowtype.Dictionary:
		_, values, _, _ := arrowtype.DictionaryParts(dt)
		inner, ok := comparatorOf(arrowtype.Storage(values))
		if !ok {
			return nil, false
		}
		return func(a arrow.Array, i int, b arrow.Array, j int) int {
			da, db := a.(arrowtype.DictionaryArray), b.(arrowtype.DictionaryArray)
			return inner(da.Dictionary(), da.GetValueIndex(i), db.Dictionary(), db.GetValueIndex(j))
		}, true
	case arrowtype.Fixed:
		if compare := fixedComparatorOf(r.Value); compare != nil {
			return compare, true
		}
	}
	return nil, false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// fixedComparator compares the T values of fixed-width arrays: a NaN
// before every number, as cmp.Compare orders them.
func fixedComparator[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float32 | float64]() func(a arrow.Array, i int, b arrow.Array, j int) int {
	return func(a arrow.Array, i int, b arrow.Array, j int) int {
		return cmp.Compare(arrowtype.Values[T](a.Data())[i], arrowtype.Values[T](b.Data())[j])
	}
}

// byteValue is the bytes of value i of a text or binary array.
func byteValue(a arrow.Array, i int) []byte {
	switch a := a.(type) {
	case arrowtype.TextArray:
		return []byte(a.Value(i))
	case interface{ Value(int) []byte }: // binary, large, view, fixed-size
		return a.Value(i)
	}
	return nil
}

// leafAt is key's leaf array in rec.
func (k *sortKey) leafAt(rec arrow.RecordBatch) arrow.Array {
	a := rec.Column(k.path[0])
	for _, f := range k.path[1:] {
		a = a.(arrowtype.StructArray).Field(f)
	}
	return a
}

// nullAt reports whether row i of key's leaf in rec is null: its value,
// or a struct above it.
func (k *sortKey) nullAt(rec arrow.RecordBatch, i int) bool {
	a := rec.Column(k.path[0])
	for _, f := range k.path[1:] {
		if a.IsNull(i) {
			return true
		}
		a = a.(arrowtype.StructArray).Field(f)
	}
	return a.IsNull(i)
}

// keyRow is the sorting columns' values of one row: each key's leaf array
// with the row's index in it, and whether the row is null there.
type keyRow struct {
	leaves []arrow.Array
	rows   []int
	nulls  []bool
}

// at is row i of rec's sorting columns, into r.
func (s *sortOrder) at(rec arrow.RecordBatch, i int, r *keyRow) {
	r.leaves, r.rows, r.nulls = r.leaves[:0], r.rows[:0], r.nulls[:0]
	for k := range s.keys {
		r.leaves = append(r.leaves, s.keys[k].leafAt(rec))
		r.rows = append(r.rows, i)
		r.nulls = append(r.nulls, s.keys[k].nullAt(rec, i))
	}
}

// order is how row a comes with row b in the sorting columns' order:
// negative when it comes first, with the key that decides.
func (s *sortOrder) order(a, b *keyRow) (int, *sortKey) {
	for k := range s.keys {
		key := &s.keys[k]
		na, nb := a.nulls[k], b.nulls[k]
		var c int
		switch {
		case na && nb:
			continue
		case na || nb:
			c = 1 // the null after the value
			if na == key.nullsFirst {
				c = -1
			}
		default:
			c = key.compare(a.leaves[k], a.rows[k], b.leaves[k], b.rows[k])
			if key.descending {
				c = -c
			}
		}
		if c != 0 {
			return c, key
		}
	}
	return 0, nil
}

// check reports the first row of rec (row base of the file) that comes
// before the row above it, as an *mapper.Error naming the sorting column
// that says so; else it keeps a copy of rec's last row's keys for the
// next record's first row to follow.
func (s *sortOrder) check(rec arrow.RecordBatch, base int64, mem memory.Allocator) error {
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	var prev, cur keyRow
	s.at(rec, 0, &cur)
	if s.last != nil {
		if c, key := s.order(s.last, &cur); c > 0 {
			return s.outOfOrder(key, base)
		}
	}
	for i := 1; i < n; i++ {
		prev, cur = cur, prev
		s.at(rec, i, &cur)
		if c, key := s.order(&prev, &cur); c > 0 {
			return s.outOfOrder(key, base+int64(i))
		}
	}
	// A copy of the last row, not a slice of rec: the record's buffers go
	// back to the Writer's pool for the next batch.
	s.reset()
	last := &keyRow{}
	for k, leaf := range cur.leaves {
		one := array.NewSlice(leaf, int64(n-1), int64(n))
		copied, err := array.Concatenate([]arrow.Array{one}, mem)
		one.Release()
		if err != nil {
			last.release()
			return fmt.Errorf("copying the last row of sorting column %s: %w", s.keys[k].column, err)
		}
		last.leaves = append(last.leaves, copied)
		last.rows = append(last.rows, 0)
		last.nulls = append(last.nulls, cur.nulls[k])
	}
	s.last = last
	return nil
}

func (r *keyRow) release() {
	for _, a := range r.leaves {
		a.Release()
	}
}

func (s *sortOrder) outOfOrder(key *sortKey, row int64) error {
	dir := "ascending"
	if key.descending {
		dir = "descending"
	}
	return &mapper.Error{Column: key.column, Row: int(row), Err: fmt.Errorf("%w: the row comes before the row above it in the order WriteConfig.SortingColumns declares (%s %s): a file's sorting columns must be true", mapper.ErrInvalidData, key.column, dir)}
}

// reset forgets the last row: a row group starts.
func (s *sortOrder) reset() {
	if s.last != nil {
		s.last.release()
		s.last = nil
	}
}
