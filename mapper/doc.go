// Package mapper maps Arrow record batches to Go structs and back, driven
// by struct tags, through plans compiled once per Go type and schema.
//
// A plan is what the Go type, the plan options and the columns it reads
// decide: every field matched to its column and every type checked before
// any data is read, each mismatch naming the field path and the column.
// Plans are cached, bounded in total; every entry point holds its plan
// with the schema it reads and reports that schema. Viewing a record
// validates it once; after that, slicing it and decoding rows cannot fail,
// and allocate per column, not per value:
//
//	type Order struct {
//		ID    int64    `arrow:"id"`
//		Items []string `arrow:"items"`
//		Note  *string  `arrow:"note"`
//	}
//
//	rows, err := mapper.Decode[Order](rec)
//
// # Entry points
//
// Arrow to Go, one record:
//   - [Decode]: a record into []T.
//   - [New]: a [Mapper] for many records of one schema: [Mapper.View] gives a
//     validated [Batch], which [Batch.Slice] pages without validating again.
//   - [DecodeTo]: into a slice of a Go type known at run time (by [GoTypeOf]).
//   - [DecodeArray]: one array into []E.
//
// Arrow to Go, a stream (any array.RecordReader: IPC, Parquet, Flight, SQL):
//   - [NewReader]: a [Reader] of rows in exact-size pages ([Reader.Pages],
//     [Reader.All], [Reader.Read], [Reader.ReadAll]); a source that is a
//     [RowsHinter] lets ReadAll size its result once (at once when it is
//     a [BackedRowsHinter], whose bytes back its hint), and one that is a
//     [RecordSizer] reads records of the page Read and Pages ask for.
//   - [EmptyReader]: a Reader of no rows, of T's own schema.
//
// Typed columns, without decoding rows (over the views package's columns):
//   - [Columns]: a struct of columns bound to one record.
//   - [NewColumnsReader]: a [ColumnsReader] of such structs, record by
//     record or in pages.
//   - [ColumnsIndexes]: the columns a struct of columns reads in a schema.
//
// Go to Arrow:
//   - [SchemaOf]: the Arrow schema of a Go type.
//   - [FieldTags]: the fields of a Go type with a tag of another key (an
//     IO package's own, as parquet's), each a [FieldTag] with the column
//     SchemaOf names it.
//   - [Encode]: []T into a record.
//   - [NewBuilder]: a [Builder] that appends rows and cuts records.
//   - [EncodeArray]: []E into one array.
//
// Types:
//   - [GoTypeOf]: the Go struct type that decodes every value of a schema
//     (what the arrowmap command's gen prints).
//   - Unions decode into a struct of pointer variants on a field tagged
//     union, sparse_union or dense_union; [UnionCode] keeps a row's type
//     code. [Null] is the Go type of a column of Arrow's null type.
//   - A Go type that implements [Extension] is the Go form of an Arrow
//     extension type: it encodes as that extension and decodes from no
//     other (DuckDB's HUGEINT, arrow.opaque over 16 bytes, say).
//
// # Options
//
// Options are values of two directions, which the compiler keeps apart.
// The entry points that decode take ...[ReadOption]: [Strict],
// [AllowMissing], [RejectExtraColumns], [LastKeyWins], [ZeroCopy],
// [Parallelism] and [MaxExpansion] (which bounds what a reader allocates
// from the sizes its input claims). Those that encode take
// ...[WriteOption]: [SchemaMetadata]. [SnakeCase], [As] and [Allocator]
// act both ways: each is an [Option], both a ReadOption and a WriteOption.
// Strict given to Encode, or SchemaMetadata to a reader, does not compile.
//
// Plan options decide the plan and are part of its cache key (Strict,
// AllowMissing, SnakeCase, RejectExtraColumns, LastKeyWins, As,
// SchemaMetadata); call options steer one call (ZeroCopy, Parallelism,
// Allocator, MaxExpansion).
//
// Each option is a value of a type of its own ([StrictOption],
// [AllowMissingOption], [SnakeCaseOption], [RejectExtraColumnsOption],
// [LastKeyWinsOption], [AsOption], [AllocatorOption], [ZeroCopyOption],
// [ParallelismOption], [MaxExpansionOption], [SchemaMetadataOption]) that
// says what it sets: the IO packages switch on the type to read the
// allocator, the schema metadata or the expansion ratio they act on
// themselves, with no hook into mapper. An entry point refuses, at the
// call, an option of its direction that it does not take (ZeroCopy to a
// reader whose rows outlive its records, Allocator to Decode): an
// [ErrOption] *Error naming the entry point and the option, which
// [OptionError] makes for the IO packages in the same words.
//
// # Errors
//
// Every error about data or a type is an [*Error] naming the field path,
// the column and, for data, the row (and the record, in a stream), and
// wrapping one of the sentinels: [ErrTypeMismatch], [ErrMissingColumn],
// [ErrExtraColumn], [ErrDuplicateKey], [ErrNull], [ErrInvalidData], [ErrOverflow], [ErrTag],
// [ErrUnsupported], [ErrClosed], [ErrTooLarge], [ErrOption]. [InStream] places an error of one record
// in the rows of its stream, for code that decodes record by record.
//
// An error about a row comes with every row before it: View, Decode and
// Append give the rows of the record before that row, every reader those
// rows after the records before it, then the error (see [Mapper.View]).
package mapper
