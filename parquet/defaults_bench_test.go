package parquet_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/arrowmap/arrowmap/internal/testsupport/benchdata"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
)

// trip is a row shaped like users' tables: statuses, flags, quantities,
// dates and cities that repeat, beside a unique id and times.
type trip struct {
	ID         int64
	Status     string
	Paid       bool
	Flag       string
	Passengers int32
	Quantity   int64
	Distance   float64
	Fare       float64
	Day        time.Time `arrow:",date32"`
	Pickup     time.Time `arrow:",timestamp,unit=us"`
	City       string
	Zone       int32
}

func tripRows(n int) []trip {
	r := rand.New(rand.NewPCG(24, 24))
	statuses := []string{"completed", "cancelled", "no-show", "disputed", "refunded"}
	cities := make([]string, 50)
	for i := range cities {
		cities[i] = "city-" + string(rune('A'+i%26)) + string(rune('a'+i/26))
	}
	start := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	rows := make([]trip, n)
	for i := range rows {
		at := start.Add(time.Duration(i) * 7 * time.Second)
		rows[i] = trip{
			ID: int64(i), Status: statuses[r.IntN(len(statuses))], Paid: r.IntN(10) > 0,
			Flag: []string{"Y", "N"}[r.IntN(2)], Passengers: int32(1 + r.IntN(6)), Quantity: int64(1 + r.IntN(50)),
			Distance: float64(r.IntN(300)) / 10, Fare: float64(5+r.IntN(120)) / 2,
			Day: at.Truncate(24 * time.Hour), Pickup: at.Truncate(time.Second), City: cities[r.IntN(len(cities))], Zone: int32(r.IntN(265)),
		}
	}
	return rows
}

// BenchmarkWriteDefaults writes a trips-like table and benchdata's flat
// and nested rows at the zero WriteConfig and with snappy (the same file
// before and after issue 24's defaults), and the trips through pqarrow at
// its defaults with snappy: time, allocations and the file's size
// (bench/RESULTS.md, "Parquet defaults (issue 24)").
func BenchmarkWriteDefaults(b *testing.B) {
	const n = 1 << 20
	trips := tripRows(n)
	flat := make([]benchdata.Flat, n/4)
	for i := range flat {
		flat[i] = benchdata.FlatRow(i)
	}
	nested := make([]benchdata.Nested, n/4)
	for i := range nested {
		nested[i] = benchdata.NestedRow(i)
	}
	configs := []struct {
		name string
		cfg  amparquet.WriteConfig
	}{
		{"zero", amparquet.WriteConfig{}},
		{"snappy", amparquet.WriteConfig{Compression: amparquet.Snappy}},
	}
	for _, c := range configs {
		b.Run("trips/"+c.name, func(b *testing.B) { benchWriteFile(b, trips, c.cfg) })
	}
	b.Run("trips/pqarrow snappy", func(b *testing.B) {
		rec, err := mapper.Encode(trips)
		if err != nil {
			b.Fatal(err)
		}
		defer rec.Release()
		props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy), parquet.WithMaxRowGroupLength(amparquet.DefaultRowGroupRows))
		var size int64
		b.ReportAllocs()
		for b.Loop() {
			w := &countingWriter{}
			fw, err := pqarrow.NewFileWriter(rec.Schema(), w, props, pqarrow.DefaultWriterProps())
			if err != nil {
				b.Fatal(err)
			}
			if err := fw.WriteBuffered(rec); err != nil {
				b.Fatal(err)
			}
			if err := fw.Close(); err != nil {
				b.Fatal(err)
			}
			size = w.n
		}
		b.ReportMetric(float64(size)/(1<<20), "file-MiB")
	})
	for _, c := range configs {
		b.Run("flat/"+c.name, func(b *testing.B) { benchWriteFile(b, flat, c.cfg) })
		b.Run("nested/"+c.name, func(b *testing.B) { benchWriteFile(b, nested, c.cfg) })
	}
}

func benchWriteFile[T any](b *testing.B, rows []T, cfg amparquet.WriteConfig) {
	var size int64
	b.ReportAllocs()
	for b.Loop() {
		out := &countingWriter{}
		w, err := amparquet.NewWriter[T](out, cfg)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := w.Write(rows); err != nil {
			b.Fatal(err)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		size = out.n
	}
	b.ReportMetric(float64(size)/(1<<20), "file-MiB")
}
