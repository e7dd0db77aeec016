package parquet_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
)

type textRow struct {
	ID   int64  `arrow:"id"`
	Name string `arrow:"name"`
	City string `arrow:"city"`
}

func utf8Rows(n int) []textRow {
	rows := make([]textRow, n)
	for i := range rows {
		rows[i] = textRow{ID: int64(i), Name: fmt.Sprintf("name %d", i), City: []string{"Oslo", "Zürich", "東京", "São Paulo"}[i%4]}
	}
	return rows
}

// BenchmarkWriteText writes 1M rows of two text columns with Writer[T]
// (whose records the mapper validated: no UTF-8 check) and the same rows
// as records with RecordWriter (which checks each record), and times the
// check alone over those records.
func BenchmarkWriteText(b *testing.B) {
	const n, batch = 1_000_000, 64 << 10
	rows := utf8Rows(n)
	var recs []arrow.RecordBatch
	for i := 0; i < n; i += batch {
		rec, err := mapper.Encode(rows[i:min(i+batch, n)])
		if err != nil {
			b.Fatal(err)
		}
		defer rec.Release()
		recs = append(recs, rec)
	}
	b.Run("Writer[T]", func(b *testing.B) {
		for b.Loop() {
			w, err := amparquet.NewWriter[textRow](io.Discard, amparquet.WriteConfig{})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := w.Write(rows); err != nil {
				b.Fatal(err)
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("RecordWriter", func(b *testing.B) { benchRecordWriter(b, recs) })
	b.Run("the UTF-8 check alone", func(b *testing.B) { benchRefuseForbidden(b, recs) })
}

type vectorRow struct {
	ID  int64       `arrow:"id"`
	Vec [8]float32  `arrow:"vec"`
	Opt *[2]float64 `arrow:"opt"`
}

// BenchmarkWriteFixedSizeLists writes 1M rows of fixed-size lists with
// Writer[T], one of them with a nil row in four.
func BenchmarkWriteFixedSizeLists(b *testing.B) {
	rows := make([]vectorRow, 1_000_000)
	for i := range rows {
		rows[i].ID = int64(i)
		for k := range rows[i].Vec {
			rows[i].Vec[k] = float32(i + k)
		}
		if i%4 != 0 {
			rows[i].Opt = &[2]float64{float64(i), -1}
		}
	}
	for b.Loop() {
		w, err := amparquet.NewWriter[vectorRow](io.Discard, amparquet.WriteConfig{}, mapper.Allocator(memory.DefaultAllocator))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := w.Write(rows); err != nil {
			b.Fatal(err)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
