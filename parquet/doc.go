// Package parquet writes rows of a Go struct type to Parquet files and
// reads them back, page by page, reading only the columns the type uses.
// It is built on arrow-go's pqarrow (and arrow-go's compute, for taking
// dictionary and run-end encoded values), and of arrowmap's imports
// mapper and the internal packages the IO packages share (the verified
// schema decoding, the atomic file, the check of forbidden values).
//
// Its name is arrow-go's parquet package's too; import one of them under
// another name:
//
//	import amparquet "github.com/arrowmap/arrowmap/parquet"
//
//	err := amparquet.WriteFile("orders.parquet", orders, amparquet.WriteConfig{Compression: amparquet.Zstd})
//
//	rdr, err := amparquet.Open[Order]("orders.parquet")
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
// Its entry points, by verb:
//
//   - ReadFile: every row of the file at path
//   - WriteFile: rows as a file at path, replaced whole or not at all
//   - Open: a Reader of the file at path
//   - OpenReaderAt: a Reader of the file an io.ReaderAt holds
//   - OpenColumns: a ColumnsReader of the file at path
//   - NewReader: a Reader of a pqarrow.FileReader the caller opened
//   - NewWriter: a Writer of rows to an io.Writer
//   - OpenRecords, OpenRecordsReaderAt, NewRecordWriter, ReadSchema: the
//     same acts on records of any schema
//
// Every reader ends with opts ...ReadOption, every writer with opts
// ...WriteOption: mapper options of that direction beside a ReadConfig for
// a reader, a WriteConfig for a writer, none needed for the defaults; a
// WriteConfig given to a reader does not compile. mapper.Allocator is the allocator of every reader and writer
// (but NewReader, whose pqarrow.FileReader has its own), and
// mapper.SchemaMetadata the schema metadata of every writer. An option
// an entry point does not take is refused at the call, an ErrOption
// naming the entry point ("parquet.ReadFile does not take ZeroCopy").
//
// Writing streams: a Writer holds one row group's encoded columns however
// many rows it is given, and encodes a batch of rows' columns on
// WriteConfig.Parallelism goroutines (GOMAXPROCS by default) while it
// builds the next batch; the file is the same whatever the number. Files
// keep the Arrow schema written (of T, or of a RecordWriter's records):
// every reader of this package reads back the types, names and metadata
// written, the schema's metadata included, and no PARQUET:field_id of its
// own (a field id another writer stored is kept). Where Parquet has no
// type of its own, a column is stored as its nearest Parquet type, which
// other readers see with the same values:
// durations as INT64, the month interval as INT32, date64 as DATE (each
// value a whole day), time32[s] and timestamp[s] in milliseconds, decimal32
// and decimal64 as DECIMAL of the same precision and scale, string, binary
// and list views as their offset layouts, a fixed-size list as a LIST (a
// null row without elements), run-end encoded columns and dictionaries
// below the top level (or with a null entry) as their values.
// The zero WriteConfig writes as the ecosystem's writers do (snappy,
// dictionaries while they pay, statistics, the page index); per column,
// WriteConfig.Columns (or an `arrow-parquet:"…"` tag on a field of T, parsed by
// ParseColumnTag) adds what readers skip with and picks encodings:
//
//	amparquet.WriteConfig{
//		Columns: map[string]amparquet.ColumnConfig{
//			"status":    {BloomFilter: true, BloomFilterFPP: 0.001},
//			"placed_ms": {Encoding: amparquet.EncodingDelta},
//			"notes":     {Statistics: &off, PageIndex: &off},
//		},
//		SortingColumns: []amparquet.SortingColumn{{Column: "placed_ms"}},
//	}
//
//	type Order struct {
//		Status string `arrow-parquet:"bloom,fpp=0.001"`
//		Price  float64 `arrow-parquet:"encoding=byte_stream_split"`
//	}
//
// Columns are named by their dotted Parquet path ("customer.name",
// "items.list.element.sku"), as RowGroup.Column names them. A bloom filter
// is written in every row group (sized for BloomFilterNDV distinct values,
// else for the row group's rows) and RowGroup.MayContain probes it;
// Statistics and PageIndex turn a column's statistics and column and
// offset index on or off; Encoding is plain, dictionary, delta
// (DELTA_BINARY_PACKED for INT32 and INT64, DELTA_BYTE_ARRAY for byte
// arrays), delta_length (DELTA_LENGTH_BYTE_ARRAY) or byte_stream_split
// (FLOAT and DOUBLE, the columns DuckDB reads it of); an encoding or
// bloom filter the column's type cannot take, or a path of no column, is
// an error naming it. A Columns entry replaces its column's tag whole.
// SortingColumns are stored in every row group's metadata and checked as
// rows are written: a row out of order is refused, naming it.
//
// The pages are written by arrowmap's page writer (parquet/internal/
// pagewriter) straight from the Arrow records' buffers; WriteConfig.Encoder
// picks arrow-go's pqarrow.FileWriter instead (EncoderPqarrow), a fallback
// that writes the same schema, row groups, statistics, page index, bloom
// filters and metadata from the same WriteConfig:
//
//	amparquet.WriteConfig{Encoder: amparquet.EncoderPqarrow}
//
// arrowmap's page writer writes every option itself but the delta
// encodings, whose encoders are arrow-go's own: a delta-encoded column,
// like a column of a type it does not encode (int8, float16, decimal256,
// an Arrow dictionary of numbers), is written by arrow-go's column writer
// in the same file and row groups as the others. It compresses snappy
// pages with its own encoder and every other codec with arrow-go's.
//
// Reading holds, of each column read, one page (compressed and not) read
// through a small buffer, and a record: of the page asked for when
// reading in pages (Read, Pages: at least 1,024 rows, at most
// DefaultBatchRows), else of ReadConfig.BatchRows rows, a BatchRows given
// being every record's. ReadConfig.RowGroups and KeepRowGroup (on the
// footer's column statistics and bloom filters) skip row groups before
// their data is read; KeepPage (on the page index: each page's first row,
// rows, min, max and nulls) skips pages within them.
//
// Pages are skipped by arrow-go v18.8.0's own column readers:
// pqarrow.ColumnReader.SeekToRow moves a leaf reader to a row of its row
// group through the column chunk's offset index (file's
// serializedPageReader.SeekToPageWithRow seeks to the page holding the row
// and reads from there; without an offset index it reads every page
// before), then decodes and drops the rows of that page before the row.
// So a page is skipped only as a whole, by where the offset index puts
// it, and a column chunk without one is read whole, KeepPage unasked for
// its pages. Two limits of arrow-go's are worked around, not passed on: a
// list reader once sought reads the next row group's lists wrong when it
// goes on into it, so each row group is read by column readers of its
// own, sought within it only; and arrow-go has no row ranges of its own,
// so the rows kept are the intersection, over the columns read, of the
// rows of the pages kept, computed here from the offset indexes, a record
// ending with each range.
//
// The readers that open the file (Open, OpenReaderAt, ReadFile,
// OpenColumns, OpenRecords) see each page as arrow-go reads it, before it
// is decoded: a page whose header carries a CRC (data or dictionary page,
// version 1 or 2) is checked against it, a mismatch an error wrapping
// ErrChecksum that names the row group, the column and the page, and
// none of its values read (ReadConfig.SkipPageChecksums reads without);
// a page that would uncompress to more than ReadConfig.MaxPageSize is an
// error wrapping ErrPageTooLarge that names the field, before anything is
// allocated for it. And they decode each record within a budget: arrow-go
// writes a dictionary-encoded column's values out once a row (unless the
// column is read as a dictionary), so a file of one 1 MiB entry that 65,536
// rows refer to would be a record of 64 GiB, and a fault of the Go runtime;
// a record whose decoding would allocate more than 64 MiB plus
// mapper.MaxExpansion's ratio (64) times the bytes of the column chunks read,
// and twice the largest page the file may have, is an error wrapping mapper.ErrTooLarge at the allocation that would pass
// it (read_budget.go), which names both ways out: a higher ratio, or fewer
// rows a record. NewReader reads through the caller's FileReader, which
// arrowmap does not see the pages or the allocations of.
//
// Files other readers read that arrow-go v18.8.0 refuses are read as they
// do, through a footer changed for arrow-go where it cannot read the
// file's (read_repair.go), the file's bytes untouched: a logical type arrow-go
// does not know reads as the column's physical type; a MAP whose key is
// optional (which parquet-mr once wrote) reads as a map, a null key an
// error; INT96 timestamps (Spark's, Impala's) read as timestamps of
// ReadConfig.Int96Unit, microseconds by default, as DuckDB and Spark read
// them, where arrow-go reads nanoseconds only and refuses a date past 2262;
// a list of lists of parquet-mr's old two-level structure, which pqarrow
// reads as a list of structs of one list, reads as the list of lists.
// Two kinds of column chunk are read page by page re-encoded for arrow-go
// (read_relocate.go): chunks of Parquet's deprecated LZ4 codec, which arrow-go
// has no codec for, decompressed in Hadoop's framing, as a raw LZ4 block or
// as an LZ4 frame (arrow-cpp's order: the codec does not say which); and a
// version 2 page of nulls whose values take no bytes and are marked
// compressed (parquet-mr's), which arrow-go fails to decompress.
// No codec is registered with arrow-go, whose registry is the process's,
// by reading or by writing: a snappy page whose block claims more bytes
// than its header (which arrow-go's codec would allocate) is refused
// before arrow-go reads it (snappyFits).
//
// What Parquet cannot store is refused by NewWriter and NewRecordWriter,
// naming the column: unions, the day_time and month_day_nano intervals
// (Parquet's INTERVAL is unsigned months, days and milliseconds, which
// hold no signed Arrow interval exactly), and decimals of a negative
// scale or one past their precision (Arrow allows them, DECIMAL does not). A value the
// Arrow spec forbids that a row reaches (text that is not UTF-8, a decimal
// past its precision, a date64 that is not a whole day, a null where the
// field is not nullable, which a REQUIRED column would store as a value)
// is refused by Write naming the column and the row, never rounded.
//
// # Read by DuckDB
//
// DuckDB's read_parquet reads every file this package writes, every value
// as arrow-go's pqarrow reads it, in the storage types above (a duration
// as its BIGINT count, a dictionary as its values), but for these, which
// the duckdb module's tests check on every file the package's tests write:
//
//   - A timestamp in nanoseconds with a zone (UTC included, the default
//     zone of a time.Time field) is DuckDB's TIMESTAMPTZ, in microseconds:
//     the nanoseconds are truncated toward zero. Tag the field unit=us (or
//     ms) for values DuckDB reads exactly.
//   - The zone of a timestamp is not kept: Parquet's TIMESTAMP says only
//     that the values are instants (isAdjustedToUTC), and the zone name is
//     in the stored Arrow schema alone, which DuckDB does not read. DuckDB
//     gives the same instants, in UTC; no tag keeps the name.
//   - A decimal of more than 38 digits (a decimal256 of precision 39 to 76,
//     a Parquet DECIMAL of 17 bytes or more) is a DOUBLE to DuckDB, whose
//     DECIMAL holds 38 digits: rounded, and at 39 or 40 digits (17 bytes)
//     wrong (https://github.com/duckdb/duckdb/issues/25058). Tag
//     decimal(38,s) or less for a DECIMAL DuckDB reads exactly.
//   - Two columns of one name (which a RecordWriter's schema may have)
//     are renamed by DuckDB, whose tables have unique column names: the
//     second "ints" is "ints_1".
//
// The verbs and argument order of this package's entry points beside
// those of every other IO package are in docs/entry-points.md.
package parquet
