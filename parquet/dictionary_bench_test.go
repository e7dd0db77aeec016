package parquet_test

import (
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/compress"
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
				w, err := amparquet.NewWriter[flat](io.Writer(c), amparquet.WriteConfig{Compression: compress.Codecs.Snappy, Dictionary: bc.dict})
				if err != nil {
					b.Fatal(err)
				}
				for i := 0; i < len(rows); i += 10_000 {
					if err := w.Write(rows[i : i+10_000]); err != nil {
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
