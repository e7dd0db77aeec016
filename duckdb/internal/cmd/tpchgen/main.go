// Command tpchgen writes TPC-H's lineitem and orders at a scale factor as
// DuckDB writes them at its defaults (CALL dbgen, then COPY … TO … (FORMAT
// parquet)): the files the TPC-H benchmarks of the duckdb and integration
// modules read (internal/testsupport/tpch), never in the repository.
//
//	go run ./internal/cmd/tpchgen -sf 0.2              # into tpch.GenDir(0.2)
//	go run ./internal/cmd/tpchgen -sf 1 -dir /tmp/sf1
//
// Run it from the duckdb module. DuckDB's tpch extension is in
// duckdb-go-bindings' static library, but LOAD tpch would download it:
// tpchgen links it in and loads it through a shim extension it compiles
// with the C compiler cgo uses ($CC, else cc), offline.
package main

import (
	"database/sql"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/arrowmap/arrowmap/internal/testsupport/tpch"
)

func main() {
	sf := flag.Float64("sf", tpch.DefaultScale, "TPC-H scale factor")
	dir := flag.String("dir", "", "directory to write lineitem.parquet and orders.parquet to (default: tpch.GenDir of the scale factor)")
	flag.Parse()
	if *dir == "" {
		var err error
		if *dir, err = tpch.GenDir(*sf); err != nil {
			fail(err)
		}
	}
	if err := generate(*sf, *dir); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "tpchgen:", err)
	os.Exit(1)
}

// tables are the tables written.
var tables = []string{"lineitem", "orders"}

// generate writes the tables at scale factor sf into dir, each file
// written beside its path and renamed, so that a failure leaves no file
// cut short.
func generate(sf float64, dir string) error {
	if sf <= 0 {
		return fmt.Errorf("scale factor %v is not positive", sf)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	work, err := os.MkdirTemp(dir, ".tpchgen-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	db, err := sql.Open("duckdb", "?allow_unsigned_extensions=true")
	if err != nil {
		return err
	}
	defer db.Close()
	var platform, version string
	if err := db.QueryRow("PRAGMA platform").Scan(&platform); err != nil {
		return fmt.Errorf("DuckDB's platform: %w", err)
	}
	if err := db.QueryRow("SELECT library_version FROM pragma_version()").Scan(&version); err != nil {
		return fmt.Errorf("DuckDB's version: %w", err)
	}
	ext, err := buildShim(work, platform, version)
	if err != nil {
		return err
	}
	if _, err := db.Exec("LOAD " + sqlString(ext)); err != nil {
		return fmt.Errorf("loading the tpch extension: %w", err)
	}
	if _, err := db.Exec(fmt.Sprintf("CALL dbgen(sf=%v)", sf)); err != nil {
		return fmt.Errorf("dbgen: %w", err)
	}
	for _, table := range tables {
		tmp := filepath.Join(work, table+".parquet")
		if _, err := db.Exec(fmt.Sprintf("COPY %s TO %s (FORMAT parquet)", table, sqlString(tmp))); err != nil {
			return fmt.Errorf("writing %s: %w", table, err)
		}
		var rows int64
		if err := db.QueryRow("SELECT count(*) FROM " + table).Scan(&rows); err != nil {
			return err
		}
		path := filepath.Join(dir, table+".parquet")
		if err := os.Rename(tmp, path); err != nil {
			return err
		}
		fmt.Printf("%s: %d rows (DuckDB %s, scale factor %v)\n", path, rows, version, sf)
	}
	return nil
}

// sqlString is s as a SQL string literal.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
