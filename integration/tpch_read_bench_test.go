package integration

// Reading TPC-H's lineitem and orders (scale factor 0.1, as DuckDB writes
// them at its defaults) into Go rows, arrowmap against parquet-go v0.32.0:
//
//	go test -run '^$' -bench 'BenchmarkParquetReadTPCH' -benchmem -benchtime 3x -count 5 .
//
// The files are not in the repository: they are looked for in
// shared/testdata/tpch above the module (../shared from the repository's
// root), or in $ARROWMAP_TPCH_DIR (internal/testsupport/tpch); the benchmark skips, saying so, without
// them. Every contender's rows are checked against arrowmap's ReadFile
// first (amounts as unscaled cents, dates as days since the epoch).
//
// ReadFile of lineitem on the shared 2-core machine: 363 / 1106 ms
// (medians of 3; 0.33×, the runs' own ratios 0.24–0.51 with the machine's
// load), live peak 184 / 363 MiB; an earlier -count 3 run 252 / 1304 ms
// (0.19×). Its CPU profile (-cpuprofile, go tool pprof -top -focus
// readFileOurs): 56% arrow-go's column reading (pqarrow's LoadBatch,
// snappy, byte-array values), 37% arrowmap's decoding into the rows.

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/arrowmap/arrowmap/internal/testsupport/tpch"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/parquet-go/parquet-go"
)

// tpchLineitem and tpchOrders are TPC-H's rows as arrowmap reads them
// (internal/testsupport/tpch, shared with the duckdb module's tests), with this
// benchmark's conversions to parquet-go's rows.
type (
	tpchLineitem tpch.Lineitem
	tpchOrders   tpch.Orders
)

// pgLineitem is lineitem as parquet-go reads it: amounts as their
// unscaled int64, dates as int32 days (v0.32.0 maps time.Time to DATE
// wrong).
type pgLineitem struct {
	OrderKey      int64  `parquet:"l_orderkey,optional"`
	PartKey       int64  `parquet:"l_partkey,optional"`
	SuppKey       int64  `parquet:"l_suppkey,optional"`
	LineNumber    int64  `parquet:"l_linenumber,optional"`
	Quantity      int64  `parquet:"l_quantity,optional,decimal(2:15)"`
	ExtendedPrice int64  `parquet:"l_extendedprice,optional,decimal(2:15)"`
	Discount      int64  `parquet:"l_discount,optional,decimal(2:15)"`
	Tax           int64  `parquet:"l_tax,optional,decimal(2:15)"`
	ReturnFlag    string `parquet:"l_returnflag,optional"`
	LineStatus    string `parquet:"l_linestatus,optional"`
	ShipDate      int32  `parquet:"l_shipdate,optional,date"`
	CommitDate    int32  `parquet:"l_commitdate,optional,date"`
	ReceiptDate   int32  `parquet:"l_receiptdate,optional,date"`
	ShipInstruct  string `parquet:"l_shipinstruct,optional"`
	ShipMode      string `parquet:"l_shipmode,optional"`
	Comment       string `parquet:"l_comment,optional"`
}

// pgOrders is orders as parquet-go reads it.
type pgOrders struct {
	OrderKey      int64  `parquet:"o_orderkey,optional"`
	CustKey       int64  `parquet:"o_custkey,optional"`
	OrderStatus   string `parquet:"o_orderstatus,optional"`
	TotalPrice    int64  `parquet:"o_totalprice,optional,decimal(2:15)"`
	OrderDate     int32  `parquet:"o_orderdate,optional,date"`
	OrderPriority string `parquet:"o_orderpriority,optional"`
	Clerk         string `parquet:"o_clerk,optional"`
	ShipPriority  int32  `parquet:"o_shippriority,optional"`
	Comment       string `parquet:"o_comment,optional"`
}

func days(t time.Time) int32 { return int32(t.Unix() / 86400) }

func cents(d decimal.Decimal128) int64 { return int64(d.LowBits()) }

func (r tpchLineitem) pg() pgLineitem {
	return pgLineitem{r.OrderKey, r.PartKey, r.SuppKey, r.LineNumber, cents(r.Quantity), cents(r.ExtendedPrice), cents(r.Discount), cents(r.Tax),
		r.ReturnFlag, r.LineStatus, days(r.ShipDate), days(r.CommitDate), days(r.ReceiptDate), r.ShipInstruct, r.ShipMode, r.Comment}
}

