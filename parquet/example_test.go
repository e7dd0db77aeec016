package parquet_test

import (
	"bytes"
	"context"
	"fmt"
	"log"

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

	rdr, err := amparquet.NewReader[Basket](context.Background(), fr)
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
