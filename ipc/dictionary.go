package ipc

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/internal/dictindex"
	"github.com/arrowmap/arrowmap/mapper"
)

// dictionaries makes the dictionaries of each record extend the ones of
// the records before it, so that arrow-go's writer writes them as deltas:
// the values a record adds, not the whole dictionary again. Each record
// built from Go values has a dictionary of its own values only (in the
// order they first appear), and a Parquet reader one per row group; both
// would be replacements, which a file cannot hold and which a stream
// writes in full.
//
// For each dictionary of the schema, in the order of its fields, it keeps
// every value written so far in the order first seen; a record's indices
// are mapped into that dictionary, and the record points at it.
type dictionaries struct {
	mem  memory.Allocator
	seen []*dictionary // by the dictionary's position in the schema, depth first
}

type dictionary struct {
	unifier array.DictionaryUnifier // every value written so far
	values  arrow.Array             // the same values, as the dictionary written
	skip    bool                    // values arrow-go cannot unify, or holding dictionaries: left alone

	valueType, indexType arrow.DataType
	max                  uint64                                // the largest index of indexType
	width                int                                   // the bytes of an index
	check                func(arrow.ArrayData, int) indexCheck // of indices of indexType
}

func newDictionaries(mem memory.Allocator) *dictionaries { return &dictionaries{mem: mem} }

// hasDictionary reports whether dt is or holds a dictionary.
func hasDictionary(dt arrow.DataType) bool {
	dt = arrowtype.Storage(dt)
	if arrowtype.OfType(dt).Layout == arrowtype.Dictionary {
		return true
	}
	if nested, ok := dt.(arrow.NestedType); ok {
		for _, f := range nested.Fields() {
			if hasDictionary(f.Type) {
				return true
			}
		}
	}
	return false
}

func (d *dictionaries) release() {
	if d == nil {
		return
	}
	for _, dict := range d.seen {
		if dict == nil {
			continue
		}
		if dict.unifier != nil {
			dict.unifier.Release()
		}
		if dict.values != nil {
			dict.values.Release()
		}
	}
	d.seen = nil
}

// unify returns rec with its dictionaries mapped into the ones of the
// records before it, to be released by the caller. The rows of rec are
// the output's from base, for errors.
func (d *dictionaries) unify(rec arrow.RecordBatch, base int64) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, rec.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	next, changed := 0, false
	for i, col := range rec.Columns() {
		data, err := d.unifyData(col.Data(), &next, rec.ColumnName(i), base)
		if err != nil {
			return nil, err
		}
		if data == nil {
			col.Retain()
			cols[i] = col
			continue
		}
		cols[i] = array.MakeFromData(data)
		data.Release()
		changed = true
	}
	if !changed {
		rec.Retain()
		return rec, nil
	}
	return array.NewRecordBatch(rec.Schema(), cols, rec.NumRows()), nil
}

// unifyData returns data with its dictionaries unified, retained, or nil
// when nothing in it changed. next counts the dictionaries met so far;
// base is the row of the output data's first row is, -1 below the
// record's columns, whose rows are not the output's.
func (d *dictionaries) unifyData(data arrow.ArrayData, next *int, column string, base int64) (arrow.ArrayData, error) {
	if dt := data.DataType(); arrowtype.OfType(dt).Layout == arrowtype.Dictionary {
		k := *next
		*next++
		return d.unifyDictionary(k, dt, data, column, base)
	}
	children := data.Children()
	var out []arrow.ArrayData
	for j, child := range children {
		c, err := d.unifyData(child, next, column, -1)
		if err != nil {
			releaseData(out, children)
			return nil, err
		}
		if c == nil {
			continue
		}
		if out == nil {
			out = append([]arrow.ArrayData(nil), children...)
		}
		out[j] = c
	}
	if out == nil {
		return nil, nil
	}
	defer releaseData(out, children)
	return array.NewData(data.DataType(), data.Len(), data.Buffers(), out, data.NullN(), data.Offset()), nil
}

// releaseData releases the children of out made anew, not those of was.
func releaseData(out, was []arrow.ArrayData) {
	for j, c := range out {
		if c != was[j] {
			c.Release()
		}
	}
}

