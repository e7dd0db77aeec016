package parquet_test

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/require"
)

func TestARecordWriterWritesWhatARecordReaderReadsBackInRowGroupsOfItsConfig(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "took", Type: arrow.FixedWidthTypes.Duration_ms},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	var recs []arrow.RecordBatch
	for r := range 3 {
		for i := range 1000 {
			v := int64(r*1000 + i)
			b.Field(0).(*array.Int64Builder).Append(v)
			if v%7 == 0 {
				b.Field(1).AppendNull()
			} else {
				b.Field(1).(*array.StringBuilder).Append(string(rune('a' + v%26)))
			}
			b.Field(2).(*array.DurationBuilder).Append(arrow.Duration(-v))
		}
		recs = append(recs, b.NewRecordBatch())
	}
	var buf bytes.Buffer
	w, err := amparquet.NewRecordWriter(&buf, schema, amparquet.WriteConfig{RowGroupRows: 700})
	require.NoError(t, err)
	for _, rec := range recs {
		require.NoError(t, w.Write(rec))
	}
	require.NoError(t, w.Close())

	pf, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	require.Equal(t, 5, pf.NumRowGroups(), "3,000 rows in row groups of 700")
	pf.Close()

	rr, err := amparquet.OpenRecordsReaderAt(bytes.NewReader(buf.Bytes()), int64(buf.Len()), amparquet.ReadConfig{BatchRows: 512})
	require.NoError(t, err)
	defer rr.Release()
	require.EqualValues(t, 3000, rr.(mapper.RowsHinter).RowsHint())
	require.Equal(t, schema.String(), withoutFieldIDs(rr.Schema()).String())
	want := array.NewTableFromRecords(schema, recs)
	defer want.Release()
	var got []arrow.RecordBatch
	for rr.Next() {
		rec := rr.RecordBatch()
		rec.Retain()
		got = append(got, rec)
	}
	require.NoError(t, rr.Err())
	gotTable := array.NewTableFromRecords(rr.Schema(), got)
	defer gotTable.Release()
	require.EqualValues(t, 3000, gotTable.NumRows())
	for c := range 3 {
		require.True(t, array.ChunkedEqual(want.Column(c).Data(), gotTable.Column(c).Data()), "column %d", c)
	}

	sc, err := amparquet.ReadSchema(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	require.Equal(t, schema.String(), withoutFieldIDs(sc).String())
}

// withoutFieldIDs is schema without the PARQUET:field_id metadata pqarrow
// adds to top-level fields.
func withoutFieldIDs(schema *arrow.Schema) *arrow.Schema {
	fields := schema.Fields()
	for i := range fields {
		fields[i].Metadata = arrow.Metadata{}
	}
	return arrow.NewSchema(fields, nil)
}
