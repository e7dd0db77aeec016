package ipc

import (
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
	var c readCall
	for _, o := range opts {
		if o == nil {
			continue
		}
		if takes != nil && !takes(o) {
			return c, mapper.OptionError(entry, o)
		}
		switch o := o.(type) {
		case mapper.AllocatorOption:
			c.with.mem = o.Allocator()
			continue
		case mapper.MaxExpansionOption:
			c.with.ratio = o.Ratio()
		}
		c.mapper = append(c.mapper, o)
	}
	return c, nil
}

// writeCall is what the options given to a writer say.
type writeCall struct {
	cfg       WriteConfig // with mapper.Allocator's allocator
	mapper    []mapper.WriteOption
	metadata  *mapper.SchemaMetadataOption // the last given, nil without one
	hasConfig bool
}

// parseWrite sorts opts, the options of the writer entry, which takes the
// mapper options takes reports true for (nil: every one).
func parseWrite(entry string, opts []WriteOption, takes func(mapper.WriteOption) bool) (writeCall, error) {
	var c writeCall
	for _, opt := range opts {
		switch o := opt.(type) {
		case nil:
		case WriteConfig:
			if c.hasConfig {
				return c, mapper.OptionError(entry, "two ipc.WriteConfig values")
			}
			alloc := c.cfg.alloc
			c.cfg, c.hasConfig = o, true
			c.cfg.alloc = alloc
		case mapper.WriteOption:
			if takes != nil && !takes(o) {
				return c, mapper.OptionError(entry, o)
			}
			switch o := o.(type) {
			case mapper.AllocatorOption:
				c.cfg.alloc = o.Allocator()
				continue
			case mapper.SchemaMetadataOption:
				c.metadata = &o
			}
			c.mapper = append(c.mapper, o)
		default:
			return c, mapper.OptionError(entry, opt)
		}
	}
	return c, c.cfg.check()
}

// notZeroCopy is what the readers whose rows outlive the file take.
func notZeroCopy(o mapper.ReadOption) bool {
	_, zeroCopy := o.(mapper.ZeroCopyOption)
	return !zeroCopy
}

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

// withoutExpansion is opts without the MaxExpansion option, for the entry points of
// mapper that do not take it.
func withoutExpansion(opts []mapper.ReadOption) []mapper.ReadOption {
	var out []mapper.ReadOption
	for _, o := range opts {
		if _, ok := o.(mapper.MaxExpansionOption); !ok {
			out = append(out, o)
		}
	}
	return out
}
