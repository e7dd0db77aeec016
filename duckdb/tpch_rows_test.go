//go:build duckdb_arrow

package duckdb_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/arrowmap/arrowmap/internal/testsupport/tpch"
	amparquet "github.com/arrowmap/arrowmap/parquet"
)

// The TPC-H tables of issue 24: DuckDB's lineitem and orders at scale
// factor 0.1, written by DuckDB at its defaults (../shared/testdata/tpch,
// its SOURCE.md says how), read into the rows below.

// Lineitem and Orders are TPC-H's rows as arrowmap reads and writes them
// (internal/testsupport/tpch, shared with the integration module's benchmark), with
// this package's conversions to parquet-go's rows.
type (
	Lineitem tpch.Lineitem
	Orders   tpch.Orders
)

// pgLineitem is Lineitem as parquet-go v0.32.0 reads and writes it: the
// amounts as their unscaled int64 under its decimal tag (scale:precision),
// the dates as int32 days since the epoch (v0.32.0 writes a time.Time
// tagged date wrong).
type pgLineitem struct {
	OrderKey      int64  `parquet:"l_orderkey"`
	PartKey       int64  `parquet:"l_partkey"`
	SuppKey       int64  `parquet:"l_suppkey"`
	LineNumber    int64  `parquet:"l_linenumber"`
	Quantity      int64  `parquet:"l_quantity,decimal(2:15)"`
	ExtendedPrice int64  `parquet:"l_extendedprice,decimal(2:15)"`
	Discount      int64  `parquet:"l_discount,decimal(2:15)"`
	Tax           int64  `parquet:"l_tax,decimal(2:15)"`
	ReturnFlag    string `parquet:"l_returnflag"`
	LineStatus    string `parquet:"l_linestatus"`
	ShipDate      int32  `parquet:"l_shipdate,date"`
	CommitDate    int32  `parquet:"l_commitdate,date"`
	ReceiptDate   int32  `parquet:"l_receiptdate,date"`
	ShipInstruct  string `parquet:"l_shipinstruct"`
	ShipMode      string `parquet:"l_shipmode"`
	Comment       string `parquet:"l_comment"`
}

// pgOrders is Orders as parquet-go reads and writes it.
type pgOrders struct {
	OrderKey      int64  `parquet:"o_orderkey"`
	CustKey       int64  `parquet:"o_custkey"`
	OrderStatus   string `parquet:"o_orderstatus"`
	TotalPrice    int64  `parquet:"o_totalprice,decimal(2:15)"`
	OrderDate     int32  `parquet:"o_orderdate,date"`
	OrderPriority string `parquet:"o_orderpriority"`
	Clerk         string `parquet:"o_clerk"`
	ShipPriority  int32  `parquet:"o_shippriority"`
	Comment       string `parquet:"o_comment"`
}

// unscaled is a decimal's unscaled value as an int64, which every
// DECIMAL(15,2) holds.
func unscaled(d decimal.Decimal128) (int64, error) {
	lo := int64(d.LowBits())
	if d.HighBits() != lo>>63 {
		return 0, fmt.Errorf("decimal %s does not fit an int64", d.ToString(2))
	}
	return lo, nil
}

// epochDays is a date's days since 1970-01-01, refusing a time that is
// not a whole day in UTC.
func epochDays(t time.Time) (int32, error) {
	s := t.Unix()
	if s%86400 != 0 {
		return 0, fmt.Errorf("date %s is not a whole day in UTC", t)
	}
	return int32(s / 86400), nil
}

func dateOf(days int32) time.Time { return time.Unix(int64(days)*86400, 0).UTC() }

