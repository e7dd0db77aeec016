package adbc

import (
	"github.com/arrowmap/arrowmap/mapper"
)

// ReadOption is what the queries of this package take after their
// positional arguments: a mapper.ReadOption. WriteOption is what ExecWith
// and an ingest take: a mapper.WriteOption. The package has no config of
// its own. An option of the other direction does not compile; one of the
// right direction that an entry point does not take (Allocator to Query,
// whose driver allocates the records) is refused at the call, an
// ErrOption *mapper.Error naming the entry point and the option.
type ReadOption = mapper.ReadOption

// WriteOption is what ExecWith and an ingest take: see ReadOption.
type WriteOption = mapper.WriteOption

// refuse is the ErrOption error of entry for the first of opts that
// refused reports true for, nil when there is none.
func refuse[O interface{ String() string }](entry string, opts []O, refused func(O) bool) error {
	for _, o := range opts {
		if any(o) != nil && refused(o) {
			return mapper.OptionError(entry, o)
		}
	}
	return nil
}

// splitQuery divides the options of a query with parameters between
// decoding T and encoding P: each goes where it acts, Allocator to P,
// SnakeCase and As (which are WriteOptions too) to both.
func splitQuery(opts []ReadOption) (decode []mapper.ReadOption, encode []mapper.WriteOption) {
	for _, o := range opts {
		switch o := o.(type) {
		case nil:
		case mapper.AllocatorOption:
			encode = append(encode, o)
		default:
			decode = append(decode, o)
			if w, ok := o.(mapper.WriteOption); ok {
				encode = append(encode, w)
			}
		}
	}
	return decode, encode
}

// schemaOptions is opts without what SchemaOf does not take (Allocator).
func schemaOptions(opts []mapper.WriteOption) []mapper.WriteOption {
	rest := make([]mapper.WriteOption, 0, len(opts))
	for _, opt := range opts {
		if _, alloc := opt.(mapper.AllocatorOption); opt != nil && !alloc {
			rest = append(rest, opt)
		}
	}
	return rest
}

func isAllocator(o mapper.ReadOption) bool {
	_, ok := o.(mapper.AllocatorOption)
	return ok
}

func isSchemaMetadata(o mapper.WriteOption) bool {
	_, ok := o.(mapper.SchemaMetadataOption)
	return ok
}
