package mapper

import "github.com/apache/arrow-go/v18/arrow/memory"

// SplitAllocator is for packages that build readers on this one's and
// allocate the records they read (an IPC file reader, say): such a reader
// takes the Allocator option, which NewReader and NewColumnsReader do not.
// SplitAllocator returns the allocator of the last Allocator option in opts
// (nil when there is none, or when it is Allocator(nil)) and the other
// options, in order, to pass on:
//
//	mem, opts := mapper.SplitAllocator(opts)
//	… read records with mem …
//	r, err := mapper.NewReader[T](rr, opts...)
func SplitAllocator(opts []Option) (memory.Allocator, []Option) {
	var mem memory.Allocator
	rest := make([]Option, 0, len(opts))
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		var o options
		opt(&o)
		if o.given&optAllocator != 0 {
			mem = o.mem
			continue
		}
		rest = append(rest, opt)
	}
	return mem, rest
}
