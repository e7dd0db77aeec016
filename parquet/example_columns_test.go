package parquet_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	amparquet "github.com/arrowmap/arrowmap/parquet"
)

func ExampleWriteConfig_columns() {
	// Status gets a bloom filter by its tag; the config adds one to the
	// customer's name and declares the order of the rows.
	type Order struct {
		ID       int64  `arrow:"id"`
		Status   string `arrow:"status" arrow-parquet:"bloom,fpp=0.001"`
		Customer struct {
			Name string `arrow:"name"`
		} `arrow:"customer"`
		Price float64 `arrow:"price"`
	}
	orders := make([]Order, 4000)
	for i := range orders {
		orders[i].ID = int64(i)
		orders[i].Status = []string{"open", "shipped"}[i%2]
		if i == 2500 {
			orders[i].Status = "held"
		}
		orders[i].Customer.Name = fmt.Sprintf("customer-%d", i%300)
		orders[i].Price = float64(i%100) / 4
	}
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "orders.parquet")
	err = amparquet.WriteFile(path, orders, amparquet.WriteConfig{
		RowGroupRows: 1000,
		Columns: map[string]amparquet.ColumnConfig{
			"customer.name": {BloomFilter: true},
			"price":         {Encoding: amparquet.EncodingByteStreamSplit},
		},
		SortingColumns: []amparquet.SortingColumn{{Column: "id"}},
	})
	if err != nil {
		log.Fatal(err)
	}

	// A predicate on status reads the row groups its bloom filter keeps.
	var read []int
	held, err := amparquet.ReadFile[Order](path, amparquet.ReadConfig{KeepRowGroup: func(g amparquet.RowGroup) bool {
		keep := g.MayContain("status", "held")
		if keep {
			read = append(read, g.Index)
		}
		return keep
	}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("row groups read:", read, "rows:", len(held))
	// Output:
	// row groups read: [2] rows: 1000
}
