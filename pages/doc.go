// Package pages reads rows of a Go struct type, page by page, from sources
// that need more than an array.RecordReader: Parquet files, whose columns T
// does not use are never read, and Arrow Flight, whose endpoints are read
// concurrently. It is kept apart from mapper so that mapper does not import
// Parquet or gRPC.
//
// The one call most users need reads a Parquet file:
//
//	rdr, err := pages.Parquet[Order](ctx, fr) // fr: a *pqarrow.FileReader
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
//
// FlightOwnedPages reads every endpoint of a FlightInfo and yields pages
// the caller may keep.
package pages
