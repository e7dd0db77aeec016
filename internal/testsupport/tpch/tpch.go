// Package tpch is what the benchmarks and tests of TPC-H's lineitem and
// orders share across the repository's modules (integration, duckdb): the
// rows as arrowmap reads and writes them, the tables' row counts, and where
// DuckDB's files are. The files are never in the repository. Those of
// scale factor 0.1 (24 MB, written by DuckDB at its defaults; SOURCE.md
// beside them) are looked for in shared/testdata/tpch above the working
// directory (../shared from the repository's root), or in
// $ARROWMAP_TPCH_DIR; those of every scale factor in GenDir, where the
// duckdb module's internal/cmd/tpchgen writes them.
package tpch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

// DefaultScale is the scale factor of the shared files (Path).
const DefaultScale = 0.1

// rowsAt is the rows of DuckDB's tables at the scale factors the
// benchmarks read: its generator makes the same rows at a scale factor
// every time.
var rowsAt = map[float64]map[string]int{
	0.1: Rows,
	0.2: {"lineitem": 1_199_969, "orders": 300_000},
	1:   {"lineitem": 6_001_215, "orders": 1_500_000},
}

// RowsAt is the number of rows of table at scale factor sf, and whether
// it is known.
func RowsAt(table string, sf float64) (int, bool) {
	n, ok := rowsAt[sf][table]
	return n, ok
}

// Path is the path of DuckDB's file of table ("lineitem", "orders") at
// DefaultScale, or "" and why it is not there, for a benchmark or test to
// skip saying so.
func Path(table string) (path, why string) { return PathAt(table, DefaultScale) }

// ScaleName is the name of the directory of scale factor sf's files:
// "sf0.2", "sf1".
func ScaleName(sf float64) string { return "sf" + strconv.FormatFloat(sf, 'f', -1, 64) }

// GenDir is where the files of scale factor sf are made (duckdb's
// internal/cmd/tpchgen) and looked for: $ARROWMAP_TPCH_DIR/sf<sf> when
// the variable is set, else arrowmap/tpch/sf<sf> in the user's cache
// directory, outside every repository.
func GenDir(sf float64) (string, error) {
	if dir := os.Getenv("ARROWMAP_TPCH_DIR"); dir != "" {
		return filepath.Join(dir, ScaleName(sf)), nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, "arrowmap", "tpch", ScaleName(sf)), nil
}

// PathAt is the path of DuckDB's file of table at scale factor sf, or ""
// and why it is not there, for a benchmark or test to skip saying so. It
// is looked for in GenDir(sf) and, at DefaultScale, first in
// $ARROWMAP_TPCH_DIR itself when it is set, else in shared/testdata/tpch
// above the working directory.
func PathAt(table string, sf float64) (path, why string) {
	name := table + ".parquet"
	var looked []string
	if sf == DefaultScale {
		dir, err := defaultDir(name)
		if err != nil {
			return "", err.Error()
		}
		if dir != "" {
			path = filepath.Join(dir, name)
			if _, err := os.Stat(path); err == nil {
				return path, ""
			} else if !errors.Is(err, fs.ErrNotExist) {
				return "", err.Error()
			}
			looked = append(looked, dir)
		}
	}
	gen, err := GenDir(sf)
	if err != nil {
		return "", "TPC-H files of scale factor " + ScaleName(sf)[2:] + ": " + err.Error()
	}
	path = filepath.Join(gen, name)
	if _, err := os.Stat(path); err == nil {
		return path, ""
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err.Error()
	}
	looked = append(looked, gen)
	return "", fmt.Sprintf("no %s of TPC-H at scale factor %s in %s: the files are never in the repository; make them with `go run ./internal/cmd/tpchgen -sf %[2]s` in the duckdb module (it writes to %[4]s; ARROWMAP_TPCH_DIR moves it)",
		name, ScaleName(sf)[2:], strings.Join(looked, " or "), gen)
}

// defaultDir is the directory of the shared files of DefaultScale:
// $ARROWMAP_TPCH_DIR when it is set, else the first shared/testdata/tpch
// holding name above the working directory; "" when there is none.
func defaultDir(name string) (string, error) {
	if dir := os.Getenv("ARROWMAP_TPCH_DIR"); dir != "" {
		return dir, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		shared := filepath.Join(dir, "shared", "testdata", "tpch")
		if _, err := os.Stat(filepath.Join(shared, name)); err == nil {
			return shared, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if filepath.Dir(dir) == dir {
			return "", nil
		}
	}
}
