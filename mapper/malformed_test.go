package mapper_test

import (
	"math"
	"runtime/debug"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

// malformedRow has a field for every column the malformed records hold;
// each record holds some of them, and AllowMissing lets the rest be.
type malformedRow struct {
	ID    int64            `arrow:"id"`
	Name  string           `arrow:"name"`
	Note  *string          `arrow:"note"`
	Flag  bool             `arrow:"flag"`
	At    time.Time        `arrow:"at"`
	Tags  []string         `arrow:"tags"`
	Items []malformedItem  `arrow:"items"`
	Pair  [2]int64         `arrow:"pair"`
	Color string           `arrow:"color"`
	Runs  int64            `arrow:"runs"`
	Attrs map[string]int64 `arrow:"attrs"`
	Meta  *malformedMeta   `arrow:"meta"`
}

type malformedItem struct {
	SKU string `arrow:"sku"`
	Qty int64  `arrow:"qty"`
}

type malformedMeta struct {
	Owner string  `arrow:"owner"`
	Score float64 `arrow:"score"`
}

// A column of a crafted record: its name and its (crafted) data.
type malformedColumn struct {
	name string
	data arrow.ArrayData
}

func TestMalformedRecordsAreRejected(t *testing.T) {
	// A string too long to inline in a utf8_view header.
	const long = "a string of 20 bytes"
	id := malColumn("id", malInt64s(1, 2, 3))
	tests := []struct {
		name    string
		columns []malformedColumn
		rows    int // the record's row count; the first column's length when 0
		column  string
		path    string
		// before is the rows before the row a fault is about, which come
		// with the error; 0 for a fault about the record, or about row 0.
		before int
	}{
		// Offsets.
		{
			name:    "utf8 offsets that go backwards",
			columns: []malformedColumn{id, malColumn("name", malStrings([]int32{0, 2, 1, 3}, "abc"))},
			column:  "name", path: "Name", before: 1,
		},
		{
			name:    "utf8 offsets past the end of the data",
			columns: []malformedColumn{id, malColumn("name", malStrings([]int32{0, 1, 2, 9}, "abc"))},
			column:  "name", path: "Name", before: 2,
		},
		{
			name:    "list offsets that go backwards",
			columns: []malformedColumn{malColumn("tags", malData(dtMalTags, 2, 0, 0, malBuffers(nil, malInt32Buf(0, 2, 1)), malStrings([]int32{0, 1, 2}, "ab")))},
			column:  "tags", path: "Tags", before: 1,
		},
		{
			name:    "list offsets past the end of the child",
			columns: []malformedColumn{malColumn("tags", malData(dtMalTags, 2, 0, 0, malBuffers(nil, malInt32Buf(0, 1, 3)), malStrings([]int32{0, 1, 2}, "ab")))},
			column:  "tags", path: "Tags", before: 1,
		},
		{
			name:    "list element offsets that go backwards",
			columns: []malformedColumn{malColumn("tags", malData(dtMalTags, 1, 0, 0, malBuffers(nil, malInt32Buf(0, 2)), malStrings([]int32{0, 2, 1}, "ab")))},
			column:  "tags.item", path: "Tags[]",
		},
		{
			name:    "large_list offsets past the end of the child",
			columns: []malformedColumn{malColumn("tags", malData(arrow.LargeListOf(arrow.BinaryTypes.String), 1, 0, 0, malBuffers(nil, malInt64Buf(0, 5)), malStrings([]int32{0, 1, 2}, "ab")))},
			column:  "tags", path: "Tags",
		},
		{
			name:    "a list_view row past the end of the child",
			columns: []malformedColumn{malColumn("tags", malData(arrow.ListViewOf(arrow.BinaryTypes.String), 1, 0, 0, malBuffers(nil, malInt32Buf(1), malInt32Buf(2)), malStrings([]int32{0, 1, 2}, "ab")))},
			column:  "tags", path: "Tags",
		},
		// Buffers shorter than length+offset.
		{
			name:    "an int64 values buffer shorter than the rows",
			columns: []malformedColumn{malColumn("id", malData(arrow.PrimitiveTypes.Int64, 4, 0, 0, malBuffers(nil, malInt64Buf(1, 2, 3))))},
			column:  "id", path: "ID",
		},
		{
			name:    "an int64 values buffer shorter than length+offset",
			columns: []malformedColumn{malColumn("id", malData(arrow.PrimitiveTypes.Int64, 2, 0, 2, malBuffers(nil, malInt64Buf(1, 2, 3))))},
			column:  "id", path: "ID",
		},
		{
			name:    "an int64 values buffer that is missing",
			columns: []malformedColumn{malColumn("id", malData(arrow.PrimitiveTypes.Int64, 2, 0, 0, malBuffers(nil, nil)))},
			column:  "id", path: "ID",
		},
		{
			name:    "a timestamp values buffer shorter than the rows",
			columns: []malformedColumn{malColumn("at", malData(&arrow.TimestampType{Unit: arrow.Millisecond}, 3, 0, 0, malBuffers(nil, malInt64Buf(1, 2))))},
			column:  "at", path: "At",
		},
		{
			name:    "a bool values bitmap shorter than the rows",
			columns: []malformedColumn{malColumn("flag", malData(arrow.FixedWidthTypes.Boolean, 9, 0, 0, malBuffers(nil, malBytes(0xff))))},
			column:  "flag", path: "Flag",
		},
		{
			name:    "a utf8 offsets buffer shorter than length+offset+1",
			columns: []malformedColumn{malColumn("name", malData(arrow.BinaryTypes.String, 3, 0, 1, malBuffers(nil, malInt32Buf(0, 1, 2, 3), malString("abc"))))},
			column:  "name", path: "Name",
		},
		{
			name:    "a negative length",
			columns: []malformedColumn{malColumn("id", malData(arrow.PrimitiveTypes.Int64, -1, 0, 0, malBuffers(nil, malInt64Buf(1))))},
			rows:    1,
			column:  "id", path: "ID",
		},
		{
			name:    "a length and offset whose sum overflows",
			columns: []malformedColumn{malColumn("id", malData(arrow.PrimitiveTypes.Int64, 1, 0, math.MaxInt, malBuffers(nil, malInt64Buf(1))))},
			column:  "id", path: "ID",
		},
		// Validity.
		{
			name:    "a validity bitmap shorter than the rows",
			columns: []malformedColumn{malColumn("note", malData(arrow.BinaryTypes.String, 9, 1, 0, malBuffers(malBytes(0xfe), malInt32Buf(0, 0, 0, 0, 0, 0, 0, 0, 0, 0), malString(""))))},
			column:  "note", path: "Note",
		},
		{
			name:    "a null count that contradicts the bitmap",
			columns: []malformedColumn{malColumn("note", malData(arrow.BinaryTypes.String, 3, 2, 0, malBuffers(malBytes(0b101), malInt32Buf(0, 1, 1, 2), malString("ab"))))},
			column:  "note", path: "Note",
		},
		{
			name:    "a null count without a bitmap",
			columns: []malformedColumn{malColumn("note", malData(arrow.BinaryTypes.String, 2, 1, 0, malBuffers(nil, malInt32Buf(0, 1, 2), malString("ab"))))},
			column:  "note", path: "Note",
		},
		// Dictionaries.
		{
			name:    "a dictionary index past the dictionary",
			columns: []malformedColumn{malColumn("color", malDictionary(malData(dtMalColors, 3, 0, 0, malBuffers(nil, malInt32Buf(0, 1, 2))), malStrings([]int32{0, 1, 2}, "xy")))},
			column:  "color", path: "Color", before: 2,
		},
		{
			name:    "a negative dictionary index",
			columns: []malformedColumn{malColumn("color", malDictionary(malData(dtMalColors, 2, 0, 0, malBuffers(nil, malInt32Buf(0, -1))), malStrings([]int32{0, 1, 2}, "xy")))},
			column:  "color", path: "Color", before: 1,
		},
		{
			name:    "a dictionary array without a dictionary",
			columns: []malformedColumn{malColumn("color", malData(dtMalColors, 2, 0, 0, malBuffers(nil, malInt32Buf(0, 0))))},
			column:  "color", path: "Color",
		},
		{
			name:    "a dictionary whose entries have bad offsets",
			columns: []malformedColumn{malColumn("color", malDictionary(malData(dtMalColors, 2, 0, 0, malBuffers(nil, malInt32Buf(0, 1))), malStrings([]int32{0, 2, 1}, "xy")))},
			column:  "color", path: "Color",
		},
		// Run-end encoding.
		{
			name:    "run ends that do not increase",
			columns: []malformedColumn{malColumn("runs", malRuns(4, malData(arrow.PrimitiveTypes.Int32, 3, 0, 0, malBuffers(nil, malInt32Buf(2, 2, 4))), malInt64s(1, 2, 3)))},
			column:  "runs", path: "Runs",
		},
		{
			name:    "runs that do not cover the length",
			columns: []malformedColumn{malColumn("runs", malRuns(5, malData(arrow.PrimitiveTypes.Int32, 2, 0, 0, malBuffers(nil, malInt32Buf(2, 3))), malInt64s(1, 2)))},
			column:  "runs", path: "Runs",
		},
		{
			name:    "fewer run values than runs",
			columns: []malformedColumn{malColumn("runs", malRuns(3, malData(arrow.PrimitiveTypes.Int32, 2, 0, 0, malBuffers(nil, malInt32Buf(1, 3))), malInt64s(1)))},
			column:  "runs", path: "Runs",
		},
		{
			name:    "a run values buffer shorter than the runs",
			columns: []malformedColumn{malColumn("runs", malRuns(3, malData(arrow.PrimitiveTypes.Int32, 2, 0, 0, malBuffers(nil, malInt32Buf(1, 3))), malData(arrow.PrimitiveTypes.Int64, 2, 0, 0, malBuffers(nil, malInt64Buf(1)))))},
			column:  "runs", path: "Runs",
		},
		// Views.
		{
			name:    "a utf8_view buffer index out of range",
			columns: []malformedColumn{malColumn("note", malData(arrow.BinaryTypes.StringView, 2, 0, 0, malBuffers(nil, malViews(malInlineView("hi"), malView(20, 1, 0)), malString(long))))},
			column:  "note", path: "Note", before: 1,
		},
		{
			name:    "a utf8_view past the end of its buffer",
			columns: []malformedColumn{malColumn("note", malData(arrow.BinaryTypes.StringView, 1, 0, 0, malBuffers(nil, malViews(malView(20, 0, 5)), malString(long))))},
			column:  "note", path: "Note",
		},
		// Nested arrays.
		{
			name:    "a fixed_size_list child too short",
			columns: []malformedColumn{malColumn("pair", malData(dtMalPair, 2, 0, 0, malBuffers(nil), malInt64s(1, 2, 3)))},
			column:  "pair", path: "Pair",
		},
		{
			name:    "a fixed_size_list child whose values buffer is too short",
			columns: []malformedColumn{malColumn("pair", malData(dtMalPair, 2, 0, 0, malBuffers(nil), malData(arrow.PrimitiveTypes.Int64, 4, 0, 0, malBuffers(nil, malInt64Buf(1, 2, 3)))))},
			column:  "pair.item", path: "Pair[]",
		},
		{
			name:    "a struct child shorter than its parent",
			columns: []malformedColumn{malColumn("meta", malData(dtMalMeta, 2, 0, 0, malBuffers(nil), malStrings([]int32{0, 1}, "o"), malFloat64s(1, 2)))},
			column:  "meta", path: "Meta",
		},
		{
			name:    "a struct child with offsets past its data",
			columns: []malformedColumn{malColumn("meta", malData(dtMalMeta, 1, 0, 0, malBuffers(nil), malStrings([]int32{0, 4}, "o"), malFloat64s(1)))},
			column:  "meta.owner", path: "Meta.Owner",
		},
		{
			name:    "a list of structs whose struct child is shorter than the struct",
			columns: []malformedColumn{malColumn("items", malData(dtMalItems, 1, 0, 0, malBuffers(nil, malInt32Buf(0, 2)), malData(dtMalItem, 2, 0, 0, malBuffers(nil), malStrings([]int32{0, 1, 2}, "ab"), malInt64s(1))))},
			column:  "items.item", path: "Items[]",
		},
		{
			name:    "a list of structs with a field's offsets backwards",
			columns: []malformedColumn{malColumn("items", malData(dtMalItems, 1, 0, 0, malBuffers(nil, malInt32Buf(0, 2)), malData(dtMalItem, 2, 0, 0, malBuffers(nil), malStrings([]int32{0, 2, 1}, "ab"), malInt64s(1, 2))))},
			column:  "items.item.sku", path: "Items[].SKU",
		},
		{
			name:    "map entries whose keys are shorter than the entries",
			columns: []malformedColumn{malColumn("attrs", malData(dtMalAttrs, 1, 0, 0, malBuffers(nil, malInt32Buf(0, 3)), malData(dtMalAttrs.Elem(), 3, 0, 0, malBuffers(nil), malStrings([]int32{0, 1, 2}, "ab"), malInt64s(1, 2, 3))))},
			column:  "attrs.entries", path: "Attrs",
		},
		{
			name:    "map values with a values buffer shorter than the entries",
			columns: []malformedColumn{malColumn("attrs", malData(dtMalAttrs, 1, 0, 0, malBuffers(nil, malInt32Buf(0, 2)), malData(dtMalAttrs.Elem(), 2, 0, 0, malBuffers(nil), malStrings([]int32{0, 1, 2}, "ab"), malData(arrow.PrimitiveTypes.Int64, 2, 0, 0, malBuffers(nil, malInt64Buf(1))))))},
			column:  "attrs.entries.value", path: "Attrs[value]",
		},
		// The record.
		{
			name:    "a column shorter than the record",
			columns: []malformedColumn{id, malColumn("name", malStrings([]int32{0, 1, 2}, "ab"))},
			rows:    3,
			column:  "name", path: "Name",
		},
		{
			name:    "a column longer than the record",
			columns: []malformedColumn{malColumn("name", malStrings([]int32{0, 1, 2}, "ab")), malColumn("id", malInt64s(1, 2, 3))},
			rows:    2,
			column:  "id", path: "ID",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := malRecord(t, tt.columns, tt.rows)
			requireMalformed := func(what string, err error) {
				t.Helper()
				require.Error(t, err, what)
				assert.ErrorIs(t, err, mapper.ErrInvalidData, what)
				var merr *mapper.Error
				require.ErrorAs(t, err, &merr, what)
				assert.Equal(t, tt.column, merr.Column, "%s: the column of %v", what, err)
				assert.Equal(t, tt.path, merr.Path, "%s: the field of %v", what, err)
			}

			rows, err := malNoPanic(t, func() ([]malformedRow, error) {
				return mapper.Decode[malformedRow](rec, mapper.AllowMissing())
			})
			requireMalformed("Decode", err)
			assert.Len(t, rows, tt.before, "the rows before the fault")
			if tt.before > 0 {
				var merr *mapper.Error
				require.ErrorAs(t, err, &merr)
				assert.Equal(t, tt.before, merr.Row, "the first row the fault is about")
			}

			m, err := mapper.New[malformedRow](rec.Schema(), mapper.AllowMissing())
			require.NoError(t, err)
			b, err := malNoPanic(t, func() (mapper.Batch[malformedRow], error) { return m.View(rec) })
			requireMalformed("View", err)
			assert.Equal(t, tt.before, b.Len(), "View's Batch is the rows before the fault")

			dst := make([]malformedRow, 1, 4)
			dst[0].ID = 42
			got, err := malNoPanic(t, func() ([]malformedRow, error) { return m.Append(dst, rec) })
			requireMalformed("Append", err)
			require.Len(t, got, 1+tt.before, "Append appends the rows before the fault")
			assert.Same(t, &dst[0], &got[0], "Append keeps dst")
			assert.Equal(t, malformedRow{ID: 42}, got[0], "Append keeps dst")
			assert.Equal(t, append([]malformedRow{}, rows...), got[1:], "Append appends what Decode returns")
			if tt.before == 0 {
				assert.Equal(t, malformedRow{}, dst[:2][1], "Append writes nothing past dst")
			}
		})
	}
}

