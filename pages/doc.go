// Package pages is where the Parquet and Flight readers lived before they
// moved to packages of their own, so that a program that reads Flight
// links no Parquet (one that reads Parquet still links gRPC: pqarrow
// imports arrow-go's flight package):
//
//	pages.Parquet           → parquet.NewReader
//	pages.FlightStream      → flight.Stream
//	pages.FlightOwnedPages  → flight.OwnedPages
//	pages.Flight            → flight.OwnedPages
//
// Deprecated: import github.com/arrowmap/arrowmap/parquet or
// github.com/arrowmap/arrowmap/flight instead. This package links both.
package pages
