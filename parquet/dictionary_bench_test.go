package parquet_test

import (
	"fmt"
	"io"
	"testing"

	amparquet "github.com/arrowmap/arrowmap/parquet"
)

// countingWriter counts the bytes of a file not kept.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// BenchmarkWriteFlatDictionary is what WriteConfig.Dictionary's default was
// decided on: 1M flat rows, snappy, row groups of 128k, with a dictionary
// for text only where it pays (the default), for every column, and for
// none. See WriteConfig.Dictionary for what it measured.
func BenchmarkWriteFlatDictionary(b *testing.B) {
	rows := make([]flat, 1_000_000)
	flatRows(rows, 0)
	on, off := true, false
	for _, bc := range []struct {
		name string
		dict *bool
	}{{"text only (default)", nil}, {"every column", &on}, {"none", &off}} {
		b.Run(bc.name, func(b *testing.B) {
			var size int64
			for b.Loop() {
				c := &countingWriter{}
				w, err := amparquet.NewWriter[flat](io.Writer(c), amparquet.WriteConfig{Compression: amparquet.Snappy, Dictionary: bc.dict})
				if err != nil {
					b.Fatal(err)
				}
				for i := 0; i < len(rows); i += 10_000 {
					if _, err := w.Write(rows[i : i+10_000]); err != nil {
						b.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
				size = c.n
			}
			b.ReportMetric(float64(size)/(1<<20), "MiB")
		})
	}
}

// dictRow is a dict-tagged text column of 500 distinct names beside an id.
type dictRow struct {
	ID   int64  `arrow:"id"`
	Name string `arrow:"name,dict"`
}

// BenchmarkWriteDictColumn writes a dict-tagged column of 30k and 1M rows
// with the default WriteConfig (snappy), reporting the file's size: what
// bench/RESULTS.md compares before and after the direct writer wrote
// Arrow dictionary columns itself.
func BenchmarkWriteDictColumn(b *testing.B) {
	for _, n := range []int{30_000, 1_000_000} {
		rows := make([]dictRow, n)
		for i := range rows {
			rows[i] = dictRow{ID: int64(i), Name: fmt.Sprintf("customer-%03d", i%500)}
		}
		b.Run(fmt.Sprintf("%d rows", n), func(b *testing.B) {
			var size int64
			for b.Loop() {
				c := &countingWriter{}
				w, err := amparquet.NewWriter[dictRow](io.Writer(c), amparquet.WriteConfig{Compression: amparquet.Snappy})
				if err != nil {
					b.Fatal(err)
				}
				for i := 0; i < len(rows); i += 10_000 {
					if _, err := w.Write(rows[i:min(i+10_000, len(rows))]); err != nil {
						b.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
				size = c.n
			}
			b.ReportMetric(float64(size)/1000, "kB")
		})
	}
}