// TestMalformedRowCountsAreRejected covers a record whose own row count is
// impossible: no column is wrong, the record is. With no planned column to
// contradict it, a negative count made Decode panic (slicing dst to a
// negative length) and a Reader panic in Read.
func TestMalformedRowCountsAreRejected(t *testing.T) {
	type noColumns struct {
		Missing int64 `arrow:"missing"`
	}
	for _, rows := range []int64{-1, math.MinInt64, math.MaxInt64} {
		base := malRecord(t, []malformedColumn{malColumn("id", malInt64s(1, 2))}, 0)
		rec := &craftedRecord{schema: base.Schema(), cols: base.Columns(), rows: rows}
		_, err := malNoPanic(t, func() ([]noColumns, error) { return mapper.Decode[noColumns](rec, mapper.AllowMissing()) })
		require.ErrorIs(t, err, mapper.ErrInvalidData, "%d rows", rows)
		_, err = malNoPanic(t, func() ([]malformedRow, error) { return mapper.Decode[malformedRow](rec, mapper.AllowMissing()) })
		require.ErrorIs(t, err, mapper.ErrInvalidData, "%d rows", rows)

		schema := rec.Schema()
		rr, err := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
		require.NoError(t, err)
		r, err := mapper.NewReader[noColumns](rr, mapper.AllowMissing())
		require.NoError(t, err)
		_, err = malNoPanic(t, func() (int, error) { return r.Read(make([]noColumns, 8)) })
		require.ErrorIs(t, err, mapper.ErrInvalidData, "%d rows", rows)
		r.Release()
		rr.Release()
	}
}

