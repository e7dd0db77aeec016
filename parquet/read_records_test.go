package parquet

import (
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// convertedRow's columns are each stored as another type than written
// (string_view as utf8, timestamp[s] as timestamp[ms], list_view as
// list), so a read converts every column but id back, each checked first
// (checkLayout).
type convertedRow struct {
	S  string    `arrow:"s,view"`
	T  time.Time `arrow:"t,unit=s"`
	ID int64     `arrow:"id"`
	L  []int32   `arrow:"l,list_view"`
}

// BenchmarkReadConvertedColumns is the cost of reading columns that are
// converted back to the types written: go test -run '^$' -bench
// ReadConvertedColumns -benchmem ./parquet
func BenchmarkReadConvertedColumns(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		rows := make([]convertedRow, n)
		for i := range rows {
			rows[i] = convertedRow{S: "name-" + strconv.Itoa(i), T: time.Unix(int64(i), 0).UTC(), ID: int64(i), L: []int32{int32(i), 1}}
		}
		path := filepath.Join(b.TempDir(), "converted.parquet")
		if err := WriteFile(path, rows); err != nil {
			b.Fatal(err)
		}
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				got, err := ReadFile[convertedRow](path)
				if err != nil || len(got) != n {
					b.Fatal(len(got), err)
				}
			}
		})
	}
}
