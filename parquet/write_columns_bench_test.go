package parquet_test

import (
	"testing"

	amparquet "github.com/arrowmap/arrowmap/parquet"
)

// BenchmarkWriteColumnOptions writes the trips-like table at the zero
// WriteConfig and with each column option on the columns it suits: the
// cost of bloom filters (on the id, the status and the city), of
// BYTE_STREAM_SPLIT floats and of the checked sorting column in the direct
// writer, and of the delta encodings, which go through pqarrow
// (bench/RESULTS.md, "Parquet column options (issue 24)").
func BenchmarkWriteColumnOptions(b *testing.B) {
	const n = 1 << 20
	trips := tripRows(n)
	bloom := amparquet.ColumnConfig{BloomFilter: true}
	configs := []struct {
		name string
		cfg  amparquet.WriteConfig
	}{
		{"zero", amparquet.WriteConfig{}},
		{"bloom id,status,city", amparquet.WriteConfig{Columns: map[string]amparquet.ColumnConfig{"ID": bloom, "Status": bloom, "City": bloom}}},
		{"byte_stream_split distance,fare", amparquet.WriteConfig{Columns: map[string]amparquet.ColumnConfig{
			"Distance": {Encoding: amparquet.EncodingByteStreamSplit}, "Fare": {Encoding: amparquet.EncodingByteStreamSplit}}}},
		{"sorted by id", amparquet.WriteConfig{SortingColumns: []amparquet.SortingColumn{{Column: "ID"}}}},
		{"delta id,pickup (pqarrow)", amparquet.WriteConfig{Columns: map[string]amparquet.ColumnConfig{
			"ID": {Encoding: amparquet.EncodingDelta}, "Pickup": {Encoding: amparquet.EncodingDelta}}}},
	}
	for _, c := range configs {
		b.Run(c.name, func(b *testing.B) { benchWriteFile(b, trips, c.cfg) })
	}
}