// malNoPanic calls f and fails the test, with the panic and its stack,
// instead of crashing when f panics.
func malNoPanic[T any](t *testing.T, f func() (T, error)) (v T, err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("panicked on a malformed record: %v\n%s", r, debug.Stack())
		}
	}()
	return f()
}

// malRecord is a record of the columns, of rows rows (the first column's
// length when 0): array.NewRecordBatch's, or, where it panics (a column
// shorter than the record, a negative length), a craftedRecord.
func malRecord(t *testing.T, columns []malformedColumn, rows int) arrow.RecordBatch {
	t.Helper()
	fields := make([]arrow.Field, len(columns))
	cols := make([]arrow.Array, len(columns))
	for i, c := range columns {
		fields[i] = arrow.Field{Name: c.name, Type: c.data.DataType(), Nullable: true}
		cols[i] = malArray(c.data)
	}
	if rows == 0 {
		rows = max(columns[0].data.Len(), 0)
	}
	schema := arrow.NewSchema(fields, nil)
	rec, ok := malNewRecordBatch(schema, cols, int64(rows))
	if !ok {
		return &craftedRecord{schema: schema, cols: cols, rows: int64(rows)}
	}
	for _, col := range cols {
		col.Release()
	}
	t.Cleanup(rec.Release)
	return rec
}