// unifyDictionary maps the dictionary array data, the k-th dictionary of
// the schema, into the values written so far.
//
// The values written so far grow by the values a record adds, appended to
// them, and the unifier, arrow-go's hash table of them, by the same
// values; they are not merged again from the whole dictionary. Merging the
// whole again (GetResult, which empties the unifier, then Unify of every
// value) cost 7.1 ms, 79.8 ms and 711 ms for 100 records growing to 1k, 10k
// and 100k values; appending costs 3.0 ms, 23.6 ms and 195 ms (bench/RESULTS.md).
func (d *dictionaries) unifyDictionary(k int, dt arrow.DataType, data arrow.ArrayData, column string, base int64) (arrow.ArrayData, error) {
	for len(d.seen) <= k {
		d.seen = append(d.seen, nil)
	}
	dict := d.seen[k]
	if dict == nil {
		dict = newDictionary(d.mem, dt)
		d.seen[k] = dict
	}
	if dict.skip || data.Dictionary() == nil {
		return nil, nil
	}
	values := array.MakeFromData(data.Dictionary())
	defer values.Release()
	check := dict.check(data, values.Len())
	if err := check.err(column, base); err != nil {
		return nil, err
	}
	before := 0
	if dict.values != nil {
		before = dict.values.Len()
	}
	transposed, err := dict.unifier.UnifyAndTranspose(values)
	if err != nil {
		return nil, fmt.Errorf("column %q: merging its dictionaries: %w", column, err)
	}
	defer transposed.Release()
	to := arrow.GetData[int32](transposed.Bytes())[:values.Len()]
	added := 0
	for _, j := range to {
		if int(j) == before+added { // the unifier numbers new values from before on
			added++
		}
	}
	if size := before + added; size > 0 && uint64(size-1) > dict.max {
		if err := dict.restore(d.mem); err != nil {
			return nil, fmt.Errorf("column %q: merging its dictionaries: %w", column, err)
		}
		return nil, fmt.Errorf("column %q: its dictionary would grow to %d values, more than its %s indices can refer to", column, size, dict.indexType)
	}
	if dict.values == nil || added > 0 {
		if err := dict.grow(d.mem, values, to, before); err != nil {
			if err := dict.restore(d.mem); err != nil {
				return nil, fmt.Errorf("column %q: merging its dictionaries: %w", column, err)
			}
			return nil, fmt.Errorf("column %q: merging its dictionaries: %w", column, err)
		}
	}
	if check.dirty {
		data = dict.zeroNulls(d.mem, data)
		defer data.Release()
	}
	if data.Len() == 0 {
		return array.NewDataWithDictionary(dt, 0, data.Buffers(), 0, data.Offset(), dict.values.Data().(*array.Data)), nil
	}
	return array.TransposeDictIndices(d.mem, data, dt, dt, dict.values.Data(), to)
}

// newDictionary is the state of the dictionaries of type dt.
func newDictionary(mem memory.Allocator, dt arrow.DataType) *dictionary {
	valueType, _ := arrowtype.Encoded(dt)
	indexType, _ := arrowtype.DictionaryIndices(dt)
	dict := &dictionary{valueType: valueType, indexType: indexType, max: dictindex.Max(indexType)}
	dict.check, dict.skip = indexCheckOf(arrowtype.OfType(indexType).Value)
	dict.skip = dict.skip || hasDictionary(valueType) // arrow-go writes no delta of these
	if !dict.skip {
		u, err := array.NewDictionaryUnifier(mem, valueType)
		dict.unifier, dict.skip = u, err != nil // a value type arrow-go does not hash
	}
	dict.width = arrowtype.OfType(indexType).Bytes
	return dict
}

// grow appends to the values written the values of the record's
// dictionary values that to numbers from before on: those the unifier met
// first in this record, in the order met.
func (dict *dictionary) grow(mem memory.Allocator, values arrow.Array, to []int32, before int) error {
	old := dict.values
	var parts []arrow.Array
	if old != nil {
		parts = append(parts, old)
	}
	next, start := int32(before), -1
	for i, j := range to {
		if j == next {
			next++
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			parts = append(parts, array.NewSlice(values, int64(start), int64(i)))
			start = -1
		}
	}
	if start >= 0 {
		parts = append(parts, array.NewSlice(values, int64(start), int64(len(to))))
	}
	defer func() {
		for _, p := range parts {
			if p != old {
				p.Release()
			}
		}
	}()
	var all arrow.Array
	switch len(parts) {
	case 0: // an empty first dictionary
		all = array.NewSlice(values, 0, 0)
	case 1:
		all = parts[0]
		all.Retain()
	default:
		var err error
		if all, err = array.Concatenate(parts, mem); err != nil {
			return err
		}
	}
	if old != nil {
		old.Release()
	}
	dict.values = all
	return nil
}

