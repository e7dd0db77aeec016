package mapper

import (
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/arrowmap/arrowmap/internal/ipcfile"
	"github.com/arrowmap/arrowmap/internal/mapperhook"
	"github.com/arrowmap/arrowmap/internal/sourceerr"
)

// What sibling packages once called here, kept so that code written
// against it compiles.

// RefuseOptions reports, as an ErrUnsupported *Error naming entry, the
// options of opts that are of a kind in refused (an option's kind, not its
// value, is compared), and nil when there are none.
//
// Deprecated: it was for the IO packages, which now check their options
// through an internal package, by mapper's own kinds.
func RefuseOptions(entry string, opts []Option, refused ...Option) error {
	var given, refuse options
	for _, opt := range opts {
		if opt != nil {
			opt(&given)
		}
	}
	for _, opt := range refused {
		if opt != nil {
			opt(&refuse)
		}
	}
	if both := given.given & refuse.given; both != 0 {
		return newError(ErrUnsupported, "", "", -1, "%s does not take %s", entry, both)
	}
	return nil
}

// SplitAllocator returns the allocator of the last Allocator option in opts
// (nil when there is none, or when it is Allocator(nil)) and the other
// options, in order.
//
// Deprecated: it was for the IO packages, which now take their options
// through an internal package; a reader of records of its own can find
// its allocator in its own arguments.
func SplitAllocator(opts []Option) (memory.Allocator, []Option) {
	var mem memory.Allocator
	rest := make([]Option, 0, len(opts))
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		if g := mapperhook.Inspect(opt); g.Kind == optAllocator {
			mem = g.Alloc
			continue
		}
		rest = append(rest, opt)
	}
	return mem, rest
}

// SourceError is how a reader reports err, the error its source stopped
// with: nil for a clean end, when err is nil or io.EOF itself; an err
// that wraps io.EOF without being it becomes an error that is
// io.ErrUnexpectedEOF (with err's text, not wrapping err); any other err
// is returned unchanged. Every reader of this module reports its source's
// errors so.
//
// Deprecated: it was for the IO packages, which now share the rule
// through an internal package; a reader of another source can keep its
// own copy of these three lines.
func SourceError(err error) error { return sourceerr.Of(err) }

// FileRecords adapts an IPC file reader to an array.RecordReader that
// reads its record batches in order. It does not take ownership of f:
// close f after releasing the adapter. A panic of f on a malformed record
// is an error of Next.
//
// It cannot run the checks of package ipc's file reader (of the file's
// ends and footer, before arrow-go reads them): those need the file's
// bytes, which an *ipc.FileReader does not give back, and mapper cannot
// import package ipc, which imports mapper.
//
// Deprecated: use arrowmap's ipc.Open (or ipc.OpenReaderAt), which opens
// the file with those checks, or ipc.OpenRecordsReaderAt for its records.
func FileRecords(f *ipc.FileReader) array.RecordReader { return ipcfile.Records(f) }
