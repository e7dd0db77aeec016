package parquet_test

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	amparquet "github.com/arrowmap/arrowmap/parquet"
)

// decimalTrip is trip with its fare a DECIMAL(15,2), as TPC-H's amounts
// are: the one column of the table that arrow-go's column writer writes.
type decimalTrip struct {
	ID         int64
	Status     string
	Paid       bool
	Flag       string
	Passengers int32
	Quantity   int64
	Distance   float64
	Fare       decimal.Decimal128 `arrow:",decimal(15,2)"`
	Day        time.Time          `arrow:",date32"`
	Pickup     time.Time          `arrow:",timestamp,unit=us"`
	City       string
	Zone       int32
}

// smallTrip is decimalTrip with its passengers an int8: a column that
// arrow-go's column writer writes (widened to INT32) in the direct
// writer's file.
type smallTrip struct {
	decimalTrip
	Seats int8
}

// BenchmarkWriteOneDecimalColumn writes the trips-like table at the zero
// WriteConfig: with its fare a float64, and a decimal (every column the
// direct writer's), and with an int8 column besides (written by arrow-go's
// column writer in the direct writer's file: one writer per column); and
// the decimal tables through pqarrow whole, as every schema with a decimal
// or an int8 was written before (bench/RESULTS.md, "One writer per column
// (issue 24)").
func BenchmarkWriteOneDecimalColumn(b *testing.B) {
	const n = 1 << 19
	trips := tripRows(n)
	decimals := make([]decimalTrip, n)
	for i, t := range trips {
		decimals[i] = decimalTrip{
			ID: t.ID, Status: t.Status, Paid: t.Paid, Flag: t.Flag, Passengers: t.Passengers, Quantity: t.Quantity,
			Distance: t.Distance, Fare: decimal128.FromI64(int64(t.Fare * 100)), Day: t.Day, Pickup: t.Pickup, City: t.City, Zone: t.Zone,
		}
	}
	b.Run("float64 fare, direct", func(b *testing.B) { benchWriteFile(b, trips, amparquet.WriteConfig{}) })
	b.Run("decimal fare, mixed", func(b *testing.B) { benchWriteFile(b, decimals, amparquet.WriteConfig{}) })
	b.Run("decimal fare, pqarrow whole", func(b *testing.B) {
		benchWriteFile(b, decimals, amparquet.ThroughPqarrow(true, amparquet.WriteConfig{}))
	})
	small := make([]smallTrip, n)
	for i, t := range decimals {
		small[i] = smallTrip{t, int8(t.Passengers)}
	}
	b.Run("decimal fare and int8, mixed", func(b *testing.B) { benchWriteFile(b, small, amparquet.WriteConfig{}) })
	b.Run("decimal fare and int8, pqarrow whole", func(b *testing.B) {
		benchWriteFile(b, small, amparquet.ThroughPqarrow(true, amparquet.WriteConfig{}))
	})
}
