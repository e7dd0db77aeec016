package parquet_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	amparquet "github.com/arrowmap/arrowmap/parquet"
)

// flatRecords is 1M rows of int64, float64, utf8 and decimal128(18, 2)
// columns, none nullable, in records of 64Ki rows: every column checked,
// none holding a forbidden value.
func flatRecords(b *testing.B) []arrow.RecordBatch {
	const n, batch = 1_000_000, 64 << 10
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "x", Type: arrow.PrimitiveTypes.Float64},
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "price", Type: &arrow.Decimal128Type{Precision: 18, Scale: 2}},
	}, nil)
	var recs []arrow.RecordBatch
	for i := 0; i < n; i += batch {
		rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for r := i; r < min(i+batch, n); r++ {
			rb.Field(0).(*array.Int64Builder).Append(int64(r))
			rb.Field(1).(*array.Float64Builder).Append(float64(r) / 3)
			rb.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("name %d in %s", r, []string{"Oslo", "Zürich", "東京", "São Paulo"}[r%4]))
			rb.Field(3).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(r)*7919 - 1<<40))
		}
		rec := rb.NewRecordBatch()
		rb.Release()
		b.Cleanup(rec.Release)
		recs = append(recs, rec)
	}
	return recs
}

// BenchmarkRefuseForbidden times RecordWriter over 1M rows of four flat
// columns, and the check of forbidden values alone over the same records.
func BenchmarkRefuseForbidden(b *testing.B) {
	recs := flatRecords(b)
	b.Run("RecordWriter", func(b *testing.B) { benchRecordWriter(b, recs) })
	b.Run("the check alone", func(b *testing.B) { benchRefuseForbidden(b, recs) })
	for c, name := range []string{"int64", "float64", "utf8", "decimal128"} {
		b.Run("the check of "+name, func(b *testing.B) {
			for b.Loop() {
				for _, rec := range recs {
					one := rec.NewSlice(0, rec.NumRows())
					col := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{rec.Schema().Field(c)}, nil), []arrow.Array{one.Column(c)}, rec.NumRows())
					err := amparquet.RefuseForbidden(col)
					col.Release()
					one.Release()
					if err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// benchRecordWriter writes recs to io.Discard through a RecordWriter.
func benchRecordWriter(b *testing.B, recs []arrow.RecordBatch) {
	for b.Loop() {
		w, err := amparquet.NewRecordWriter(io.Discard, recs[0].Schema(), amparquet.WriteConfig{})
		if err != nil {
			b.Fatal(err)
		}
		for _, rec := range recs {
			if err := w.Write(rec); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// benchRefuseForbidden runs the check of forbidden values alone over recs.
func benchRefuseForbidden(b *testing.B, recs []arrow.RecordBatch) {
	for b.Loop() {
		for _, rec := range recs {
			if err := amparquet.RefuseForbidden(rec); err != nil {
				b.Fatal(err)
			}
		}
	}
}
