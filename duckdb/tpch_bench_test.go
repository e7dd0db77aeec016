//go:build duckdb_arrow

package duckdb_test

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	arrowparquet "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	parquetgo "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"

	"github.com/arrowmap/arrowmap/internal/testsupport/heappeak"
	"github.com/arrowmap/arrowmap/internal/testsupport/tpch"
	amipc "github.com/arrowmap/arrowmap/ipc"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
)

// The TPC-H benchmarks of issue 24: DuckDB's lineitem and orders files
// (tpch_rows_test.go) read once into rows, outside the timer, then
//
//   - BenchmarkTPCHWrite/{lineitem,orders}/{arrowmap,arrowmapserial,arrowmapplain,parquetgo,pqarrow,duckdb}:
//     the rows written to a file by arrowmap at its zero WriteConfig
//     (parquet.WriteFile), on the caller's goroutine alone (Parallelism 1)
//     and without dictionaries (Dictionary false: what parquet-go writes,
//     the time dictionaries cost), parquet-go v0.32.0
//     with snappy, pqarrow at its
//     defaults with snappy from the Arrow records arrowmap's mapper encodes
//     of the rows (built outside the timer), and DuckDB's own COPY … TO
//     (FORMAT parquet) of the table it read from its file, the reference;
//   - BenchmarkTPCHRead/{lineitem,orders,lineitem_sf0.2,lineitem_sf1}/{arrowmap,arrowmapsized,parquetgo,pqarrow}:
//     DuckDB's file read by arrowmap's parquet.ReadFile into []Lineitem or
//     []Orders, by parquet.Open and one Read into a slice made of the
//     footer's row count (the least ReadFile can cost), by parquet-go's
//     ReadFile into its row types, by pqarrow's FileReader.ReadTable into
//     an arrow.Table; lineitem at scale factor 0.1 (600,572 rows), 0.2
//     (1.2 million) and 1 (6 million), whose files internal/cmd/tpchgen
//     makes (tpch.PathAt);
//   - BenchmarkTPCHReadIPC/{lineitem,lineitem_sf0.2,lineitem_sf1}/{arrowmap,arrowmapsized}:
//     the same rows from an Arrow IPC file, by ipc.ReadFile and by
//     ipc.Open and one Read into a slice of its rows.
//
// parquet-go and pqarrow write row groups of tpchGroupRows rows,
// arrowmap's default (DuckDB's are 122,880), so that every file has about
// as many; each writer is at its defaults otherwise. Each benchmark
// reports the process's CPU time an op (cpu-ms/op) and its peak heap
// (peak-heap-MiB, as integration's Parquet benchmarks measure it: give
// every variant the same b.N, -benchtime 3x), a writer its file size
// (MB/file, 10⁶ bytes; DuckDB's Go heap is not its memory, so its peak is
// not reported). Run them with
//
//	go run ./bench/report -dir duckdb -tags duckdb_arrow -bench TPCH -vs parquetgo,pqarrow,duckdb -count 5 -benchtime 3x
//
// from the repository's root; bench/RESULTS.md ("TPC-H (issue 24)", and
// "ReadFile at 0.6, 1.2 and 6 million rows (issue 30)" for the reads of
// larger files) has the figures, and TestTPCHFilesOfEveryWriterReadBackEqual
// checks every file these writers write.

// tpchGroupRows is the row group length given to parquet-go and pqarrow:
// arrowmap's default.
const tpchGroupRows = amparquet.DefaultRowGroupRows

// tpchWriter is one writer of a TPC-H table's rows to a file.
type tpchWriter struct {
	name string
	// prepare builds, outside the timer, what the writer writes from, and
	// returns the write of it to a file at path.
	prepare func(tb testing.TB) func(path string) error
}