func malNewRecordBatch(schema *arrow.Schema, cols []arrow.Array, rows int64) (rec arrow.RecordBatch, ok bool) {
	defer func() {
		if recover() != nil {
			rec, ok = nil, false
		}
	}()
	return array.NewRecordBatch(schema, cols, rows), true
}

// craftedRecord is a record that claims rows rows, whatever its columns
// hold. Only the methods below are ever called.
type craftedRecord struct {
	arrow.RecordBatch // nil
	schema            *arrow.Schema
	cols              []arrow.Array
	rows              int64
}

func (r *craftedRecord) Schema() *arrow.Schema    { return r.schema }
func (r *craftedRecord) NumRows() int64           { return r.rows }
func (r *craftedRecord) NumCols() int64           { return int64(len(r.cols)) }
func (r *craftedRecord) Columns() []arrow.Array   { return r.cols }
func (r *craftedRecord) Column(i int) arrow.Array { return r.cols[i] }
func (r *craftedRecord) ColumnName(i int) string  { return r.schema.Field(i).Name }
func (r *craftedRecord) Retain()                  {}
func (r *craftedRecord) Release()                 {}

// malArray is d as an arrow.Array: arrow-go's own when array.MakeFromData
// accepts d, a craftedColumn when it panics on it.
func malArray(d arrow.ArrayData) (arr arrow.Array) {
	defer func() {
		if recover() != nil {
			d.Retain()
			arr = craftedColumn{data: d}
		}
	}()
	return array.MakeFromData(d)
}

