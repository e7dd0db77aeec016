package parquet_test

import (
	"io"
	"testing"

	"github.com/arrowmap/arrowmap/internal/testsupport/benchdata"
	amparquet "github.com/arrowmap/arrowmap/parquet"
)

// BenchmarkDirectWriter writes benchdata's flat and nested rows with the
// direct writer at the defaults, statistics on: the benchmark of how it
// computes them (bench/RESULTS.md, "Direct writer statistics").
func BenchmarkDirectWriter(b *testing.B) {
	const n = 200_000
	flat := make([]benchdata.Flat, n)
	for i := range flat {
		flat[i] = benchdata.FlatRow(i)
	}
	nested := make([]benchdata.Nested, n)
	for i := range nested {
		nested[i] = benchdata.NestedRow(i)
	}
	b.Run("flat", func(b *testing.B) { benchDirect(b, flat) })
	b.Run("nested", func(b *testing.B) { benchDirect(b, nested) })
}

func benchDirect[T any](b *testing.B, rows []T) {
	if !amparquet.WritesDirectly[T](amparquet.WriteConfig{}) {
		b.Fatalf("%T is not written directly", rows)
	}
	b.ReportAllocs()
	for b.Loop() {
		w, err := amparquet.NewWriter[T](io.Discard, amparquet.WriteConfig{})
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