// tpchWriters is the writers of rows compared: arrowmap (at its zero
// WriteConfig; on one goroutine, Parallelism 1, as parquet-go and pqarrow
// write; and without dictionaries: the plain values parquet-go writes, the
// time and size the dictionaries of numbers and dates cost and save),
// parquet-go and pqarrow.
func tpchWriters[T interface{ parquetGo() (P, error) }, P any](rows []T) []tpchWriter {
	return []tpchWriter{
		{"arrowmap", func(testing.TB) func(string) error {
			return func(path string) error { return amparquet.WriteFile(path, rows, amparquet.WriteConfig{}) }
		}},
		{"arrowmapserial", func(testing.TB) func(string) error {
			cfg := amparquet.WriteConfig{Parallelism: 1}
			return func(path string) error { return amparquet.WriteFile(path, rows, cfg) }
		}},
		{"arrowmapplain", func(testing.TB) func(string) error {
			cfg := amparquet.WriteConfig{Dictionary: new(bool)}
			return func(path string) error { return amparquet.WriteFile(path, rows, cfg) }
		}},
		{"parquetgo", func(tb testing.TB) func(string) error {
			pg, err := parquetGoRows[T, P](rows)
			if err != nil {
				tb.Fatal(err)
			}
			return func(path string) error { return writeParquetGo(path, pg) }
		}},
		{"pqarrow", func(tb testing.TB) func(string) error {
			recs := encodeRecords(tb, rows)
			return func(path string) error { return writePqarrow(path, recs) }
		}},
	}
}

// writeParquetGo writes rows with parquet-go at its defaults but snappy and
// the row group length.
func writeParquetGo[P any](path string, rows []P) error {
	return parquetgo.WriteFile(path, rows, parquetgo.Compression(&snappy.Codec{}), parquetgo.MaxRowsPerRowGroup(tpchGroupRows))
}

// pqarrowProps are pqarrow's default writer properties but snappy and the
// row group length.
func pqarrowProps() *arrowparquet.WriterProperties {
	return arrowparquet.NewWriterProperties(arrowparquet.WithCompression(compress.Codecs.Snappy), arrowparquet.WithMaxRowGroupLength(tpchGroupRows))
}

// encodeRecords is rows as arrowmap's mapper encodes them, in records of
// tpchGroupRows rows, released when tb ends.
func encodeRecords[T any](tb testing.TB, rows []T) []arrow.RecordBatch {
	tb.Helper()
	var recs []arrow.RecordBatch
	for i := 0; i < len(rows); i += tpchGroupRows {
		rec, err := mapper.Encode(rows[i:min(i+tpchGroupRows, len(rows))])
		if err != nil {
			tb.Fatal(err)
		}
		recs = append(recs, rec)
	}
	tb.Cleanup(func() {
		for _, r := range recs {
			r.Release()
		}
	})
	return recs
}

// writePqarrow writes recs with pqarrow's FileWriter, buffered into row
// groups of pqarrowProps.
func writePqarrow(path string, recs []arrow.RecordBatch) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fw, err := pqarrow.NewFileWriter(recs[0].Schema(), f, pqarrowProps(), pqarrow.DefaultWriterProps())
	if err != nil {
		return err
	}
	for _, rec := range recs {
		if err := fw.WriteBuffered(rec); err != nil {
			fw.Close()
			return err
		}
	}
	return fw.Close() // closes f
}

// tpchDuckDB is an in-memory DuckDB holding lineitem and orders read from
// DuckDB's files, opened once per test binary.
var tpchDuckDB = struct {
	once sync.Once
	db   *sql.DB
	err  error
}{}

func tpchDB(tb testing.TB) *sql.DB {
	tb.Helper()
	paths := map[string]string{"lineitem": tpchPath(tb, "lineitem"), "orders": tpchPath(tb, "orders")}
	tpchDuckDB.once.Do(func() {
		tpchDuckDB.db, tpchDuckDB.err = sql.Open("duckdb", "")
		for _, table := range []string{"lineitem", "orders"} {
			if tpchDuckDB.err != nil {
				return
			}
			_, tpchDuckDB.err = tpchDuckDB.db.Exec(fmt.Sprintf("CREATE TABLE %s AS SELECT * FROM read_parquet(%s)", table, sqlString(paths[table])))
		}
	})
	if tpchDuckDB.err != nil {
		tb.Fatal(tpchDuckDB.err)
	}
	return tpchDuckDB.db
}

