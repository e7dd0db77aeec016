// Command pages writes an Arrow IPC stream of 10,000 rows, in batches of
// uneven sizes, to memory, then reads it back with mapper.NewReader in
// pages of 1,000 rows: every page is full, whatever the batch boundaries.
//
//	go run ./examples/pages
package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
)

// Reading is one row of the stream.
type Reading struct {
	ID     int64   `arrow:"id"`
	Sensor string  `arrow:"sensor"`
	Value  float64 `arrow:"value"`
}

const (
	rows     = 10_000
	pageSize = 1_000
)

func main() {
	if err := run(os.Stdout, memory.DefaultAllocator); err != nil {
		fmt.Fprintln(os.Stderr, "pages:", err)
		os.Exit(1)
	}
}

// run writes the stream with mem, reads it back and prints the pages to w.
func run(w io.Writer, mem memory.Allocator) error {
	stream, batches, err := writeStream(mem)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %d rows in %d batches (%d bytes)\n", rows, batches, len(stream))

	ipcr, err := ipc.NewReader(bytes.NewReader(stream), ipc.WithAllocator(mem))
	if err != nil {
		return err
	}
	defer ipcr.Release()
	rdr, err := mapper.NewReader[Reading](ipcr)
	if err != nil {
		return err
	}
	defer rdr.Release()

	n := 0
	for page, err := range rdr.Pages(pageSize) {
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "page %2d: %4d rows, first id %d\n", n, len(page), page[0].ID)
		n++
	}
	return nil
}

var schema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "sensor", Type: arrow.BinaryTypes.String},
	{Name: "value", Type: arrow.PrimitiveTypes.Float64},
}, nil)

// writeStream writes the rows as an IPC stream, in batches whose sizes
// cycle through a few uneven values.
func writeStream(mem memory.Allocator) (stream []byte, batches int, err error) {
	var buf bytes.Buffer
	ipcw := ipc.NewWriter(&buf, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	sizes := []int{1, 737, 2_048, 5, 1_500, 333}
	for id := 0; id < rows; batches++ {
		n := min(sizes[batches%len(sizes)], rows-id)
		for range n {
			b.Field(0).(*array.Int64Builder).Append(int64(id))
			b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("sensor-%d", id%7))
			b.Field(2).(*array.Float64Builder).Append(float64(id) / 10)
			id++
		}
		rec := b.NewRecordBatch()
		err = ipcw.Write(rec)
		rec.Release()
		if err != nil {
			return nil, 0, errors.Join(err, ipcw.Close())
		}
	}
	if err := ipcw.Close(); err != nil {
		return nil, 0, err
	}
	return buf.Bytes(), batches, nil
}