func (r tpchOrders) pg() pgOrders {
	return pgOrders{r.OrderKey, r.CustKey, r.OrderStatus, cents(r.TotalPrice), days(r.OrderDate), r.OrderPriority, r.Clerk, r.ShipPriority, r.Comment}
}

// tpchFile is the bytes of the TPC-H file name, or skips b.
func tpchFile(b *testing.B, name string) []byte {
	path, why := tpch.Path(strings.TrimSuffix(name, ".parquet"))
	if path == "" {
		b.Skip(why)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Skip(err)
	}
	return data
}

// readFileOurs is ReadFile of data (ReadFile itself opens a path: the
// same through OpenReaderAt and ReadAll).
func readFileOurs[T any](data []byte) ([]T, error) {
	r, err := amparquet.OpenReaderAt[T](bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	defer r.Release()
	return r.ReadAll()
}

// readFileParquetGo is parquet-go's whole-file read into []T, sized from
// its footer.
func readFileParquetGo[T any](data []byte) ([]T, error) {
	return parquet.Read[T](bytes.NewReader(data), int64(len(data)))
}

// readPagesParquetGo reads data in pages of readPage rows.
func readPagesParquetGo[T any](data []byte) error {
	r := parquet.NewGenericReader[T](bytes.NewReader(data))
	defer r.Close()
	page := make([]T, readPage)
	for {
		_, err := r.Read(page)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readPagesOurs reads data in pages of readPage rows.
func readPagesOurs[T any](data []byte) error {
	return readOurs[T](data, func([]T) {})
}

func benchTPCH[T any, P comparable](b *testing.B, name string, toPG func(T) P) {
	data := tpchFile(b, name)
	want, err := readFileOurs[T](data)
	if err != nil {
		b.Fatal(err)
	}
	theirs, err := readFileParquetGo[P](data)
	if err != nil {
		b.Fatal(err)
	}
	if len(theirs) != len(want) {
		b.Fatalf("parquet-go read %d rows, arrowmap %d", len(theirs), len(want))
	}
	for i := range want {
		if toPG(want[i]) != theirs[i] {
			b.Fatalf("row %d: parquet-go read %+v, arrowmap %+v", i, theirs[i], want[i])
		}
	}
	paged, err := collectRows(readOurs[T], data)
	if err != nil {
		b.Fatal(err)
	}
	sameRows(b, "arrowmap in pages", want, paged)
	want, theirs, paged = nil, nil, nil
	b.Run("ReadFile/arrowmap", func(b *testing.B) {
		measureLive(b, func() error { _, err := readFileOurs[T](data); return err })
	})
	b.Run("ReadFile/parquet-go", func(b *testing.B) {
		measureLive(b, func() error { _, err := readFileParquetGo[P](data); return err })
	})
	b.Run("pages/arrowmap", func(b *testing.B) {
		measureLive(b, func() error { return readPagesOurs[T](data) })
	})
	b.Run("pages/parquet-go", func(b *testing.B) {
		measureLive(b, func() error { return readPagesParquetGo[P](data) })
	})
}

func BenchmarkParquetReadTPCH(b *testing.B) {
	b.Run("lineitem", func(b *testing.B) { benchTPCH(b, "lineitem.parquet", tpchLineitem.pg) })
	b.Run("orders", func(b *testing.B) { benchTPCH(b, "orders.parquet", tpchOrders.pg) })
}

// measureLive is measure, then one more run of op outside the timer with
// the collector run at every 1% of growth (debug.SetGCPercent(1)),
// reporting live-peak-MiB: the most heap any collection during the run
// found live (runtime/metrics' /gc/heap/live:bytes, sampled every
// millisecond) above what was live before. It is what op holds at once,
// garbage excluded, whatever its speed: HeapInuse sampled so (peak-heap-MiB)
// also counts what a fast op allocates while a collection runs.
func measureLive(b *testing.B, op func() error) {
	b.Helper()
	measure(b, op)
	old := debug.SetGCPercent(1)
	defer debug.SetGCPercent(old)
	runtime.GC()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	var peak atomic.Uint64
	peak.Store(base)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				metrics.Read(s)
				if v := s[0].Value.Uint64(); v > peak.Load() {
					peak.Store(v)
				}
			}
		}
	}()
	err := op()
	close(done)
	wg.Wait()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(peak.Load()-base)/(1<<20), "live-peak-MiB")
}
