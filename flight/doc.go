// Package flight reads rows of a Go struct type from Arrow Flight: one
// DoGet stream as a mapper.Reader (Stream), or every endpoint of a
// FlightInfo at once, as pages the caller owns (OwnedPages). It imports
// arrow-go's flight client and gRPC, and nothing of Parquet.
//
// Its name is arrow-go's flight package's too; import one of them under
// another name:
//
//	import amflight "github.com/arrowmap/arrowmap/flight"
//
//	for page, err := range amflight.OwnedPages[Order](ctx, client, info, 1024) {
//		if err != nil {
//			return err
//		}
//		keep = append(keep, page...) // each page is a fresh slice
//	}
package flight
