package parquet

import (
	"fmt"

	"github.com/arrowmap/arrowmap/internal/options"
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

// readCall is what the options given to a reader say, its Config with
// mapper.Allocator's allocator and Mapper the options for mapper.NewReader.
type readCall = options.Sorted[ReadConfig, mapper.ReadOption]

// parseRead sorts opts, the options of the reader entry, which takes the
// mapper options takes reports true for (nil: every one).
func parseRead(entry string, opts []ReadOption, takes func(mapper.ReadOption) bool) (readCall, error) {
	c, err := options.Sort[ReadConfig](entry, opts, takes)
	c.Config.alloc = c.Alloc
	ratio, _ := options.Last[mapper.MaxExpansionOption](c.Mapper)
	c.Config.ratio = ratio.Ratio()
	return c, err
}

// writeCall is what the options given to a writer say, its Config with
// mapper.Allocator's allocator.
type writeCall = options.Sorted[WriteConfig, mapper.WriteOption]

// parseWrite sorts opts, the options of the writer entry, which takes the
// mapper options takes reports true for (nil: every one), and checks the
// config and the schema metadata.
func parseWrite(entry string, opts []WriteOption, takes func(mapper.WriteOption) bool) (writeCall, error) {
	c, err := options.Sort[WriteConfig](entry, opts, takes)
	c.Config.alloc = c.Alloc
	if err != nil {
		return c, err
	}
	for _, o := range c.Mapper {
		md, ok := o.(mapper.SchemaMetadataOption)
		if !ok {
			continue
		}
		// Refused before anything is written: the file's own stored
		// schemas are under these keys.
		for _, k := range md.Metadata().Keys() {
			if k == arrowSchemaKey || k == goSchemaKey {
				return c, fmt.Errorf("arrowmap/parquet: %s: mapper.SchemaMetadata has key %q, under which the file stores its Arrow schema", entry, k)
			}
		}
	}
	return c, c.Config.check()
}

// notZeroCopy is what the readers whose rows outlive the file take.
var notZeroCopy = options.Not[mapper.ZeroCopyOption, mapper.ReadOption]

// columnsOption is what OpenColumns takes: mapper.NewColumnsReader's
// options and the allocator of what is read.
func columnsOption(o mapper.ReadOption) bool {
	switch o.(type) {
	case mapper.StrictOption, mapper.AllowMissingOption, mapper.SnakeCaseOption, mapper.RejectExtraColumnsOption,
		mapper.AllocatorOption, mapper.MaxExpansionOption:
		return true
	}
	return false
}

// recordsOption is what the readers of records take: the allocator of what
// is read, and MaxExpansion, which bounds what decoding a record allocates.
func recordsOption(o mapper.ReadOption) bool {
	switch o.(type) {
	case mapper.AllocatorOption, mapper.MaxExpansionOption:
		return true
	}
	return false
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
