// Package parquet writes rows of a Go struct type to Parquet files and
// reads them back, page by page, reading only the columns the type uses.
// It is built on arrow-go's pqarrow, and imports nothing else of its own.
//
// Its name is arrow-go's parquet package's too; import one of them under
// another name:
//
//	import amparquet "github.com/arrowmap/arrowmap/parquet"
//
//	err := amparquet.WriteFile("orders.parquet", orders, amparquet.WriteConfig{Compression: compress.Codecs.Snappy})
//
//	rdr, err := amparquet.Open[Order]("orders.parquet", amparquet.ReadConfig{})
//	if err != nil {
//		return err
//	}
//	defer rdr.Release() // closes the file
//	for page, err := range rdr.Pages(4096) {
//		if err != nil {
//			return err
//		}
//		use(page) // reused by the next iteration: copy rows to keep them
//	}
//
// Writing streams: a Writer holds one row group's encoded columns however
// many rows it is given, and stores T's Arrow schema in the file, so that
// time zones, dictionaries, large types and durations read back as
// written. Reading holds one row group's column chunks and a record of
// ReadConfig.BatchRows rows; ReadConfig.RowGroups and KeepRowGroup (on the
// footer's column statistics) skip row groups before their data is read.
//
// What Parquet (through pqarrow) cannot store is refused by NewWriter,
// naming the column: decimal32 and decimal64 (use decimal.Decimal128 with
// a decimal(p,s) tag), list views, string and binary views, run-end
// encoded columns. Parquet has one
// date type: a date64 column reads back as date32.
package parquet