func (l Lineitem) parquetGo() (pgLineitem, error) {
	var p pgLineitem
	var errs [7]error
	p.Quantity, errs[0] = unscaled(l.Quantity)
	p.ExtendedPrice, errs[1] = unscaled(l.ExtendedPrice)
	p.Discount, errs[2] = unscaled(l.Discount)
	p.Tax, errs[3] = unscaled(l.Tax)
	p.ShipDate, errs[4] = epochDays(l.ShipDate)
	p.CommitDate, errs[5] = epochDays(l.CommitDate)
	p.ReceiptDate, errs[6] = epochDays(l.ReceiptDate)
	p.OrderKey, p.PartKey, p.SuppKey, p.LineNumber = l.OrderKey, l.PartKey, l.SuppKey, l.LineNumber
	p.ReturnFlag, p.LineStatus, p.ShipInstruct, p.ShipMode, p.Comment = l.ReturnFlag, l.LineStatus, l.ShipInstruct, l.ShipMode, l.Comment
	return p, errors.Join(errs[:]...)
}

func (p pgLineitem) arrowmap() Lineitem {
	return Lineitem{
		OrderKey: p.OrderKey, PartKey: p.PartKey, SuppKey: p.SuppKey, LineNumber: p.LineNumber,
		Quantity: decimal128.FromI64(p.Quantity), ExtendedPrice: decimal128.FromI64(p.ExtendedPrice),
		Discount: decimal128.FromI64(p.Discount), Tax: decimal128.FromI64(p.Tax),
		ReturnFlag: p.ReturnFlag, LineStatus: p.LineStatus,
		ShipDate: dateOf(p.ShipDate), CommitDate: dateOf(p.CommitDate), ReceiptDate: dateOf(p.ReceiptDate),
		ShipInstruct: p.ShipInstruct, ShipMode: p.ShipMode, Comment: p.Comment,
	}
}

func (o Orders) parquetGo() (pgOrders, error) {
	p := pgOrders{OrderKey: o.OrderKey, CustKey: o.CustKey, OrderStatus: o.OrderStatus,
		OrderPriority: o.OrderPriority, Clerk: o.Clerk, ShipPriority: o.ShipPriority, Comment: o.Comment}
	var err1, err2 error
	p.TotalPrice, err1 = unscaled(o.TotalPrice)
	p.OrderDate, err2 = epochDays(o.OrderDate)
	return p, errors.Join(err1, err2)
}

func (p pgOrders) arrowmap() Orders {
	return Orders{OrderKey: p.OrderKey, CustKey: p.CustKey, OrderStatus: p.OrderStatus,
		TotalPrice: decimal128.FromI64(p.TotalPrice), OrderDate: dateOf(p.OrderDate),
		OrderPriority: p.OrderPriority, Clerk: p.Clerk, ShipPriority: p.ShipPriority, Comment: p.Comment}
}

// parquetGoRows is rows as parquet-go's row type P.
func parquetGoRows[T interface{ parquetGo() (P, error) }, P any](rows []T) ([]P, error) {
	out := make([]P, len(rows))
	for i, r := range rows {
		var err error
		if out[i], err = r.parquetGo(); err != nil {
			return nil, fmt.Errorf("row %d: %w", i, err)
		}
	}
	return out, nil
}

// arrowmapRows is parquet-go's rows as arrowmap's row type T.
func arrowmapRows[P interface{ arrowmap() T }, T any](rows []P) []T {
	out := make([]T, len(rows))
	for i, r := range rows {
		out[i] = r.arrowmap()
	}
	return out
}

// tpchPath is the path of DuckDB's file of table, or skips tb saying why
// it is absent.
func tpchPath(tb testing.TB, table string) string {
	tb.Helper()
	path, why := tpch.Path(table)
	if path == "" {
		tb.Skip(why)
	}
	return path
}

// readTPCH is the rows of DuckDB's file of table as arrowmap reads them,
// checked for their number. They are read for each benchmark or test that
// needs them and dropped after it, so that no benchmark measures its heap
// beside another table's rows.
func readTPCH[T any](tb testing.TB, table string) []T {
	tb.Helper()
	rows, err := amparquet.ReadFile[T](tpchPath(tb, table))
	if err != nil {
		tb.Fatal(err)
	}
	if len(rows) != tpch.Rows[table] {
		tb.Fatalf("read %d rows of %s, SOURCE.md says %d", len(rows), table, tpch.Rows[table])
	}
	return rows
}
