package ipc

import (
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
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
}

func newDictionaries(mem memory.Allocator) *dictionaries { return &dictionaries{mem: mem} }

// hasDictionary reports whether dt is or holds a dictionary.
func hasDictionary(dt arrow.DataType) bool {
	switch dt := dt.(type) {
	case *arrow.DictionaryType:
		return true
	case arrow.ExtensionType:
		return hasDictionary(dt.StorageType())
	case arrow.NestedType:
		for _, f := range dt.Fields() {
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
// records before it, to be released by the caller.
func (d *dictionaries) unify(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
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
		data, err := d.unifyData(col.Data(), &next, rec.ColumnName(i))
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
// when nothing in it changed. next counts the dictionaries met so far.
func (d *dictionaries) unifyData(data arrow.ArrayData, next *int, column string) (arrow.ArrayData, error) {
	if dt, ok := data.DataType().(*arrow.DictionaryType); ok {
		k := *next
		*next++
		return d.unifyDictionary(k, dt, data, column)
	}
	children := data.Children()
	var out []arrow.ArrayData
	for j, child := range children {
		c, err := d.unifyData(child, next, column)
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
func (d *dictionaries) unifyDictionary(k int, dt *arrow.DictionaryType, data arrow.ArrayData, column string) (arrow.ArrayData, error) {
	for len(d.seen) <= k {
		d.seen = append(d.seen, nil)
	}
	dict := d.seen[k]
	if dict == nil {
		dict = &dictionary{skip: hasDictionary(dt.ValueType)} // arrow-go writes no delta of these
		if !dict.skip {
			u, err := array.NewDictionaryUnifier(d.mem, dt.ValueType)
			dict.unifier, dict.skip = u, err != nil // a value type arrow-go does not hash
		}
		d.seen[k] = dict
	}
	if dict.skip || data.Dictionary() == nil {
		return nil, nil
	}
	values := array.MakeFromData(data.Dictionary())
	defer values.Release()
	before := 0
	if dict.values != nil {
		before = dict.values.Len()
	}
	transposed, err := dict.unifier.UnifyAndTranspose(values)
	if err != nil {
		return nil, fmt.Errorf("column %q: merging its dictionaries: %w", column, err)
	}
	defer transposed.Release()
	to := arrow.Int32Traits.CastFromBytes(transposed.Bytes())[:values.Len()]
	identity, size := true, before
	for i, j := range to {
		identity = identity && int(j) == i
		size = max(size, int(j)+1) // the unifier numbers new values from before on
	}
	if uint64(size) > dictindex.Max(dt.IndexType)+1 {
		if err := dict.restore(d.mem, dt.ValueType); err != nil {
			return nil, fmt.Errorf("column %q: merging its dictionaries: %w", column, err)
		}
		return nil, fmt.Errorf("column %q: its dictionary would grow to %d values, more than its %s indices can refer to", column, size, dt.IndexType)
	}
	if grown := dict.values == nil || size > before; grown {
		// GetResult empties the unifier: give it the values back.
		_, all, err := dict.unifier.GetResult()
		if err != nil {
			return nil, fmt.Errorf("column %q: merging its dictionaries: %w", column, err)
		}
		if err := dict.unifier.Unify(all); err != nil {
			all.Release()
			return nil, fmt.Errorf("column %q: merging its dictionaries: %w", column, err)
		}
		if dict.values != nil {
			dict.values.Release()
		}
		dict.values = all
	}
	buffers := data.Buffers()
	var indices *memory.Buffer
	if identity && len(buffers) > 1 && buffers[1] != nil {
		indices = buffers[1]
		indices.Retain()
	} else if indices, err = transposeIndices(d.mem, dt.IndexType, data, to); err != nil {
		return nil, fmt.Errorf("column %q: %w", column, err)
	}
	defer indices.Release()
	return array.NewDataWithDictionary(dt, data.Len(), []*memory.Buffer{buffers[0], indices}, data.NullN(), data.Offset(), dict.values.Data().(*array.Data)), nil
}

// restore makes the unifier hold the values written again, and no more:
// those of a record refused after they were added to it.
func (dict *dictionary) restore(mem memory.Allocator, valueType arrow.DataType) error {
	dict.unifier.Release()
	u, err := array.NewDictionaryUnifier(mem, valueType)
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

// transposeIndices maps the indices of data through to, into a new buffer
// laid out as data's (same offset), nulls left 0.
func transposeIndices(mem memory.Allocator, dt arrow.DataType, data arrow.ArrayData, to []int32) (*memory.Buffer, error) {
	switch dt.ID() {
	case arrow.INT8:
		return transpose[int8](mem, data, to)
	case arrow.UINT8:
		return transpose[uint8](mem, data, to)
	case arrow.INT16:
		return transpose[int16](mem, data, to)
	case arrow.UINT16:
		return transpose[uint16](mem, data, to)
	case arrow.INT32:
		return transpose[int32](mem, data, to)
	case arrow.UINT32:
		return transpose[uint32](mem, data, to)
	case arrow.INT64:
		return transpose[int64](mem, data, to)
	case arrow.UINT64:
		return transpose[uint64](mem, data, to)
	default:
		return nil, fmt.Errorf("dictionary indices of type %s", dt)
	}
}

func transpose[I int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64](mem memory.Allocator, data arrow.ArrayData, to []int32) (*memory.Buffer, error) {
	off, n := data.Offset(), data.Len()
	width := int(unsafe.Sizeof(I(0)))
	buffers := data.Buffers()
	var in []I
	if len(buffers) > 1 && buffers[1] != nil {
		in = unsafe.Slice((*I)(unsafe.Pointer(unsafe.SliceData(buffers[1].Bytes()))), buffers[1].Len()/width)
	}
	var valid []byte
	if len(buffers) > 0 && buffers[0] != nil {
		valid = buffers[0].Bytes()
	}
	if len(in) < off+n || (valid != nil && len(valid)*8 < off+n) {
		return nil, fmt.Errorf("%w: dictionary indices shorter than the column", mapper.ErrInvalidData)
	}
	buf := memory.NewResizableBuffer(mem)
	buf.Resize((off + n) * width)
	out := unsafe.Slice((*I)(unsafe.Pointer(unsafe.SliceData(buf.Bytes()))), off+n)
	for i := off; i < off+n; i++ {
		out[i] = 0
		if valid != nil && !bitutil.BitIsSet(valid, i) {
			continue
		}
		v := in[i]
		if v < 0 || uint64(v) >= uint64(len(to)) {
			buf.Release()
			return nil, fmt.Errorf("%w: dictionary index %d of row %d is out of range [0, %d)", mapper.ErrInvalidData, v, i-off, len(to))
		}
		out[i] = I(to[v])
	}
	return buf, nil
}
