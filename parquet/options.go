package parquet

import (
	"fmt"
	"github.com/arrowmap/arrowmap/mapper"
)

// ReadOption is what a reader of this package takes after its positional
// arguments: a mapper.ReadOption (Strict, ZeroCopy, MaxExpansion, and the
// options of both directions: SnakeCase, As, Allocator) or a ReadConfig. A
// WriteConfig or a mapper.WriteOption is no ReadOption: giving one to a
// reader does not compile. An option of the right direction that a reader
// does not take (ZeroCopy to ReadFile, whose rows outlive the file) is
// refused at the call, an ErrOption *mapper.Error naming the entry point
// and the option.
type ReadOption interface{ ReadOption() }

// WriteOption is what a writer of this package takes after its positional
// arguments: a mapper.WriteOption (SchemaMetadata, and SnakeCase, As,
// Allocator) or a WriteConfig; see ReadOption.
type WriteOption interface{ WriteOption() }

// ReadOption marks a ReadConfig as an option of the readers. It does
// nothing.
func (ReadConfig) ReadOption() {}

// WriteOption marks a WriteConfig as an option of the writers. It does
// nothing.
func (WriteConfig) WriteOption() {}

// readCall is what the options given to a reader say.
type readCall struct {
	cfg       ReadConfig // with mapper.Allocator's allocator
	hasConfig bool
	mapper    []mapper.ReadOption // all but Allocator, for mapper.NewReader
}

// parseRead sorts opts, the options of the reader entry, which takes the
// mapper options takes reports true for (nil: every one).
func parseRead(entry string, opts []ReadOption, takes func(mapper.ReadOption) bool) (readCall, error) {
	var c readCall
	for _, opt := range opts {
		switch o := opt.(type) {
		case nil:
		case ReadConfig:
			if c.hasConfig {
				return c, mapper.OptionError(entry, "two parquet.ReadConfig values")
			}
			alloc := c.cfg.alloc
			c.cfg, c.hasConfig = o, true
			c.cfg.alloc = alloc
		case mapper.ReadOption:
			if takes != nil && !takes(o) {
				return c, mapper.OptionError(entry, o)
			}
			if a, ok := o.(mapper.AllocatorOption); ok {
				c.cfg.alloc = a.Allocator()
				continue
			}
			c.mapper = append(c.mapper, o)
		default:
			return c, mapper.OptionError(entry, opt)
		}
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
				return c, mapper.OptionError(entry, "two parquet.WriteConfig values")
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
				// Refused before anything is written: the file's own
				// stored schemas are under these keys.
				for _, k := range o.Metadata().Keys() {
					if k == arrowSchemaKey || k == goSchemaKey {
						return c, fmt.Errorf("arrowmap/parquet: %s: mapper.SchemaMetadata has key %q, under which the file stores its Arrow schema", entry, k)
					}
				}
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
// options and the allocator of what is read.
func columnsOption(o mapper.ReadOption) bool {
	switch o.(type) {
	case mapper.StrictOption, mapper.AllowMissingOption, mapper.SnakeCaseOption, mapper.RejectExtraColumnsOption, mapper.AllocatorOption:
		return true
	}
	return false
}

// allocatorOnly is what the readers of records take.
func allocatorOnly(o mapper.ReadOption) bool {
	_, ok := o.(mapper.AllocatorOption)
	return ok
}

// recordWriterOption is what NewRecordWriter takes: the allocator, and the
// schema's metadata.
func recordWriterOption(o mapper.WriteOption) bool {
	switch o.(type) {
	case mapper.AllocatorOption, mapper.SchemaMetadataOption:
		return true
	}
	return false
}

// decodeOptions is opts without MaxExpansion, which bounds what a Reader
// holds and is no option of mapper.New.
func decodeOptions(opts []mapper.ReadOption) []mapper.ReadOption {
	var out []mapper.ReadOption
	for _, o := range opts {
		if _, ok := o.(mapper.MaxExpansionOption); !ok {
			out = append(out, o)
		}
	}
	return out
}
