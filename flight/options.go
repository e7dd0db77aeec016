package flight

import (
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/options"
	"github.com/arrowmap/arrowmap/mapper"
)

// ReadOption is what every entry point of this package takes after its
// positional arguments: a mapper.ReadOption (mapper.NewReader's options,
// and mapper.Allocator for the records read). The package has no config
// of its own, and nothing that writes: a mapper.WriteOption given to it
// does not compile. An entry point refuses, at the call, an option it does
// not take, an ErrOption *mapper.Error naming itself and the option.
type ReadOption = mapper.ReadOption

// readCall is what the options given to an entry point say.
type readCall struct {
	alloc  memory.Allocator // mapper.Allocator's, nil without it
	ratio  int64            // mapper.MaxExpansion's, 0 without it
	mapper []mapper.ReadOption
}

// parseRead sorts opts, the options of entry, which takes the mapper
// options takes reports true for (nil: every one).
func parseRead(entry string, opts []ReadOption, takes func(mapper.ReadOption) bool) (*readCall, error) {
	s, err := options.Sort[options.None](entry, opts, takes)
	if err != nil {
		return nil, err
	}
	ratio, _ := options.Last[mapper.MaxExpansionOption](s.Mapper)
	return &readCall{alloc: s.Alloc, ratio: ratio.Ratio(), mapper: s.Mapper}, nil
}

// notZeroCopy is what the readers whose rows outlive their records take.
var notZeroCopy = options.Not[mapper.ZeroCopyOption, mapper.ReadOption]

// recordsOption is what OpenRecords takes.
func recordsOption(o mapper.ReadOption) bool {
	switch o.(type) {
	case mapper.AllocatorOption, mapper.MaxExpansionOption:
		return true
	}
	return false
}
