package ipc

import (
	"github.com/arrowmap/arrowmap/internal/options"
	"github.com/arrowmap/arrowmap/mapper"
)

// ReadOption is what a reader of this package takes after its positional
// arguments: a mapper.ReadOption (Strict, ZeroCopy, MaxExpansion, and the
// options of both directions: SnakeCase, As, Allocator). The readers have
// no config of their own. A WriteConfig or a mapper.WriteOption is no
// ReadOption: giving one to a reader does not compile. An option of the
// right direction that a reader does not take (ZeroCopy to ReadFile, whose
// rows outlive the file) is refused at the call, an ErrOption
// *mapper.Error naming the entry point and the option.
type ReadOption = mapper.ReadOption

// WriteOption is what a writer of this package takes after its positional
// arguments: a mapper.WriteOption (SchemaMetadata, and SnakeCase, As,
// Allocator) or a WriteConfig; see ReadOption.
type WriteOption interface{ WriteOption() }

// WriteOption marks a WriteConfig as an option of the writers. It does
// nothing.
func (WriteConfig) WriteOption() {}

// readCall is what the options given to a reader say.
type readCall struct {
	with   readWith
	mapper []mapper.ReadOption // all but Allocator
}

// parseRead sorts opts, the options of the reader entry, which takes the
// mapper options takes reports true for (nil: every one).
func parseRead(entry string, opts []ReadOption, takes func(mapper.ReadOption) bool) (readCall, error) {
	s, err := options.Sort[options.None](entry, opts, takes)
	ratio, _ := options.Last[mapper.MaxExpansionOption](s.Mapper)
	return readCall{with: readWith{mem: s.Alloc, ratio: ratio.Ratio()}, mapper: s.Mapper}, err
}

// writeCall is what the options given to a writer say, its Config with
// mapper.Allocator's allocator.
type writeCall = options.Sorted[WriteConfig, mapper.WriteOption]

// parseWrite sorts opts, the options of the writer entry, which takes the
// mapper options takes reports true for (nil: every one), and checks the
// config.
func parseWrite(entry string, opts []WriteOption, takes func(mapper.WriteOption) bool) (writeCall, error) {
	c, err := options.Sort[WriteConfig](entry, opts, takes)
	c.Config.alloc = c.Alloc
	if err == nil {
		err = c.Config.check()
	}
	return c, err
}

// notZeroCopy is what the readers whose rows outlive the file take.
var notZeroCopy = options.Not[mapper.ZeroCopyOption, mapper.ReadOption]

// columnsOption is what OpenColumns takes: mapper.NewColumnsReader's
// options, the allocator of what is read and MaxExpansion.
func columnsOption(o mapper.ReadOption) bool {
	switch o.(type) {
	case mapper.StrictOption, mapper.AllowMissingOption, mapper.SnakeCaseOption, mapper.RejectExtraColumnsOption, mapper.AllocatorOption, mapper.MaxExpansionOption:
		return true
	}
	return false
}

// recordsOption is what the readers of records take.
func recordsOption(o mapper.ReadOption) bool {
	switch o.(type) {
	case mapper.AllocatorOption, mapper.MaxExpansionOption:
		return true
	}
	return false
}

// recordWriterOption is what the writers of records take: the allocator,
// and the schema's metadata.
func recordWriterOption(o mapper.WriteOption) bool {
	switch o.(type) {
	case mapper.AllocatorOption, mapper.SchemaMetadataOption:
		return true
	}
	return false
}
