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
// Readers are mapper.Reader[T] (OpenFile, NewStreamReader) and
// mapper.ColumnsReader[C] (OpenFileColumns): the schema is checked against
// T before any row is read, and malformed or truncated input is an error,
// never a panic. They take the decode options of mapper.NewReader, and
// mapper.Allocator for the memory of the records read. The lengths a file
// or stream claims are checked against its bytes (a schema's, a message's)
// before they are allocated, but for one: arrow-go allocates a compressed
// buffer's uncompressed size as the buffer claims it, so read untrusted
// compressed input with an allocator that refuses what is too large.
//
// Writers take the encode options of mapper.NewBuilder. RecordWriter writes
// records of any schema, for data whose Go type is not known when the
// program is built, and refuses a record holding a value the Arrow spec
// forbids (text that is not UTF-8, a decimal past its precision, a date64
// that is not a whole day, a null where the field is not nullable), naming
// the column and the row. WriteFile writes beside the path and renames, so
// a failed write leaves an existing file as it was.
package ipc
