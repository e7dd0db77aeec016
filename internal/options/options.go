// Package options sorts the options given to an entry point of the IO
// packages (ipc, parquet, flight): the package's config, at most once; the
// mapper options the entry point takes, the allocator apart; and an
// ErrOption *mapper.Error naming the entry point and the first option it
// does not take. One loop for every package, so the rules (nil is no
// option, a second config is refused, an option is refused by the entry
// point's own rule) cannot drift apart.
package options

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
)

// None is the config of a package that has none: no option is a None, so
// Sort[None] refuses whatever is no mapper option.
type None struct{}

// Sorted is what the options given to an entry point say.
type Sorted[C, M any] struct {
	Config    C    // the config given, C's zero value without one
	HasConfig bool // whether a config was given
	// Alloc is the last mapper.Allocator's allocator, nil without one
	// (and for Allocator(nil), which is the default).
	Alloc memory.Allocator
	// Mapper is the mapper options but Allocator, in the order given: the
	// allocator is the package's to use, not the mapper's.
	Mapper []M
}

// Sort sorts opts, the options of entry: a C (the package's config; a
// second is refused as "two <C> values"), or an M (mapper.ReadOption or
// mapper.WriteOption) that takes reports true for (nil takes every one).
// Whatever else opts holds, and an M takes refuses, is an ErrOption naming
// it. A nil option is none.
func Sort[C, M any, O any](entry string, opts []O, takes func(M) bool) (Sorted[C, M], error) {
	var s Sorted[C, M]
	for _, opt := range opts {
		switch o := any(opt).(type) {
		case nil:
		case C:
			if s.HasConfig {
				return s, mapper.OptionError(entry, fmt.Sprintf("two %T values", o))
			}
			s.Config, s.HasConfig = o, true
		case M:
			if takes != nil && !takes(o) {
				return s, mapper.OptionError(entry, o)
			}
			if a, ok := any(o).(mapper.AllocatorOption); ok {
				s.Alloc = a.Allocator()
				continue
			}
			s.Mapper = append(s.Mapper, o)
		default:
			return s, mapper.OptionError(entry, opt)
		}
	}
	return s, nil
}

// Metadata is the metadata of the last mapper.SchemaMetadata among
// s.Mapper, the metadata a writer gives its schema, and whether there is
// one.
func (s Sorted[C, M]) Metadata() (arrow.Metadata, bool) {
	md, ok := Last[mapper.SchemaMetadataOption](s.Mapper)
	return md.Metadata(), ok
}

// Last is the last of opts that is a T, and whether there is one.
func Last[T, M any](opts []M) (last T, ok bool) {
	for _, o := range opts {
		if t, is := any(o).(T); is {
			last, ok = t, true
		}
	}
	return last, ok
}

// Without is opts without those that are a T, for an entry point of mapper
// that does not take a T the package does.
func Without[T, M any](opts []M) []M {
	var out []M
	for _, o := range opts {
		if _, is := any(o).(T); !is {
			out = append(out, o)
		}
	}
	return out
}

// Not reports whether o is no T: Not[mapper.ZeroCopyOption] is what an
// entry point whose rows outlive what it reads takes.
func Not[T, M any](o M) bool {
	_, is := any(o).(T)
	return !is
}

// Only reports whether o is a T: Only[mapper.AllocatorOption] is what an
// entry point that takes the allocator alone takes.
func Only[T, M any](o M) bool {
	_, is := any(o).(T)
	return is
}
