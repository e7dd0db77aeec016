// Package ioconfig is the one way the IO packages (parquet, ipc, flight,
// flightsql, adbc, pages) take their options: every entry point ends with
// opts ...Option, and an Option is either a mapper.Option or a config
// struct of the package (parquet.WriteConfig, ipc.WriteConfig, …). Parse
// sorts them at the call, by mapper's own kinds of option (through
// internal/mapperhook), and refuses, naming the entry point, what the
// entry point does not take.
//
// It imports mapper for mapper.Option and mapper's *Error.
package ioconfig

import (
	"fmt"
	"maps"
	"reflect"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/mapperhook"
	"github.com/arrowmap/arrowmap/mapper"
)

// Option is an argument of an IO entry point after its positional ones: a
// mapper.Option (SnakeCase, Allocator, SchemaMetadata, …) or one of the
// package's own config structs. Both have the method IOOption, which does
// nothing: it only marks them as options of the IO packages.
type Option interface{ IOOption() }

// Kinds is a set of kinds of mapper option (see mapperhook).
type Kinds = mapperhook.Kinds

// Call is the options given to one entry point, sorted.
type Call[C any] struct {
	// Entry names the entry point, in errors: "parquet.Open".
	Entry string
	// Config is the config struct given, the zero C without one.
	Config C
	// HasConfig is whether a config struct was given.
	HasConfig bool
	// Mapper is the mapper options given, in order, but Allocator.
	Mapper []mapper.Option
	// Given is the kinds of the mapper options given, Allocator included.
	Given Kinds
	// Alloc is the allocator of the last mapper.Allocator given; nil
	// without one, or for Allocator(nil).
	Alloc memory.Allocator
	// Metadata is the metadata of the last mapper.SchemaMetadata given.
	Metadata arrow.Metadata
	// Ratio is the ratio of the last mapper.MaxExpansion given, which
	// stays among Mapper for a Reader's ReadAll; 0 is the default.
	Ratio int64
}

// NoConfig is the config type of an entry point that takes none.
type NoConfig struct{}

// Parse sorts opts, the options of entry point entry, which takes a
// config struct of type C (NoConfig: none) and the mapper options of the
// kinds in accepted. Any other option is refused, an ErrUnsupported
// *mapper.Error naming entry and the option: "parquet.Open does not take
// ZeroCopy". Nil options are skipped.
func Parse[C any](entry string, accepted Kinds, opts []Option) (*Call[C], error) {
	c := &Call[C]{Entry: entry}
	for _, opt := range opts {
		switch o := opt.(type) {
		case nil:
		case mapper.Option:
			if o == nil {
				continue
			}
			g := mapperhook.Inspect(o)
			if g.Kind&^accepted != 0 {
				return nil, Unsupported(entry, g.Kind.String())
			}
			c.Given |= g.Kind
			switch g.Kind {
			case mapperhook.Allocator:
				c.Alloc = g.Alloc
				continue
			case mapperhook.SchemaMetadata:
				c.Metadata = g.Metadata
			case mapperhook.Expansion:
				c.Ratio = g.Ratio
			}
			c.Mapper = append(c.Mapper, o)
		case C:
			if c.HasConfig {
				return nil, Unsupported(entry, "two "+typeName(opt)+" values")
			}
			c.Config, c.HasConfig = o, true
		default:
			return nil, Unsupported(entry, typeName(opt))
		}
	}
	return c, nil
}

// Has reports whether a mapper option of kind k was given.
func (c *Call[C]) Has(k Kinds) bool { return c.Given&k != 0 }

// Allocator is the allocator of the call: mapper.Allocator's, or old, the
// deprecated config field named field, when only it is set; nil when
// neither is. Both set to different allocators is an error.
func (c *Call[C]) Allocator(old memory.Allocator, field string) (memory.Allocator, error) {
	switch {
	case c.Alloc == nil:
		return old, nil
	case old == nil || same(c.Alloc, old):
		return c.Alloc, nil
	}
	return nil, &mapper.Error{Row: -1, Err: fmt.Errorf("%w: %s: mapper.Allocator and the deprecated %s name different allocators: give mapper.Allocator only",
		mapper.ErrUnsupported, c.Entry, field)}
}

// WriterAllocator is the allocator of a writer's call, as Allocator gives
// it from the deprecated WriteConfig.Alloc, alloc, after checking that the
// deprecated WriteConfig.Metadata, metadata, agrees with
// mapper.SchemaMetadata: the one rule of every writer's config.
func (c *Call[C]) WriterAllocator(alloc memory.Allocator, metadata map[string]string) (memory.Allocator, error) {
	mem, err := c.Allocator(alloc, "WriteConfig.Alloc")
	if err != nil {
		return nil, err
	}
	return mem, c.CheckMetadata(metadata, "WriteConfig.Metadata")
}

// CheckMetadata reports an error when mapper.SchemaMetadata and old, the
// deprecated config field named field, are both given and differ.
func (c *Call[C]) CheckMetadata(old map[string]string, field string) error {
	if !c.Has(mapperhook.SchemaMetadata) || len(old) == 0 || maps.Equal(c.Metadata.ToMap(), old) {
		return nil
	}
	return &mapper.Error{Row: -1, Err: fmt.Errorf("%w: %s: mapper.SchemaMetadata and the deprecated %s differ: give mapper.SchemaMetadata only",
		mapper.ErrUnsupported, c.Entry, field)}
}

// With is the mapper options of the call followed by extra.
func (c *Call[C]) With(extra ...mapper.Option) []mapper.Option {
	return append(c.Mapper[:len(c.Mapper):len(c.Mapper)], extra...)
}

// Without is the mapper options of the call but those of the kinds in k,
// for an entry point that passes them on to one that does not take those.
func (c *Call[C]) Without(k Kinds) []mapper.Option {
	var out []mapper.Option
	for _, o := range c.Mapper {
		if mapperhook.Inspect(o).Kind&k == 0 {
			out = append(out, o)
		}
	}
	return out
}

// All is the mapper options of the call, the allocator given included (as
// mapper.Allocator, last), for an entry point that passes them all on.
func (c *Call[C]) All() []mapper.Option {
	if c.Has(mapperhook.Allocator) {
		return c.With(mapper.Allocator(c.Alloc))
	}
	return c.Mapper
}

// Unsupported is mapper's ErrUnsupported *Error for an entry point given
// what it does not take.
func Unsupported(entry, what string) error {
	return &mapper.Error{Row: -1, Err: fmt.Errorf("%w: %s does not take %s", mapper.ErrUnsupported, entry, what)}
}

// Mapper is opts as IO options, for an entry point that passes mapper
// options on to one that takes IO options.
func Mapper(opts []mapper.Option) []Option {
	out := make([]Option, len(opts))
	for i, o := range opts {
		out[i] = o
	}
	return out
}

// typeName is the package-qualified name of opt's type: "parquet.WriteConfig".
func typeName(opt Option) string {
	t := reflect.TypeOf(opt)
	name := t.String()
	if i := strings.LastIndex(t.PkgPath(), "/"); i >= 0 && t.Name() != "" {
		name = t.PkgPath()[i+1:] + "." + t.Name()
	}
	return name
}

// same reports whether a and b are the same allocator; allocators of a
// type that cannot be compared are not.
func same(a, b memory.Allocator) (eq bool) {
	defer func() {
		if recover() != nil {
			eq = false
		}
	}()
	return a == b
}