// sqlString is s as a SQL string literal.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// duckdbCopy is DuckDB's COPY of table to a Parquet file at its defaults.
func duckdbCopy(db *sql.DB, table string) func(path string) error {
	return func(path string) error {
		_, err := db.Exec(fmt.Sprintf("COPY %s TO %s (FORMAT parquet)", table, sqlString(path)))
		return err
	}
}

func BenchmarkTPCHWrite(b *testing.B) {
	db := tpchDB(b)
	tables := []struct {
		name    string
		writers func(testing.TB) []tpchWriter
	}{
		{"lineitem", func(tb testing.TB) []tpchWriter {
			return tpchWriters[Lineitem, pgLineitem](readTPCH[Lineitem](tb, "lineitem"))
		}},
		{"orders", func(tb testing.TB) []tpchWriter { return tpchWriters[Orders, pgOrders](readTPCH[Orders](tb, "orders")) }},
	}
	for _, table := range tables {
		// The rows of this table only, dropped before the next.
		for _, w := range table.writers(b) {
			b.Run(table.name+"/"+w.name, func(b *testing.B) {
				benchWrite(b, table.name, w.prepare(b), true)
			})
		}
		b.Run(table.name+"/duckdb", func(b *testing.B) {
			benchWrite(b, table.name, duckdbCopy(db, table.name), false)
		})
	}
}

// benchWrite runs write b.N times to one path, reporting the file's size
// and, with peak, the peak heap.
func benchWrite(b *testing.B, table string, write func(path string) error, peak bool) {
	path := filepath.Join(b.TempDir(), table+".parquet")
	measure(b, peak, func() error { return write(path) })
	info, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(info.Size())/1e6, "MB/file")
}

// tpchReader is one reader of every row of a TPC-H file: the rows read.
type tpchReader struct {
	name string
	read func(path string) (int, error)
}

// tpchReaders is the readers compared: arrowmap's ReadFile into T, Open
// and one Read into a []T made of the footer's row count (arrowmapsized:
// the least ReadFile can cost), parquet-go's ReadFile into P (a
// GenericReader's Read into a slice it sizes from its footer), pqarrow's
// ReadTable.
func tpchReaders[T, P any]() []tpchReader {
	return []tpchReader{
		{"arrowmap", func(path string) (int, error) {
			rows, err := amparquet.ReadFile[T](path)
			return len(rows), err
		}},
		{"arrowmapsized", readSized[T]},
		{"parquetgo", func(path string) (int, error) {
			rows, err := parquetgo.ReadFile[P](path)
			return len(rows), err
		}},
		{"pqarrow", readPqarrow},
	}
}

// readSized reads the file at path into a []T made of the rows its footer
// counts, by Open and Read.
func readSized[T any](path string) (int, error) {
	rr, err := amparquet.OpenRecords(path)
	if err != nil {
		return 0, err
	}
	n := rr.(mapper.RowsHinter).RowsHint() // the footer's count
	rr.Release()
	r, err := amparquet.Open[T](path)
	if err != nil {
		return 0, err
	}
	defer r.Release()
	return readInto(r, make([]T, n))
}

// readInto reads r's rows into rows, up to its length: the rows read.
func readInto[T any](r *mapper.Reader[T], rows []T) (int, error) {
	read := 0
	for read < len(rows) {
		k, err := r.Read(rows[read:])
		read += k
		if err == io.EOF {
			break
		}
		if err != nil {
			return read, err
		}
	}
	return read, nil
}

// readPqarrow reads the file at path into an arrow.Table with pqarrow's
// FileReader at its defaults.
func readPqarrow(path string) (int, error) {
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		return 0, err
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		return 0, err
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		return 0, err
	}
	defer tbl.Release()
	return int(tbl.NumRows()), nil
}

// tpchReadScales are the scale factors of lineitem read besides
// DefaultScale's: 1.2 and 6 million rows. Their files are made by
// internal/cmd/tpchgen; a benchmark without its file skips saying so.
var tpchReadScales = []float64{0.2, 1}

