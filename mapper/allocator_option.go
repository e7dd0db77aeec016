package mapper

import (
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/mapperhook"
)

// SplitAllocator returns the allocator of the last Allocator option in opts
// (nil when there is none, or when it is Allocator(nil)) and the other
// options, in order.
//
// Deprecated: it was for the IO packages, which now take their options
// through an internal package; a reader of records of its own can find
// its allocator in its own arguments.
func SplitAllocator(opts []Option) (memory.Allocator, []Option) {
	var mem memory.Allocator
	rest := make([]Option, 0, len(opts))
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		if g := mapperhook.Inspect(opt); g.Kind == optAllocator {
			mem = g.Alloc
			continue
		}
		rest = append(rest, opt)
	}
	return mem, rest
}
