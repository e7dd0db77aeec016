package mapper_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

// The fixtures of the decoding tests (decode_*_test.go): records built from JSON (array.FromJSON) or
// from hand-made buffers where JSON cannot say it (list views out of order,
// struct rows that are null over children with values).

// fxCol is one column of a test record.
type fxCol struct {
	name string
	arr  arrow.Array
}

// fxJSON is the array of dt that js describes.
func fxJSON(t *testing.T, mem memory.Allocator, dt arrow.DataType, js string) arrow.Array {
	t.Helper()
	arr, _, err := array.FromJSON(mem, dt, strings.NewReader(js))
	require.NoError(t, err, "%s from %s", dt, js)
	return arr
}

// fxRecord makes a record of cols, taking over their references.
func fxRecord(t *testing.T, cols ...fxCol) arrow.RecordBatch {
	t.Helper()
	fields := make([]arrow.Field, len(cols))
	arrs := make([]arrow.Array, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.name, Type: c.arr.DataType(), Nullable: true}
		arrs[i] = c.arr
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, -1)
	for _, a := range arrs {
		a.Release()
	}
	return rec
}

// fxSchema is a schema of columns of the given names and types.
func fxSchema(namesAndTypes ...any) *arrow.Schema {
	var fields []arrow.Field
	for i := 0; i < len(namesAndTypes); i += 2 {
		fields = append(fields, arrow.Field{Name: namesAndTypes[i].(string), Type: namesAndTypes[i+1].(arrow.DataType), Nullable: true})
	}
	return arrow.NewSchema(fields, nil)
}

// fxJSONList is the JSON array of vals, with null in place of the rows
// that nulls lists.
func fxJSONList[V any](vals []V, nulls ...int) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = fmt.Sprint(v)
	}
	for _, i := range nulls {
		parts[i] = "null"
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// fxDecodeAll decodes rec with a Mapper[T] built for its schema and returns
// the rows, after checking that every other way of reaching them gives the
// same rows: mapper.Decode and Mapper.Append after a prefix; the record
// sliced with RecordBatch.NewSlice at offset 1, and a record of columns each
// sliced with array.NewSlice; a Batch from View sliced, sliced again and
// read with Row; a Batch of the sliced record, sliced again.
func fxDecodeAll[T any](t *testing.T, rec arrow.RecordBatch, opts ...mapper.ReadOption) []T {
	t.Helper()
	n := int(rec.NumRows())
	require.GreaterOrEqual(t, n, 4, "decodeAll needs at least 4 rows")
	m, err := mapper.New[T](rec.Schema(), opts...)
	require.NoError(t, err)
	full, err := m.Decode(rec)
	require.NoError(t, err)
	require.Len(t, full, n)

	once, err := mapper.Decode[T](rec, opts...)
	require.NoError(t, err)
	require.Equal(t, full, once, "mapper.Decode")

	appended, err := m.Append([]T{full[n-1]}, rec)
	require.NoError(t, err)
	require.Equal(t, append([]T{full[n-1]}, full...), appended, "Mapper.Append after a prefix")

	sliced := rec.NewSlice(1, int64(n))
	defer sliced.Release()
	got, err := m.Decode(sliced)
	require.NoError(t, err)
	require.Equal(t, full[1:], got, "the record sliced from row 1")

	cols := make([]arrow.Array, rec.NumCols())
	for k := range cols {
		cols[k] = array.NewSlice(rec.Column(k), 2, int64(n-1))
	}
	byColumn := array.NewRecordBatch(rec.Schema(), cols, int64(n-3))
	for _, c := range cols {
		c.Release()
	}
	defer byColumn.Release()
	got, err = m.Decode(byColumn)
	require.NoError(t, err)
	require.Equal(t, full[2:n-1], got, "columns sliced to rows [2, n-1)")

	b, err := m.View(rec)
	require.NoError(t, err)
	require.Equal(t, n, b.Len())
	require.Equal(t, full, b.Append(nil), "Batch.Append")
	require.Equal(t, full[1:n-1], b.Slice(1, n-1).Append(nil), "Batch.Slice(1, n-1)")
	require.Equal(t, full[2:n-1], b.Slice(1, n-1).Slice(1, n-2).Append(nil), "a slice of a slice")
	require.Equal(t, full[3:4], b.Slice(1, n).Slice(1, n-1).Slice(1, 2).Append(nil), "a slice of a slice of a slice")
	require.Empty(t, b.Slice(2, 2).Append(nil), "an empty slice")
	for i := range n {
		row := full[(i+1)%n] // Row must overwrite every field, nulls included
		b.Row(i, &row)
		require.Equal(t, full[i], row, "Batch.Row(%d)", i)
	}

	bs, err := m.View(sliced)
	require.NoError(t, err)
	require.Equal(t, full[2:n], bs.Slice(1, n-1).Append(nil), "a Batch of the sliced record, sliced")
	var last T
	bs.Row(n-2, &last)
	require.Equal(t, full[n-1], last, "Batch.Row of the sliced record")
	return full
}

// fxCase is a row of a decoding table: run builds its records from mem.
type fxCase struct {
	name string
	run  func(t *testing.T, mem memory.Allocator)
}

func fxRun(t *testing.T, cases []fxCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			tc.run(t, mem)
		})
	}
}

// fxRequireError checks that err is an *mapper.Error of kind with the
// given path, column and row.
func fxRequireError(t *testing.T, err error, kind error, path, column string, row int) *mapper.Error {
	t.Helper()
	require.Error(t, err)
	require.ErrorIs(t, err, kind)
	var me *mapper.Error
	require.ErrorAs(t, err, &me)
	require.Equal(t, path, me.Path, "Path of %v", err)
	require.Equal(t, column, me.Column, "Column of %v", err)
	require.Equal(t, row, me.Row, "Row of %v", err)
	return me
}

func fxPtr[V any](v V) *V { return &v }

// --- numbers and bools ---

// --- strings and bytes ---

// --- time ---

// --- decimals ---

// --- lists and maps ---

// --- structs and pointers ---

// --- encoding.TextUnmarshaler and As ---

// --- embedded structs ---

// --- ZeroCopy ---
