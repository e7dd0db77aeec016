package duckdb

import (
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
)

// ReadOption is an option of the queries: a mapper.ReadOption or a
// QueryConfig. A WriteOption (an IngestConfig, mapper.SchemaMetadata) is
// no ReadOption: giving one to a query does not compile. An option a
// query does not take (mapper.Allocator: DuckDB allocates the records) is
// refused at the call, an ErrOption *mapper.Error naming the entry point
// and the option.
type ReadOption interface{ ReadOption() }

// WriteOption is an option of the ingests: a mapper.WriteOption or an
// IngestConfig. A QueryConfig or a mapper.ReadOption is no WriteOption:
// giving one to an ingest does not compile.
type WriteOption interface{ WriteOption() }

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

// ReadOption marks QueryConfig as an option of the queries. It does
// nothing.
func (QueryConfig) ReadOption() {}

// IngestConfig is how Ingest, IngestSeq and IngestPages write (what they
// do with the table is its Table.Mode).
type IngestConfig struct {
	// BatchRows is the most rows of one record of those DuckDB reads (all
	// through one INSERT): 0 is DefaultBatchRows.
	BatchRows int
	// Appender writes through DuckDB's Appender, row by row, rather than
	// through an Arrow view: slower (see bench/RESULTS.md), the same
	// values and the same refusals. Ingest takes it on its own for what
	// the view cannot carry: a dense union, at any depth.
	Appender bool
}

// WriteOption marks IngestConfig as an option of the ingests. It does
// nothing.
func (IngestConfig) WriteOption() {}

// DefaultBatchRows is the rows of one record when IngestConfig.BatchRows
// is 0: DuckDB's row group.
const DefaultBatchRows = 122_880

// parseQuery sorts opts, the options of the query entry, which takes the
// mapper options takes reports true for.
func parseQuery(entry string, opts []ReadOption, takes func(mapper.ReadOption) bool) (QueryConfig, []mapper.ReadOption, error) {
	var (
		cfg       QueryConfig
		hasConfig bool
		mopts     []mapper.ReadOption
	)
	for _, opt := range opts {
		switch o := opt.(type) {
		case nil:
		case QueryConfig:
			if hasConfig {
				return cfg, nil, mapper.OptionError(entry, "two duckdb.QueryConfig values")
			}
			cfg, hasConfig = o, true
		case mapper.ReadOption:
			if !takes(o) {
				return cfg, nil, mapper.OptionError(entry, o)
			}
			mopts = append(mopts, o)
		default:
			return cfg, nil, mapper.OptionError(entry, opt)
		}
	}
	return cfg, mopts, nil
}

// parseIngest sorts opts, the options of the ingest entry: the
// IngestConfig, the mapper options (mapper.Allocator's given to the
// Builder too), and the allocator of what is written.
func parseIngest(entry string, opts []WriteOption) (IngestConfig, []mapper.WriteOption, memory.Allocator, error) {
	var (
		cfg       IngestConfig
		hasConfig bool
		mopts     []mapper.WriteOption
		mem       memory.Allocator = memory.DefaultAllocator
	)
	for _, opt := range opts {
		switch o := opt.(type) {
		case nil:
		case IngestConfig:
			if hasConfig {
				return cfg, nil, nil, mapper.OptionError(entry, "two duckdb.IngestConfig values")
			}
			cfg, hasConfig = o, true
		case mapper.WriteOption:
			if a, ok := o.(mapper.AllocatorOption); ok && a.Allocator() != nil {
				mem = a.Allocator()
			}
			mopts = append(mopts, o)
		default:
			return cfg, nil, nil, mapper.OptionError(entry, opt)
		}
	}
	return cfg, mopts, mem, nil
}

// notAllocator is what Query takes: DuckDB allocates the records.
func notAllocator(o mapper.ReadOption) bool {
	_, alloc := o.(mapper.AllocatorOption)
	return !alloc
}

// columnsOption is what QueryColumns takes: mapper.NewColumnsReader's
// options.
func columnsOption(o mapper.ReadOption) bool {
	switch o.(type) {
	case mapper.StrictOption, mapper.AllowMissingOption, mapper.SnakeCaseOption, mapper.RejectExtraColumnsOption:
		return true
	}
	return false
}

// noMapperOption is what QueryRecords takes of mapper's: nothing.
func noMapperOption(mapper.ReadOption) bool { return false }
