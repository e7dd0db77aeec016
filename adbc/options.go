package adbc

import (
	"github.com/arrowmap/arrowmap/internal/ioconfig"
	"github.com/arrowmap/arrowmap/internal/mapperhook"
	"github.com/arrowmap/arrowmap/mapper"
)

// Option is what every entry point of this package takes after its
// positional arguments: a mapper.Option. Each entry point says which; an
// option it does not take is refused at the call, an ErrUnsupported
// *mapper.Error naming the entry point and the option.
type Option = ioconfig.Option

// parse checks opts, the options of entry, which takes the mapper options
// of the kinds in accepted, and returns them as mapper options.
func parse(entry string, accepted ioconfig.Kinds, opts []Option) ([]mapper.Option, error) {
	c, err := ioconfig.Parse[ioconfig.NoConfig](entry, accepted, opts)
	if err != nil {
		return nil, err
	}
	return c.All(), nil
}

// schemaOptions is opts without what SchemaOf does not take (Allocator),
// by mapper's own kinds.
func schemaOptions(opts []mapper.Option) []mapper.Option {
	rest := make([]mapper.Option, 0, len(opts))
	for _, opt := range opts {
		if opt != nil && mapperhook.Inspect(opt).Kind != mapperhook.Allocator {
			rest = append(rest, opt)
		}
	}
	return rest
}
