// Package flight reads rows of a Go struct type from Arrow Flight. Its
// entry points, by verb:
//
//   - Open: every endpoint of a FlightInfo, each at the locations the
//     server names, as a mapper.Reader[T]
//   - OpenRecords: the same, as records of any schema
//   - OwnedPages: the same, as pages of T the caller owns
//   - Stream: one DoGet stream of a ticket, through the client of the
//     server the ticket came from, as a mapper.Reader[T]
//
// Every entry point ends with opts ...ReadOption: mapper.NewReader's options,
// and mapper.Allocator, the allocator of the records read.
// mapper.MaxExpansion bounds what a message's
// compressed buffers may claim once decompressed (see OpenRecords), and what
// ReadAll holds. An option an entry point does not take is
// refused at the call, naming the entry point. It imports arrow-go's
// flight client and gRPC, and nothing of Parquet.
//
// A Source says where the endpoints are read: Source.Client for those at
// the server the FlightInfo came from, Source.Dial for the other
// locations (connections pooled by URI for one read, closed when it ends),
// and at most Source.Streams endpoints at once, in endpoint order when the
// FlightInfo is Ordered.
//
// Its name is arrow-go's flight package's too; import one of them under
// another name:
//
//	import amflight "github.com/arrowmap/arrowmap/flight"
//
//	info, err := client.GetFlightInfo(ctx, desc)
//	…
//	src := amflight.Source{Client: client, Dial: dial}
//	rdr, err := amflight.Open[Order](ctx, src, info)
//	if err != nil {
//		return err // a schema that does not fit Order, before any row
//	}
//	defer rdr.Release()
//	for order, err := range rdr.All() {
//		if err != nil {
//			return err // an endpoint's, named with its index and location
//		}
//		use(order)
//	}
//
// The verbs and argument order of this package's entry points beside
// those of every other IO package are in docs/entry-points.md.
package flight
