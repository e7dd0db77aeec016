package parquet

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/arrowcheck"
	"github.com/arrowmap/arrowmap/internal/forbidden"
)

// Retype is retype, for tests that compare arrays whose types differ only
// in the names of list elements.
var Retype = retype

// Convert is convert, for tests that compare what pqarrow reads (the
// storage types) with the records written.
func Convert(a arrow.Array, to arrow.DataType) (arrow.Array, error) {
	return convert(a, to, memory.DefaultAllocator)
}

// StorageType is storageType: what pqarrow reads a column of T back as.
func StorageType(dt arrow.DataType) arrow.DataType {
	st, _, _ := storageType(dt)
	return st
}

// ThroughPqarrow is cfg writing with pqarrow where the direct writer
// would, when on: the files the direct writer's are compared with.
func ThroughPqarrow(on bool, cfg WriteConfig) WriteConfig {
	cfg.viaPqarrow = on
	return cfg
}

// WritesDirectly reports whether a Writer of T with cfg writes its column
// chunks itself rather than through pqarrow.
func WritesDirectly[T any](cfg WriteConfig) bool {
	w, err := NewWriter[T](io.Discard, cfg)
	if err != nil {
		panic(err)
	}
	defer w.Close()
	_, ok := w.out.fw.(*directFile)
	return ok
}

// PageBytes is the size of a data page before compression that a Writer
// aims at.
const PageBytes = defaultPageBytes

// RefuseForbidden is forbidden.Refuse over every column that may hold a
// forbidden value, for its benchmark.
func RefuseForbidden(rec arrow.RecordBatch) error {
	return forbidden.Refuse(rec, arrowcheck.Columns(rec.Schema()), 0)
}