// restore makes the unifier hold the values written again, and no more:
// those of a record refused after they were added to it.
func (dict *dictionary) restore(mem memory.Allocator) error {
	dict.unifier.Release()
	u, err := array.NewDictionaryUnifier(mem, dict.valueType)
	if err != nil {
		dict.unifier, dict.skip = nil, true
		return err
	}
	dict.unifier = u
	if dict.values == nil {
		return nil
	}
	return u.Unify(dict.values)
}

// zeroNulls is data with the index of each null row 0, in a new buffer
// laid out as data's: what TransposeDictIndices maps a null row's index
// through must be in the dictionary.
func (dict *dictionary) zeroNulls(mem memory.Allocator, data arrow.ArrayData) arrow.ArrayData {
	off, n, w := data.Offset(), data.Len(), dict.width
	buf := memory.NewResizableBuffer(mem)
	defer buf.Release()
	buf.Resize((off + n) * w)
	out := buf.Bytes()
	copy(out[off*w:], data.Buffers()[1].Bytes()[off*w:(off+n)*w])
	valid := data.Buffers()[0].Bytes()
	for i := off; i < off+n; i++ {
		if !bitutil.BitIsSet(valid, i) {
			clear(out[i*w : (i+1)*w])
		}
	}
	return array.NewData(data.DataType(), n, []*memory.Buffer{data.Buffers()[0], buf}, nil, data.NullN(), off)
}

// indexCheck is what indices holds against the dictionary they index.
type indexCheck struct {
	row   int    // the first row whose index is outside the dictionary, -1 when none is
	index string // that index
	size  int    // the values of the dictionary
	short bool   // the buffers are shorter than the column
	dirty bool   // a null row holds an index outside the dictionary
}

// err is the error of a row whose index is outside its dictionary, the
// rows of the record counted from base; nil when none is.
func (c indexCheck) err(column string, base int64) error {
	switch {
	case c.short:
		return &mapper.Error{Column: column, Row: -1, Err: fmt.Errorf("%w: dictionary indices shorter than the column", mapper.ErrInvalidData)}
	case c.row >= 0 && base < 0: // in a child: its row is no row of the output
		return &mapper.Error{Column: column, Row: -1,
			Err: fmt.Errorf("%w: dictionary index %s of entry %d is out of range [0, %d)", mapper.ErrInvalidData, c.index, c.row, c.size)}
	case c.row >= 0:
		return &mapper.Error{Column: column, Row: int(base) + c.row,
			Err: fmt.Errorf("%w: dictionary index %s is out of range [0, %d)", mapper.ErrInvalidData, c.index, c.size)}
	}
	return nil
}

// indexCheckOf is the check of indices whose buffer holds v; true when
// v is no integer.
func indexCheckOf(v arrowtype.Value) (func(arrow.ArrayData, int) indexCheck, bool) {
	switch v {
	case arrowtype.Int8:
		return checkIndices[int8], false
	case arrowtype.Uint8:
		return checkIndices[uint8], false
	case arrowtype.Int16:
		return checkIndices[int16], false
	case arrowtype.Uint16:
		return checkIndices[uint16], false
	case arrowtype.Int32:
		return checkIndices[int32], false
	case arrowtype.Uint32:
		return checkIndices[uint32], false
	case arrowtype.Int64:
		return checkIndices[int64], false
	case arrowtype.Uint64:
		return checkIndices[uint64], false
	}
	return nil, true
}

// checkIndices checks the indices of data, of Go type I, against a
// dictionary of size values: a negative index is as far outside it as a
// large one.
func checkIndices[I int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64](data arrow.ArrayData, size int) indexCheck {
	c := indexCheck{row: -1, size: size}
	n := data.Len()
	if n == 0 {
		return c
	}
	in := arrowtype.Values[I](data)
	var valid []byte
	if b := data.Buffers()[0]; b != nil && data.NullN() > 0 {
		valid = b.Bytes()
	}
	if in == nil || (valid != nil && len(valid)*8 < data.Offset()+n) {
		c.short = true
		return c
	}
	limit := uint64(size)
	for i, v := range in {
		if uint64(v) < limit { // a negative v is far past any limit
			continue
		}
		if valid != nil && !bitutil.BitIsSet(valid, data.Offset()+i) {
			c.dirty = true
			continue
		}
		c.row, c.index = i, fmt.Sprint(v)
		return c
	}
	return c
}
