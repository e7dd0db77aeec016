package parquet

import "github.com/apache/arrow-go/v18/arrow"

// Retype is retype, for tests that compare arrays whose types differ only
// in the names of list elements.
var Retype = retype

// StorageType is storageType: what pqarrow reads a column of T back as.
func StorageType(dt arrow.DataType) arrow.DataType {
	st, _ := storageType(dt)
	return st
}
