// Command ipc writes 10,000 trades as an Arrow IPC stream, compressed with
// ZSTD and their symbols dictionary-encoded, to memory, then reads the
// stream back page by page: one call to write []T, one to read it.
//
//	go run ./examples/ipc
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	amipc "github.com/arrowmap/arrowmap/ipc"
	"github.com/arrowmap/arrowmap/mapper"

	_ "time/tzdata" // America/New_York, on hosts without a zone database
)

// Trade is one row of the stream.
type Trade struct {
	ID     int64     `arrow:"id"`
	Symbol string    `arrow:"symbol,dict"` // few distinct values: a dictionary
	Price  float64   `arrow:"price"`
	At     time.Time `arrow:"at,timestamp,unit=ms,tz=America/New_York"`
	Note   *string   `arrow:"note"` // nil is null
}

const (
	trades   = 10_000
	pageSize = 2_500
)

var symbols = []string{"AAPL", "MSFT", "GOOG", "AMZN", "NVDA"}

func main() {
	if err := run(os.Stdout, memory.DefaultAllocator); err != nil {
		fmt.Fprintln(os.Stderr, "ipc:", err)
		os.Exit(1)
	}
}

// run writes the stream with mem, reads it back and prints what it read
// to w.
func run(w io.Writer, mem memory.Allocator) error {
	var stream bytes.Buffer
	sw, err := amipc.NewWriter[Trade](&stream, amipc.WriteConfig{
		Compression:      amipc.ZSTD,
		DictionaryDeltas: true, // a record's new symbols only, not the whole dictionary again
		BatchRows:        4_000,
	}, mapper.Allocator(mem))
	if err != nil {
		return err
	}
	// Rows can come in pieces of any size: records hold 4,000 rows.
	for i := 0; i < trades; i += 1_000 {
		if _, err := sw.Write(makeTrades(i, i+1_000)); err != nil {
			return err
		}
	}
	if err := sw.Close(); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %d trades\n", trades)

	r, err := amipc.NewReader[Trade](&stream, mapper.Allocator(mem))
	if err != nil {
		return err
	}
	defer r.Release()
	n, notes := 0, 0
	var seen []string
	for page, err := range r.Pages(pageSize) {
		if err != nil {
			return err
		}
		first := page[0]
		fmt.Fprintf(w, "page of %d: first %d %s %.2f at %s\n",
			len(page), first.ID, first.Symbol, first.Price, first.At.Format(time.RFC3339))
		n += len(page)
		for _, t := range page { // the page is reused: keep copies, not the page
			if t.Note != nil {
				notes++
			}
			if !slices.Contains(seen, t.Symbol) {
				seen = append(seen, t.Symbol)
			}
		}
	}
	fmt.Fprintf(w, "read %d trades, %d with a note, symbols %v\n", n, notes, seen)
	return nil
}

// makeTrades is trades [from, to): every value a function of the id.
func makeTrades(from, to int) []Trade {
	start := time.Date(2024, 3, 1, 14, 30, 0, 0, time.UTC)
	rows := make([]Trade, 0, to-from)
	for i := from; i < to; i++ {
		t := Trade{
			ID: int64(i),
			// Symbols come in as ids grow: later records add to the dictionary.
			Symbol: symbols[i%(1+min(i/2_000, len(symbols)-1))],
			Price:  100 + float64(i%500)/4,
			At:     start.Add(time.Duration(i) * time.Second),
		}
		if i%1000 == 0 {
			note := fmt.Sprintf("batch %d", i/1000)
			t.Note = &note
		}
		rows = append(rows, t)
	}
	return rows
}
