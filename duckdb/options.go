package duckdb

import (
	"github.com/arrowmap/arrowmap/internal/ioconfig"
	"github.com/arrowmap/arrowmap/mapper"
)

// Option is what the entry points take after their positional arguments:
// a mapper.Option, or the entry point's config struct (QueryConfig,
// InsertConfig). Each entry point says which; an option it does not take
// is refused at the call, an ErrUnsupported *mapper.Error naming the entry
// point and the option. Query and QueryColumns take theirs among the
// query's arguments, as pgx takes its query options: an argument that is
// an Option is one.
type Option = ioconfig.Option

// QueryConfig is how DuckDB exports the result of one query to Arrow: the
// settings of DuckDB's Arrow export (all of them GLOBAL in DuckDB) that
// Query sets for its own connection only (SET SESSION) when the result is
// made, and puts back as they were before it returns, so that the
// connection, and the pool's, keep what they had.
//
// The zero QueryConfig exports losslessly (arrow_lossless_conversion):
// HUGEINT and UHUGEINT as arrow.opaque over fixed_size_binary(16) (read
// into HugeInt and UHugeInt), TIMETZ as arrow.opaque over
// fixed_size_binary(8) (TimeTZ: its offset kept), UUID as arrow.uuid
// ([16]byte, uuid.UUID), JSON as arrow.json (string, []byte,
// json.RawMessage), BOOLEAN as arrow.bool8 (bool), BIT as arrow.opaque
// over binary. DuckDB's own default exports HUGEINT and UHUGEINT as
// decimal(38, 0), where a value of 39 digits cannot be held and UHUGEINT's
// past 2¹²⁷ arrive negative (its maximum as -1); that is Lossy.
type QueryConfig struct {
	// Lossy is DuckDB's default export (arrow_lossless_conversion off):
	// UUID as utf8, JSON as plain utf8, TIMETZ as time64[us] without its
	// offset, HUGEINT and UHUGEINT as decimal(38, 0) with the losses above.
	// For code that reads a UUID into a string; a cast in the query
	// (id::VARCHAR) does that losslessly.
	Lossy bool
	// StringViews exports VARCHAR as utf8_view (produce_arrow_string_view,
	// with arrow_output_version 1.5): strings of up to 12 bytes inline,
	// longer ones in DuckDB's own buffers, without the copy into one
	// offsets-and-bytes buffer that utf8 takes.
	StringViews bool
	// ListViews exports LIST as list_view (arrow_output_list_view, with
	// arrow_output_version 1.5): offsets and sizes over DuckDB's own child
	// vector.
	ListViews bool
}

// IOOption marks QueryConfig as an Option.
func (QueryConfig) IOOption() {}

// InsertConfig is how Insert, InsertSeq and InsertPages write.
type InsertConfig struct {
	// Create creates the table first, from mapper.SchemaOf[T] (the DuckDB
	// type of each column is in the package doc); it is an error when the
	// table exists. Without it, the table must exist, with T's columns by
	// name (in any order), and the rows are appended.
	Create bool
	// IfNotExists, with Create, creates the table only when it does not
	// exist, and appends to it otherwise.
	IfNotExists bool
	// BatchRows is the most rows of one record of those DuckDB reads (all
	// through one INSERT): 0 is DefaultBatchRows.
	BatchRows int
	// Appender writes through DuckDB's Appender, row by row, rather than
	// through an Arrow view: slower (see bench/RESULTS.md), the same
	// values and the same refusals. Insert takes it on its own for what
	// the view cannot carry: a dense union, at any depth.
	Appender bool
}

// IOOption marks InsertConfig as an Option.
func (InsertConfig) IOOption() {}

// DefaultBatchRows is the rows of one record when InsertConfig.BatchRows
// is 0: DuckDB's row group.
const DefaultBatchRows = 122_880

// parse checks opts, the options of entry, which takes a config of type C
// and the mapper options of the kinds in accepted.
func parse[C any](entry string, accepted ioconfig.Kinds, opts []Option) (C, []mapper.Option, error) {
	c, err := ioconfig.Parse[C](entry, accepted, opts)
	if err != nil {
		var zero C
		return zero, nil, err
	}
	return c.Config, c.All(), nil
}
