package parquet_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/require"
)

type item struct {
	SKU string `arrow:"sku"`
	Qty int32  `arrow:"qty"`
}

// product reads every column of productSchema.
type product struct {
	ID    int64    `arrow:"id"`
	Name  string   `arrow:"name"`
	Tags  []string `arrow:"tags"`
	Items []item   `arrow:"items"`
	Score float64  `arrow:"score"`
}

// basket reads 2 of the 5 columns: a list of structs and the column after
// it, whose Parquet leaf index (5) is not its field index (4).
type basket struct {
	Items []item  `arrow:"items"`
	Score float64 `arrow:"score"`
}

var productSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "name", Type: arrow.BinaryTypes.String},
	{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
	{Name: "items", Type: arrow.ListOf(arrow.StructOf(
		arrow.Field{Name: "sku", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "qty", Type: arrow.PrimitiveTypes.Int32},
	))},
	{Name: "score", Type: arrow.PrimitiveTypes.Float64},
}, nil)

// productRecords builds records of the given sizes, with ids counting up
// from 0 across them.
func productRecords(mem memory.Allocator, sizes ...int) []arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, productSchema)
	defer b.Release()
	var recs []arrow.RecordBatch
	id := 0
	for _, n := range sizes {
		for range n {
			b.Field(0).(*array.Int64Builder).Append(int64(id))
			b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("product-%d", id))
			tags := b.Field(2).(*array.ListBuilder)
			if id%5 == 0 {
				tags.AppendNull()
			} else {
				tags.Append(true)
				for k := range id % 3 {
					tags.ValueBuilder().(*array.StringBuilder).Append(fmt.Sprintf("t%d", k))
				}
			}
			items := b.Field(3).(*array.ListBuilder)
			items.Append(true)
			sb := items.ValueBuilder().(*array.StructBuilder)
			for k := range id % 4 {
				sb.Append(true)
				sb.FieldBuilder(0).(*array.StringBuilder).Append(fmt.Sprintf("sku-%d-%d", id, k))
				sb.FieldBuilder(1).(*array.Int32Builder).Append(int32(id*10 + k))
			}
			b.Field(4).(*array.Float64Builder).Append(float64(id) / 4)
			id++
		}
		recs = append(recs, b.NewRecordBatch())
	}
	return recs
}

func release(recs []arrow.RecordBatch) {
	for _, r := range recs {
		r.Release()
	}
}

// writeParquet writes recs with arrow-go's own writer, in row groups of at
// most rowGroup rows.
func writeParquet(t *testing.T, mem memory.Allocator, recs []arrow.RecordBatch, rowGroup int64) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(productSchema, &buf,
		parquet.NewWriterProperties(parquet.WithAllocator(mem), parquet.WithMaxRowGroupLength(rowGroup)),
		pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem)))
	require.NoError(t, err)
	for _, rec := range recs {
		require.NoError(t, w.Write(rec))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// openParquet opens data for reading, in records of batch rows.
func openParquet(t *testing.T, mem memory.Allocator, data []byte, batch int64) *pqarrow.FileReader {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data), file.WithReadProps(parquet.NewReaderProperties(mem)))
	require.NoError(t, err)
	t.Cleanup(func() { pf.Close() })
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: batch}, mem)
	require.NoError(t, err)
	return fr
}

// decodeAll is what mapper.Decode makes of recs, in order.
func decodeAll[T any](t *testing.T, recs []arrow.RecordBatch) []T {
	t.Helper()
	var want []T
	for _, rec := range recs {
		rows, err := mapper.Decode[T](rec)
		require.NoError(t, err)
		want = append(want, rows...)
	}
	return want
}

// readAll reads every page of r, copying the rows out of the reused page.
func readAll[T any](t *testing.T, r *mapper.Reader[T], size int) []T {
	t.Helper()
	var got []T
	for page, err := range r.Pages(size) {
		require.NoError(t, err)
		got = append(got, page...)
	}
	return got
}

