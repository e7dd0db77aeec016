package parquet

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// Retype is retype, for tests that compare arrays whose types differ only
// in the names of list elements.
var Retype = retype

// StorageType is storageType: what pqarrow reads a column of T back as.
func StorageType(dt arrow.DataType) arrow.DataType {
	st, _ := storageType(dt)
	return st
}

// ThroughPqarrow writes every file with pqarrow while on: the files the
// direct writer's are compared with.
func ThroughPqarrow(on bool) { throughPqarrow = on }

// WritesDirectly reports whether a Writer of T with cfg writes its column
// chunks itself rather than through pqarrow.
func WritesDirectly[T any](cfg WriteConfig) bool {
	w, err := NewWriter[T](io.Discard, cfg)
	if err != nil {
		panic(err)
	}
	defer w.Close()
	_, ok := w.fw.(*directFile)
	return ok
}

// PageBytes is the size of a data page before compression that a Writer
// aims at.
const PageBytes = defaultPageBytes
