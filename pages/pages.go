package pages

import (
	"context"
	"iter"

	arrowflight "github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/arrowmap/arrowmap/flight"
	"github.com/arrowmap/arrowmap/internal/ioconfig"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/parquet"
)

// Parquet is parquet.NewReader.
//
// Deprecated: use package parquet.
func Parquet[T any](ctx context.Context, fr *pqarrow.FileReader, opts ...mapper.Option) (*mapper.Reader[T], error) {
	return parquet.NewReader[T](ctx, fr, ioconfig.Mapper(opts)...)
}

// FlightStream is flight.Stream.
//
// Deprecated: use package flight, which links no Parquet.
func FlightStream[T any](ctx context.Context, client arrowflight.Client, ticket *arrowflight.Ticket, opts ...mapper.Option) (*mapper.Reader[T], error) {
	return flight.Stream[T](ctx, client, ticket, ioconfig.Mapper(opts)...)
}

// FlightOwnedPages is flight.OwnedPages.
//
// Deprecated: use package flight, which links no Parquet.
func FlightOwnedPages[T any](ctx context.Context, client arrowflight.Client, info *arrowflight.FlightInfo, pageSize int, opts ...mapper.Option) iter.Seq2[[]T, error] {
	return flight.OwnedPages[T](ctx, client, info, pageSize, ioconfig.Mapper(opts)...)
}

// Flight is flight.OwnedPages.
//
// Deprecated: use flight.OwnedPages, whose name says that its pages are
// the caller's to keep.
func Flight[T any](ctx context.Context, client arrowflight.Client, info *arrowflight.FlightInfo, pageSize int, opts ...mapper.Option) iter.Seq2[[]T, error] {
	return flight.OwnedPages[T](ctx, client, info, pageSize, ioconfig.Mapper(opts)...)
}