func TestParquetReadsTheRowsMapperDecodes(t *testing.T) {
	tests := []struct {
		name      string
		sizes     []int
		rowGroup  int64
		batch     int64
		pageSize  int
		wantGroup int
	}{
		{"records split into many row groups, pages across records", []int{13, 1, 30, 6}, 8, 5, 7, 8},
		{"one row group per record, one record per file", []int{3, 4, 5}, 100, 0, 4, 3},
		{"pages larger than the file", []int{20}, 6, 9, 1000, 4},
		{"a page per row", []int{2, 9}, 3, 4, 1, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			recs := productRecords(mem, tt.sizes...)
			defer release(recs)
			fr := openParquet(t, mem, writeParquet(t, mem, recs, tt.rowGroup), tt.batch)
			require.Equal(t, tt.wantGroup, fr.ParquetReader().NumRowGroups())

			r, err := amparquet.NewReader[product](fr)
			require.NoError(t, err)
			got := readAll(t, r, tt.pageSize)
			r.Release()
			// Equal rows in the same order: the row groups come in order.
			require.Equal(t, decodeAll[product](t, recs), got)

			r2, err := amparquet.NewReader[basket](fr)
			require.NoError(t, err)
			defer r2.Release()
			require.Equal(t, decodeAll[basket](t, recs), readAll(t, r2, tt.pageSize))
		})
	}
}

func TestParquetReadsOnlyTheColumnsTUses(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	recs := productRecords(mem, 10, 10)
	defer release(recs)
	fr := openParquet(t, mem, writeParquet(t, mem, recs, 4), 3)

	r, err := amparquet.NewReader[basket](fr)
	require.NoError(t, err)
	defer r.Release()
	require.Equal(t, []string{"items", "score"}, fieldNames(r.Schema()))
	require.True(t, r.Schema().Field(0).Type.(*arrow.ListType).Elem().(*arrow.StructType).NumFields() == 2,
		"the nested column is read whole")
	require.Equal(t, decodeAll[basket](t, recs), readAll(t, r, 6))
}

func TestParquetReadsOneColumnWhenTUsesNone(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	recs := productRecords(mem, 7, 5)
	defer release(recs)
	fr := openParquet(t, mem, writeParquet(t, mem, recs, 4), 3)

	type absent struct {
		Color string `arrow:"color"`
	}
	r, err := amparquet.NewReader[absent](fr, mapper.AllowMissing())
	require.NoError(t, err)
	defer r.Release()
	require.Len(t, r.Schema().Fields(), 1)
	require.Equal(t, make([]absent, 12), readAll(t, r, 5), "one zero row per row of the file")
}

func TestParquetChecksTBeforeReading(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	recs := productRecords(mem, 4)
	defer release(recs)
	fr := openParquet(t, mem, writeParquet(t, mem, recs, 4), 0)

	type missing struct {
		Color string `arrow:"color"`
	}
	_, err := amparquet.NewReader[missing](fr)
	require.ErrorIs(t, err, mapper.ErrMissingColumn)

	type mistyped struct {
		Name int64 `arrow:"name"`
	}
	_, err = amparquet.NewReader[mistyped](fr)
	require.ErrorIs(t, err, mapper.ErrTypeMismatch)
}

func fieldNames(s *arrow.Schema) []string {
	var names []string
	for _, f := range s.Fields() {
		names = append(names, f.Name)
	}
	return names
}

type timer struct {
	ID    int64           `arrow:"id"`
	Every time.Duration   `arrow:"every"`
	Laps  []time.Duration `arrow:"laps"`
}

func TestNewReaderReadsTheDurationsAWriterStoredAsInt64(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rows := []timer{{1, time.Second, []time.Duration{time.Minute}}, {2, -time.Nanosecond, nil}, {3, time.Hour, []time.Duration{1, 2}}}
	var buf bytes.Buffer
	w, err := amparquet.NewWriter[timer](&buf, amparquet.WriteConfig{})
	require.NoError(t, err)
	require.NoError(t, errOf(w.Write(rows)))
	require.NoError(t, w.Close())

	r, err := amparquet.NewReader[timer](openParquet(t, mem, buf.Bytes(), 2))
	require.NoError(t, err)
	defer r.Release()
	got, err := r.ReadAll()
	require.NoError(t, err)
	require.Equal(t, rows, got)
}
