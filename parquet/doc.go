// Package parquet reads rows of a Go struct type from Parquet files, page
// by page, reading only the columns the type uses. It imports arrow-go's
// pqarrow, and nothing of gRPC.
//
// Its name is arrow-go's parquet package's too; import one of them under
// another name:
//
//	import amparquet "github.com/arrowmap/arrowmap/parquet"
//
//	rdr, err := amparquet.NewReader[Order](ctx, fr) // fr: a *pqarrow.FileReader
//	if err != nil {
//		return err
//	}
//	defer rdr.Release()
//	for page, err := range rdr.Pages(1024) {
//		if err != nil {
//			return err
//		}
//		use(page) // reused by the next iteration: copy rows to keep them
//	}
package parquet