func BenchmarkTPCHRead(b *testing.B) {
	type table struct {
		name, table string
		sf          float64
		readers     []tpchReader
	}
	tables := []table{
		{"lineitem", "lineitem", tpch.DefaultScale, tpchReaders[Lineitem, pgLineitem]()},
		{"orders", "orders", tpch.DefaultScale, tpchReaders[Orders, pgOrders]()},
	}
	for _, sf := range tpchReadScales {
		tables = append(tables, table{"lineitem_" + tpch.ScaleName(sf), "lineitem", sf, tpchReaders[Lineitem, pgLineitem]()})
	}
	for _, table := range tables {
		for _, r := range table.readers {
			b.Run(table.name+"/"+r.name, func(b *testing.B) {
				path, why := tpch.PathAt(table.table, table.sf)
				if path == "" {
					b.Skip(why)
				}
				rows, _ := tpch.RowsAt(table.table, table.sf)
				measure(b, true, func() error {
					n, err := r.read(path)
					if err == nil && n != rows {
						err = fmt.Errorf("read %d rows of %d", n, rows)
					}
					return err
				})
			})
		}
	}
}

// BenchmarkTPCHReadIPC reads lineitem from an Arrow IPC file that
// arrowmap's ipc.WriteFile writes of DuckDB's rows (outside the timer, in
// records of 64k rows), at the scale factors of BenchmarkTPCHRead: by
// ipc.ReadFile (arrowmap), and by ipc.Open and one Read into a slice of
// the file's rows (arrowmapsized).
func BenchmarkTPCHReadIPC(b *testing.B) {
	for _, sf := range append([]float64{tpch.DefaultScale}, tpchReadScales...) {
		name := "lineitem"
		if sf != tpch.DefaultScale {
			name += "_" + tpch.ScaleName(sf)
		}
		b.Run(name, func(b *testing.B) {
			path, why := tpch.PathAt("lineitem", sf)
			if path == "" {
				b.Skip(why)
			}
			rows, err := amparquet.ReadFile[Lineitem](path)
			if err != nil {
				b.Fatal(err)
			}
			n := len(rows)
			ipcPath := filepath.Join(b.TempDir(), "lineitem.arrow")
			if err := amipc.WriteFile(ipcPath, rows); err != nil {
				b.Fatal(err)
			}
			rows = nil
			readers := []tpchReader{
				{"arrowmap", func(path string) (int, error) {
					rows, err := amipc.ReadFile[Lineitem](path)
					return len(rows), err
				}},
				{"arrowmapsized", func(path string) (int, error) {
					r, err := amipc.Open[Lineitem](path)
					if err != nil {
						return 0, err
					}
					defer r.Release()
					return readInto(r, make([]Lineitem, n))
				}},
			}
			for _, r := range readers {
				b.Run(r.name, func(b *testing.B) {
					measure(b, true, func() error {
						k, err := r.read(ipcPath)
						if err == nil && k != n {
							err = fmt.Errorf("read %d rows of %d", k, n)
						}
						return err
					})
				})
			}
		})
	}
}

// peakHeap samples the heap in use (internal/testsupport/heappeak, the method every
// benchmark of the repository's peak-heap-MiB shares).
type peakHeap struct{ s *heappeak.Sampler }

func startPeak() *peakHeap { return &peakHeap{heappeak.Start()} }

// report stops sampling and reports the peak above the start.
func (p *peakHeap) report(b *testing.B) {
	b.ReportMetric(float64(p.s.Stop())/(1<<20), "peak-heap-MiB")
}

// measure runs op b.N times, reporting allocations, the process's CPU
// time an op (cpu-ms/op: on the shared machine, steadier than the wall
// time, which other processes stretch) and, with peak, the peak heap.
//
// Every benchmark starts with the heap's free memory given back to the
// system, as a program's first read finds it: else the first variant of
// a file pays for the pages the heap grows by (the kernel's faults and
// zeroing), which the variants after it find mapped.
func measure(b *testing.B, peak bool, op func() error) {
	b.Helper()
	b.ReportAllocs()
	debug.FreeOSMemory()
	var p *peakHeap
	if peak {
		p = startPeak()
	}
	b.ResetTimer()
	cpu := cpuTime()
	for b.Loop() {
		if err := op(); err != nil {
			b.Fatal(err)
		}
	}
	cpu = cpuTime() - cpu
	b.StopTimer()
	b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(b.N), "cpu-ms/op")
	if p != nil {
		p.report(b)
	}
}
