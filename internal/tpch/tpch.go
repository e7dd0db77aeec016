// Package tpch is what the benchmarks and tests of TPC-H's lineitem and
// orders share across the repository's modules (integration, duckdb): the
// rows as arrowmap reads and writes them, the tables' row counts, and where
// DuckDB's files are. The files (scale factor 0.1, 24 MB, written by
// DuckDB at its defaults; SOURCE.md beside them says how to make others)
// are never in the repository: they are looked for in
// shared/testdata/tpch above the working directory (../shared from the
// repository's root), or in $ARROWMAP_TPCH_DIR.
package tpch

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal"
)

// Lineitem is a row of TPC-H's lineitem as arrowmap reads and writes it:
// DECIMAL(15,2) as decimal.Decimal128, DATE as time.Time (date32), the
// types DuckDB's file has.
type Lineitem struct {
	OrderKey      int64              `arrow:"l_orderkey"`
	PartKey       int64              `arrow:"l_partkey"`
	SuppKey       int64              `arrow:"l_suppkey"`
	LineNumber    int64              `arrow:"l_linenumber"`
	Quantity      decimal.Decimal128 `arrow:"l_quantity,decimal(15,2)"`
	ExtendedPrice decimal.Decimal128 `arrow:"l_extendedprice,decimal(15,2)"`
	Discount      decimal.Decimal128 `arrow:"l_discount,decimal(15,2)"`
	Tax           decimal.Decimal128 `arrow:"l_tax,decimal(15,2)"`
	ReturnFlag    string             `arrow:"l_returnflag"`
	LineStatus    string             `arrow:"l_linestatus"`
	ShipDate      time.Time          `arrow:"l_shipdate,date32"`
	CommitDate    time.Time          `arrow:"l_commitdate,date32"`
	ReceiptDate   time.Time          `arrow:"l_receiptdate,date32"`
	ShipInstruct  string             `arrow:"l_shipinstruct"`
	ShipMode      string             `arrow:"l_shipmode"`
	Comment       string             `arrow:"l_comment"`
}

// Orders is a row of TPC-H's orders as arrowmap reads and writes it.
type Orders struct {
	OrderKey      int64              `arrow:"o_orderkey"`
	CustKey       int64              `arrow:"o_custkey"`
	OrderStatus   string             `arrow:"o_orderstatus"`
	TotalPrice    decimal.Decimal128 `arrow:"o_totalprice,decimal(15,2)"`
	OrderDate     time.Time          `arrow:"o_orderdate,date32"`
	OrderPriority string             `arrow:"o_orderpriority"`
	Clerk         string             `arrow:"o_clerk"`
	ShipPriority  int32              `arrow:"o_shippriority"`
	Comment       string             `arrow:"o_comment"`
}

// Rows is the number of rows of each of DuckDB's files, as its SOURCE.md
// says.
var Rows = map[string]int{"lineitem": 600_572, "orders": 150_000}

// Path is the path of DuckDB's file of table ("lineitem", "orders"), or ""
// and why it is not there, for a benchmark or test to skip saying so.
func Path(table string) (path, why string) {
	name := table + ".parquet"
	if dir := os.Getenv("ARROWMAP_TPCH_DIR"); dir != "" {
		path = filepath.Join(dir, name)
		if _, err := os.Stat(path); err != nil {
			return "", "ARROWMAP_TPCH_DIR: " + err.Error()
		}
		return path, ""
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err.Error()
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		path = filepath.Join(dir, "shared", "testdata", "tpch", name)
		if _, err := os.Stat(path); err == nil {
			return path, ""
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err.Error()
		}
		if filepath.Dir(dir) == dir {
			return "", "no shared/testdata/tpch/" + name + " above " + wd + " and ARROWMAP_TPCH_DIR unset: the TPC-H files are never in the repository (see SOURCE.md beside them)"
		}
	}
}
