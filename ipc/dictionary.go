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
//
// A record refused leaves every dictionary as it was before it.
type dictionaries struct {
	mem  memory.Allocator
	seen []*dictionary // by the dictionary's position in the schema, depth first
	undo []undo        // the dictionaries the record being unified reached, as they were
}

// undo is a dictionary as it was before a record: its values, retained.
type undo struct {
	dict    *dictionary
	values  arrow.Array
	unified bool // the record's values went into the unifier
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
func (d *dictionaries) unify(rec arrow.RecordBatch, base int64) (_ arrow.RecordBatch, err error) {
	cols := make([]arrow.Array, rec.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	defer func() { d.settle(err == nil) }()
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
// base is the row of the output that data's first row is, -1 for the
// children of a column, whose rows are not the output's.
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
// values: the whole dictionary is not merged again. Merging it again
// (GetResult, which empties the unifier, then Unify of every value) cost
// 3 to 5 times the CPU time and 4 times the memory: 12.3, 109 and 1,173 ms
// against 3.8, 22 and 249 ms for 100 records growing to 1k, 10k and 100k
// values (BenchmarkStreamWriterDictionaryDeltas, bench/RESULTS.md).
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
		dict.values.Retain()
	}
	d.undo = append(d.undo, undo{dict: dict, values: dict.values, unified: true})
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
	d.undo[len(d.undo)-1].unified = added > 0
	if size := before + added; size > 0 && uint64(size-1) > dict.max {
		return nil, fmt.Errorf("column %q: its dictionary would grow to %d values, more than its %s indices can refer to", column, size, dict.indexType)
	}
	if dict.values == nil || added > 0 {
		if err := dict.grow(d.mem, values, to, before); err != nil {
			return nil, fmt.Errorf("column %q: merging its dictionaries: %w", column, err)
		}
	}
	// TransposeDictIndices maps every row's index through to, a null row's
	// too, and its assembly (amd64) checks no bounds: an index outside to
	// reads past it, a segmentation fault no recover catches. Every index
	// was checked above; a null row's outside the dictionary is made 0.
	if check.dirty {
		data = dict.zeroNulls(d.mem, data)
		defer data.Release()
	}
	if data.Len() == 0 { // its buffers may be nil, which TransposeDictIndices reads
		return array.NewDataWithDictionary(dt, 0, data.Buffers(), 0, data.Offset(), dict.values.Data().(*array.Data)), nil
	}
	out, err := array.TransposeDictIndices(d.mem, data, dt, dt, dict.values.Data(), to)
	if err != nil {
		if out != nil {
			out.Release()
		}
		return nil, fmt.Errorf("column %q: %w", column, err)
	}
	return out, nil
}

// newDictionary is the state of the dictionaries of type dt, its index
// type's row read once.
func newDictionary(mem memory.Allocator, dt arrow.DataType) *dictionary {
	valueType, _ := arrowtype.Encoded(dt)
	indexType, _ := arrowtype.DictionaryIndices(dt)
	index := arrowtype.OfType(indexType)
	dict := &dictionary{valueType: valueType, indexType: indexType, max: dictindex.Max(indexType), width: index.Bytes}
	dict.check, dict.skip = indexCheckOf(index.Value)
	dict.skip = dict.skip || hasDictionary(valueType) // arrow-go writes no delta of these
	if !dict.skip {
		u, err := array.NewDictionaryUnifier(mem, valueType)
		dict.unifier, dict.skip = u, err != nil // a value type arrow-go does not hash
	}
	return dict
}

// grow appends to the values written those of values, the record's
// dictionary, that to numbers from before on: the values the unifier met
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

// settle ends the record being unified: kept, its dictionaries keep the
// values it added; refused, each is again as it was before it.
func (d *dictionaries) settle(kept bool) {
	for _, u := range d.undo {
		dict := u.dict
		switch {
		case kept || dict.values == u.values:
			if u.values != nil {
				u.values.Release()
			}
		default:
			if dict.values != nil {
				dict.values.Release()
			}
			dict.values = u.values
		}
		if !kept && u.unified {
			dict.restore(d.mem)
		}
	}
	d.undo = d.undo[:0]
}

// restore makes the unifier hold the values written again, and no more:
// those of a record refused after they were added to it. A unifier that
// cannot be made again (it was once) leaves the dictionary alone.
func (dict *dictionary) restore(mem memory.Allocator) {
	dict.unifier.Release()
	u, err := array.NewDictionaryUnifier(mem, dict.valueType)
	if err == nil && dict.values != nil {
		err = u.Unify(dict.values)
	}
	if err != nil {
		if u != nil {
			u.Release()
		}
		dict.unifier, dict.skip = nil, true
		return
	}
	dict.unifier = u
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
	if in == nil {
		c.short = true
		return c
	}
	var valid []byte
	if b := data.Buffers()[0]; b != nil && data.NullN() > 0 {
		valid = b.Bytes()
	}
	if valid != nil && len(valid)*8 < data.Offset()+n {
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
