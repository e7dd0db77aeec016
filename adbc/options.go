package adbc

import "github.com/arrowmap/arrowmap/mapper"

// schemaOptions is opts without what SchemaOf does not take (Allocator),
// by mapper's own split.
func schemaOptions(opts []mapper.Option) []mapper.Option {
	_, rest := mapper.SplitAllocator(opts)
	return rest
}
