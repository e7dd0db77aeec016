package mapper

import (
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/arrowmap/arrowmap/internal/ipcfile"
)

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
