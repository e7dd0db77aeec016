package mapper_test

import (
	"fmt"
	"math"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

// raceRow is a flat row of every common scalar kind.
type raceRow struct {
	ID    int64     `arrow:"id"`
	Count int32     `arrow:"count"`
	Price float64   `arrow:"price"`
	OK    bool      `arrow:"ok"`
	Name  string    `arrow:"name"`
	Note  *string   `arrow:"note"`
	At    time.Time `arrow:"at"`
	Ratio float32   `arrow:"ratio"`
}

var raceSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "count", Type: arrow.PrimitiveTypes.Int32},
	{Name: "price", Type: arrow.PrimitiveTypes.Float64},
	{Name: "ok", Type: arrow.FixedWidthTypes.Boolean},
	{Name: "name", Type: arrow.BinaryTypes.String},
	{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "at", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "+02:00"}},
	{Name: "ratio", Type: arrow.PrimitiveTypes.Float32},
}, nil)

// raceRecord is n rows of raceSchema: a null note every seventh row, a NaN
// price every thousandth. The columns are filled from Go slices in one call
// each: built value by value, a million rows take seconds under -race.
func raceRecord(mem memory.Allocator, n int) arrow.RecordBatch {
	ids, counts, prices := make([]int64, n), make([]int32, n), make([]float64, n)
	oks, names, notes := make([]bool, n), make([]string, n), make([]string, n)
	hasNote, ats, ratios := make([]bool, n), make([]arrow.Timestamp, n), make([]float32, n)
	words := make([]string, 1009)
	for k := range words {
		words[k] = "word " + strconv.Itoa(k*k)
	}
	for i := range n {
		ids[i] = int64(i)*7919 - 1<<40
		counts[i] = int32(i % 100003)
		prices[i] = float64(i) / 8
		if i%1000 == 999 {
			prices[i] = math.NaN()
		}
		oks[i] = i%3 == 0
		names[i] = words[i%977]
		notes[i], hasNote[i] = words[i%1009], i%7 != 0
		ats[i] = arrow.Timestamp(int64(i) * 1_000_003)
		ratios[i] = float32(i) / 3
	}
	b := array.NewRecordBuilder(mem, raceSchema)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues(ids, nil)
	b.Field(1).(*array.Int32Builder).AppendValues(counts, nil)
	b.Field(2).(*array.Float64Builder).AppendValues(prices, nil)
	b.Field(3).(*array.BooleanBuilder).AppendValues(oks, nil)
	b.Field(4).(*array.StringBuilder).AppendValues(names, nil)
	b.Field(5).(*array.StringBuilder).AppendValues(notes, hasNote)
	b.Field(6).(*array.TimestampBuilder).AppendValues(ats, nil)
	b.Field(7).(*array.Float32Builder).AppendValues(ratios, nil)
	return b.NewRecordBatch()
}

// TestParallelDecodeWithASharedMapper decodes a record of a million rows
// with Parallelism(2) from 8 goroutines at once, all through one Mapper:
// half decode the whole record, half view it and decode it in slices. Every
// row must be what a serial decode makes of it.
func TestParallelDecodeWithASharedMapper(t *testing.T) {
	const rows, goroutines, sliceRows = 1 << 20, 8, 1 << 16
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := raceRecord(mem, rows)
	defer rec.Release()

	serial, err := mapper.New[raceRow](raceSchema)
	require.NoError(t, err)
	want, err := serial.Decode(rec)
	require.NoError(t, err)
	require.Len(t, want, rows)

	shared, err := mapper.New[raceRow](raceSchema, mapper.Parallelism(2))
	require.NoError(t, err)
	failures := make([]string, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			if g%2 == 0 {
				got, err := shared.Decode(rec)
				if err != nil {
					failures[g] = err.Error()
					return
				}
				failures[g] = raceDifference(want, got, 0)
				return
			}
			batch, err := shared.View(rec)
			if err != nil {
				failures[g] = err.Error()
				return
			}
			var page []raceRow
			for at := 0; at < rows && failures[g] == ""; at += sliceRows {
				page = batch.Slice(at, at+sliceRows).Append(page[:0])
				failures[g] = raceDifference(want[at:at+sliceRows], page, at)
			}
		})
	}
	wg.Wait()
	for g, f := range failures {
		require.Empty(t, f, "goroutine %d", g)
	}
}

// raceDifference is the first row where got differs from want, as a
// message; "" when they agree. Row at of the record is got[0].
func raceDifference(want, got []raceRow, at int) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d rows, want %d", len(got), len(want))
	}
	for i := range want {
		w, g := &want[i], &got[i]
		same := w.ID == g.ID && w.Count == g.Count && w.OK == g.OK && w.Name == g.Name && w.Ratio == g.Ratio &&
			(w.Price == g.Price || math.IsNaN(w.Price) && math.IsNaN(g.Price)) &&
			(w.Note == nil) == (g.Note == nil) && (w.Note == nil || *w.Note == *g.Note) &&
			w.At.Equal(g.At) && w.At.Location().String() == g.At.Location().String()
		if !same {
			return fmt.Sprintf("row %d: got %+v, want %+v", at+i, *g, *w)
		}
	}
	return ""
}