// craftedColumn hands the mapper an arrow.ArrayData that arrow-go's own
// array types panic on. Only the methods below are ever called: the
// mapper reads Data, arrow-go's record reads the rest.
type craftedColumn struct {
	arrow.Array // nil
	data        arrow.ArrayData
}

func (c craftedColumn) Data() arrow.ArrayData    { return c.data }
func (c craftedColumn) DataType() arrow.DataType { return c.data.DataType() }
func (c craftedColumn) Len() int                 { return c.data.Len() }
func (c craftedColumn) NullN() int               { return c.data.NullN() }
func (c craftedColumn) Retain()                  { c.data.Retain() }
func (c craftedColumn) Release()                 { c.data.Release() }

// Crafting arrays from raw buffers.

func malColumn(name string, d arrow.ArrayData) malformedColumn { return malformedColumn{name, d} }

func malData(dt arrow.DataType, n, nulls, offset int, bufs []*memory.Buffer, children ...arrow.ArrayData) *array.Data {
	return array.NewData(dt, n, bufs, children, nulls, offset)
}

func malBuffers(b ...*memory.Buffer) []*memory.Buffer { return b }

func malBytes(b ...byte) *memory.Buffer { return memory.NewBufferBytes(b) }

func malString(s string) *memory.Buffer { return memory.NewBufferBytes([]byte(s)) }

