// Package ipc reads and writes rows of a Go struct type as Arrow IPC files
// and streams, with arrow-go's arrow/ipc underneath: a file or a stream of
// []T in one call, readers that decode page by page, and writers that
// encode []T into records of a bounded size, compressed with LZ4 or ZSTD,
// dictionaries written as deltas.
//
// Its name is arrow-go's ipc package's too; import one of them under
// another name when both are needed:
//
//	import amipc "github.com/arrowmap/arrowmap/ipc"
//
//	err := amipc.WriteFile("orders.arrow", orders, amipc.WriteConfig{Compression: amipc.ZSTD})
//	…
//	orders, err := amipc.ReadFile[Order]("orders.arrow") // a file or a stream
//
// Its entry points, by verb (IPC has two formats: a file, with a footer
// at its end, and a stream; the readers by path tell them apart by their
// first bytes, so a stream is opened by path as a file is):
//
//   - ReadFile: every row of the file or stream at path
//   - WriteFile: rows as an IPC file at path, replaced whole or not at all
//   - Open: a Reader of the file or stream at path
//   - OpenReaderAt: a Reader of the file or stream an io.ReaderAt holds
//   - OpenColumns: a ColumnsReader of the file or stream at path
//   - NewReader: a Reader of the stream an io.Reader holds
//   - NewWriter: a Writer of a stream; NewFileWriter of a file
//   - OpenRecords, OpenRecordsReaderAt, NewRecordReader,
//     NewRecordFileWriter, NewRecordStreamWriter: the same acts on records
//     of any schema
//
// Every reader ends with opts ...ReadOption (mapper's), every writer with
// opts ...WriteOption: mapper's beside a WriteConfig; a WriteConfig given
// to a reader does not compile. mapper.Allocator is the allocator of every
// reader and writer, mapper.SchemaMetadata the schema metadata of every
// writer. An option an entry point does not take is refused at the call,
// an ErrOption naming the entry point ("ipc.ReadFile does not take
// ZeroCopy").
//
// Readers are mapper.Reader[T] (Open, NewReader) and
// mapper.ColumnsReader[C] (OpenColumns): the schema is checked against
// T before any row is read, and malformed or truncated input is an error,
// never a panic. They take the decode options of mapper.NewReader, and
// mapper.Allocator for the memory of the records read. The lengths a file
// or stream claims are checked against its bytes (a schema's, a message's:
// its buffers inside its body, its counts of buffers and key-values) before
// arrow-go allocates by them; the compressed buffers of a message may
// claim, added, at most 64 MiB plus 64 times its body's bytes once
// decompressed (mapper.MaxExpansion changes the 64), which arrow-go
// allocates before it decompresses, and the dictionaries of a file or
// stream, which arrow-go holds to its end, as much in all for the bytes of
// all their bodies: a message that claims more is an
// ErrTooLarge *mapper.Error naming the claim and the limit, whatever the
// entry point (the readers of records take mapper.MaxExpansion too).
//
// Writers take the encode options of mapper.NewBuilder. RecordWriter writes
// records of any schema, for data whose Go type is not known when the
// program is built, and refuses a record holding a value the Arrow spec
// forbids (text that is not UTF-8, a decimal past its precision, a date64
// that is not a whole day, a null where the field is not nullable), naming
// the column and the row. WriteFile writes beside the path and renames, so
// a failed write leaves an existing file as it was.
//
// The verbs and argument order of this package's entry points beside
// those of every other IO package are in docs/entry-points.md.
package ipc
