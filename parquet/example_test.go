package parquet_test

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	amparquet "github.com/arrowmap/arrowmap/parquet"
)

func ExampleNewReader() {
	// Basket reads 2 of the 5 columns of the file; the others are not read.
	type Basket struct {
		Items []struct {
			SKU string `arrow:"sku"`
			Qty int32  `arrow:"qty"`
		} `arrow:"items"`
		Score float64 `arrow:"score"`
	}
	data := exampleParquetFile() // 6 rows in row groups of 4

	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		log.Fatal(err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1024}, memory.DefaultAllocator)
	if err != nil {
		log.Fatal(err)
	}

	rdr, err := amparquet.NewReader[Basket](fr)
	if err != nil {
		log.Fatal(err)
	}
	defer rdr.Release()
	fmt.Println("columns read:", rdr.Schema().Field(0).Name, rdr.Schema().Field(1).Name)
	for page, err := range rdr.Pages(4) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%d rows: %+v\n", len(page), page)
	}
	// Output:
	// columns read: items score
	// 4 rows: [{Items:[] Score:0} {Items:[{SKU:sku-1-0 Qty:10}] Score:0.25} {Items:[{SKU:sku-2-0 Qty:20} {SKU:sku-2-1 Qty:21}] Score:0.5} {Items:[{SKU:sku-3-0 Qty:30} {SKU:sku-3-1 Qty:31} {SKU:sku-3-2 Qty:32}] Score:0.75}]
	// 2 rows: [{Items:[] Score:1} {Items:[{SKU:sku-5-0 Qty:50}] Score:1.25}]
}

// exampleParquetFile writes rows of productSchema with arrow-go's writer.
func exampleParquetFile() []byte {
	recs := productRecords(memory.DefaultAllocator, 6)
	defer release(recs)
	tbl := array.NewTableFromRecords(productSchema, recs)
	defer tbl.Release()
	var buf bytes.Buffer
	if err := pqarrow.WriteTable(tbl, &buf, 4, parquet.NewWriterProperties(), pqarrow.DefaultWriterProps()); err != nil {
		log.Fatal(err)
	}
	return buf.Bytes()
}

func ExampleWriteFile() {
	type Reading struct {
		Sensor string        `arrow:"sensor"`
		At     time.Time     `arrow:"at,timestamp,unit=ms,tz=Europe/Oslo"`
		Value  float64       `arrow:"value"`
		Every  time.Duration `arrow:"every"`
	}
	oslo, _ := time.LoadLocation("Europe/Oslo")
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "readings.parquet")

	rows := []Reading{
		{"north", time.Date(2024, 6, 1, 12, 0, 0, 0, oslo), 21.5, time.Minute},
		{"south", time.Date(2024, 6, 1, 12, 5, 0, 0, oslo), 19.25, 5 * time.Minute},
	}
	if err := amparquet.WriteFile(path, rows, amparquet.WriteConfig{Compression: amparquet.Zstd}); err != nil {
		log.Fatal(err)
	}
	got, err := amparquet.ReadFile[Reading](path)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range got {
		fmt.Println(r.Sensor, r.At.Format(time.RFC3339), r.Value, r.Every)
	}
	// Output:
	// north 2024-06-01T12:00:00+02:00 21.5 1m0s
	// south 2024-06-01T12:05:00+02:00 19.25 5m0s
}

func ExampleOpen() {
	type Order struct {
		ID    int64   `arrow:"id"`
		Total float64 `arrow:"total"`
	}
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "orders.parquet")
	orders := make([]Order, 10_000)
	for i := range orders {
		orders[i] = Order{ID: int64(i), Total: float64(i%100) / 4}
	}
	if err := amparquet.WriteFile(path, orders, amparquet.WriteConfig{RowGroupRows: 1000}); err != nil {
		log.Fatal(err)
	}

	// Only the row groups whose ids reach 9500 are read.
	rdr, err := amparquet.Open[Order](path, amparquet.ReadConfig{KeepRowGroup: func(g amparquet.RowGroup) bool {
		id, ok := g.Column("id")
		return !ok || !id.HasMinMax || id.Max.(int64) >= 9500
	}})
	if err != nil {
		log.Fatal(err)
	}
	defer rdr.Release()
	n, sum := 0, 0.0
	for page, err := range rdr.Pages(256) {
		if err != nil {
			log.Fatal(err)
		}
		for _, o := range page {
			if o.ID >= 9500 {
				n++
				sum += o.Total
			}
		}
	}
	fmt.Println(n, "orders from 9500 on, total", sum)
	// Output:
	// 500 orders from 9500 on, total 6187.5
}