func malInt32Buf(v ...int32) *memory.Buffer {
	return memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(v))
}

func malInt64Buf(v ...int64) *memory.Buffer {
	return memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(v))
}

func malInt64s(v ...int64) *array.Data {
	return malData(arrow.PrimitiveTypes.Int64, len(v), 0, 0, malBuffers(nil, malInt64Buf(v...)))
}

func malFloat64s(v ...float64) *array.Data {
	return malData(arrow.PrimitiveTypes.Float64, len(v), 0, 0, malBuffers(nil, memory.NewBufferBytes(arrow.Float64Traits.CastToBytes(v))))
}

func malStrings(offsets []int32, data string) *array.Data {
	return malData(arrow.BinaryTypes.String, len(offsets)-1, 0, 0, malBuffers(nil, malInt32Buf(offsets...), malString(data)))
}

func malDictionary(d *array.Data, dict arrow.ArrayData) *array.Data {
	d.SetDictionary(dict)
	return d
}

func malRuns(n int, ends, values arrow.ArrayData) *array.Data {
	dt := arrow.RunEndEncodedOf(ends.DataType(), values.DataType())
	return malData(dt, n, 0, 0, malBuffers(nil), ends, values)
}

// malView is a utf8_view header of a string of size bytes at [offset,
// offset+size) of data buffer index.
func malView(size, index, offset int32) arrow.ViewHeader {
	var h arrow.ViewHeader
	h.SetString(string(make([]byte, size)))
	h.SetIndexOffset(index, offset)
	return h
}

func malInlineView(s string) arrow.ViewHeader {
	var h arrow.ViewHeader
	h.SetString(s)
	return h
}

func malViews(h ...arrow.ViewHeader) *memory.Buffer {
	return memory.NewBufferBytes(arrow.ViewHeaderTraits.CastToBytes(h))
}

// The datatypes of the malformed columns.
var (
	dtMalTags   = arrow.ListOf(arrow.BinaryTypes.String)
	dtMalColors = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	dtMalPair   = arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int64)
	dtMalItem   = arrow.StructOf(
		arrow.Field{Name: "sku", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "qty", Type: arrow.PrimitiveTypes.Int64})
	dtMalItems = arrow.ListOf(dtMalItem)
	dtMalMeta  = arrow.StructOf(
		arrow.Field{Name: "owner", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "score", Type: arrow.PrimitiveTypes.Float64})
	dtMalAttrs = arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64)
)
