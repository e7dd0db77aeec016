package mapper

import (
	"fmt"
	"reflect"
	"strings"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// ReadOption is an option of the entry points that decode: New, Decode,
// DecodeTo, DecodeArray, NewReader, Columns, NewColumnsReader,
// ColumnsIndexes, and every reader of the IO packages. WriteOption is an
// option of those that encode: Encode, NewBuilder, EncodeArray, SchemaOf,
// FieldTags, and every writer of the IO packages. An option of both
// directions (SnakeCase, As, Allocator) is an Option, both a ReadOption and
// a WriteOption; every other option is of one direction only, so that an
// option of the other direction given to an entry point does not compile.
//
// Options are of two kinds. Plan options (Strict, AllowMissing, SnakeCase,
// RejectExtraColumns, LastKeyWins, As, SchemaMetadata) change what a plan
// is: which column a field reads and how its values convert. Call options
// (ZeroCopy, Parallelism, MaxExpansion, Allocator) steer one call or reader
// over a plan and never make a new one.
//
// Each option is a value of its own type (StrictOption, AllocatorOption,
// …), which says what it sets: a package that reads or writes Arrow
// through mapper switches on the type to act on those it acts on itself
// (the allocator of an AllocatorOption, the metadata of a
// SchemaMetadataOption, the ratio of a MaxExpansionOption). Only mapper
// makes options: the interfaces are sealed by an unexported method.
//
// An entry point that does not take an option of its direction (ZeroCopy
// for a reader whose rows outlive its records, Allocator for Decode)
// refuses it at the call, with an ErrOption *Error naming the entry point
// and the option: never an option silently ignored.
type ReadOption interface {
	// ReadOption marks an option of decoding. It does nothing.
	ReadOption()
	option
}

// WriteOption is an option of the entry points that encode: see
// ReadOption.
type WriteOption interface {
	// WriteOption marks an option of encoding. It does nothing.
	WriteOption()
	option
}

// Option is an option of both directions: SnakeCase, As and Allocator.
type Option interface {
	ReadOption
	WriteOption
}

// option is what every option is: its name, its kind, and what it sets.
type option interface {
	// String is the option's name, as its function is named: "ZeroCopy".
	String() string
	kind() optionSet
	apply(*options)
}

// readOnly, writeOnly and bothWays give an option type its direction.
type (
	readOnly  struct{}
	writeOnly struct{}
	bothWays  struct{}
)

func (readOnly) ReadOption()   {}
func (writeOnly) WriteOption() {}
func (bothWays) ReadOption()   {}
func (bothWays) WriteOption()  {}

// options is what the options given to one entry point set.
type options struct {
	given optionSet // which options were passed, checked against the entry point
	// Plan options.
	strict       bool
	allowMissing bool
	snakeCase    bool
	rejectExtra  bool
	lastKeyWins  bool
	conversions  map[reflect.Type]*conversion
	schemaMeta   arrow.Metadata // SchemaMetadata's
	// Call options.
	mem         memory.Allocator
	zeroCopy    bool
	parallelism int
	ratio       int64 // MaxExpansion's; 0 is expansion.DefaultRatio
	tileRows    int   // set by tests only (export_test.go); 0 is defaultTileRows
}

// optionSet is a set of kinds of option, one bit each.
type optionSet uint16

// The kinds of option, in the order of their names.
const (
	optStrict optionSet = 1 << iota
	optAllowMissing
	optSnakeCase
	optRejectExtra
	optLastKeyWins
	optAs
	optAllocator
	optZeroCopy
	optParallelism
	optSchemaMetadata
	optExpansion
)

var optionNames = [...]string{"Strict", "AllowMissing", "SnakeCase", "RejectExtraColumns", "LastKeyWins", "As", "Allocator", "ZeroCopy", "Parallelism", "SchemaMetadata", "MaxExpansion"}

// String lists the kinds of s by name: "ZeroCopy, Parallelism".
func (s optionSet) String() string {
	var out []string
	for i, name := range optionNames {
		if s&(1<<i) != 0 {
			out = append(out, name)
		}
	}
	return strings.Join(out, ", ")
}

// The options each family of entry points takes.
const (
	// decodeOptions is what decoding rows takes: New, Decode, DecodeTo,
	// DecodeArray.
	decodeOptions = optStrict | optAllowMissing | optSnakeCase | optRejectExtra | optLastKeyWins | optAs | optZeroCopy | optParallelism
	// readerOptions is what a Reader takes: decoding's options and
	// MaxExpansion, which bounds what ReadAll holds.
	readerOptions = decodeOptions | optExpansion
	// columnsOptions is what binding typed columns takes: Columns,
	// NewColumnsReader, ColumnsIndexes. Columns are always zero-copy and
	// decode nothing, so ZeroCopy, Parallelism, As and LastKeyWins have
	// nothing to act on.
	columnsOptions = optStrict | optAllowMissing | optSnakeCase | optRejectExtra
	// schemaOptions is what deriving a schema takes: SchemaOf, FieldTags.
	schemaOptions = optSnakeCase | optAs | optSchemaMetadata
	// encodeOptions is what encoding rows takes: Encode, NewBuilder.
	encodeOptions = schemaOptions | optAllocator
	// arrayOptions is what EncodeArray takes: an array has no schema, so
	// no SchemaMetadata.
	arrayOptions = encodeOptions &^ optSchemaMetadata
)

// runOptions is the call options of decoding, which a Mapper or a Reader
// applies over its plan.
type runOptions struct {
	zeroCopy    bool
	parallelism int
	ratio       int64
	tileRows    int
}

func (o *options) run() runOptions {
	return runOptions{zeroCopy: o.zeroCopy, parallelism: o.parallelism, ratio: o.ratio, tileRows: o.tileRows}
}

// optionsFor applies opts for entry point entry, which takes the options
// in accepted: any other is an ErrOption *Error naming it.
func optionsFor[O option](entry string, accepted optionSet, opts []O) (*options, error) {
	o := &options{mem: memory.DefaultAllocator, parallelism: 1}
	for _, opt := range opts {
		if option(opt) == nil {
			continue
		}
		if opt.kind()&^accepted != 0 {
			return nil, OptionError(entry, opt)
		}
		o.given |= opt.kind()
		opt.apply(o)
	}
	return o, nil
}

// OptionError is the ErrOption *Error of entry point entry given opt, an
// option it does not take: "parquet.Open does not take ZeroCopy". opt is
// a mapper option (named as its function is), a value of another type
// (named by its type: "parquet.WriteConfig"), or a string that describes
// what was given ("two parquet.ReadConfig values"). It is for the packages
// that take mapper's options beside options of their own, so that every
// entry point refuses an option in the same words.
func OptionError(entry string, opt any) error {
	var what string
	switch o := opt.(type) {
	case string:
		what = o
	case option:
		what = o.String()
	default:
		t := reflect.TypeOf(opt)
		what = fmt.Sprint(t)
		if t != nil && t.Name() != "" {
			if i := strings.LastIndex(t.PkgPath(), "/"); i >= 0 {
				what = t.PkgPath()[i+1:] + "." + t.Name()
			}
		}
	}
	return newError(ErrOption, "", "", -1, "%s does not take %s", entry, what)
}

// Allocator sets the allocator of the Arrow memory built or read: of the
// records the encoders build (Encode, NewBuilder, EncodeArray), and of
// what the IO packages' readers and writers read and write. The default is
// memory.DefaultAllocator (the IO packages' own pools where they say so).
// A call option; mapper's decoders allocate no Arrow memory and refuse it.
func Allocator(mem memory.Allocator) AllocatorOption { return AllocatorOption{mem: mem} }

// AllocatorOption is the option Allocator makes.
type AllocatorOption struct {
	bothWays
	mem memory.Allocator
}

// Allocator is the allocator given: nil for Allocator(nil), which is the
// default.
func (o AllocatorOption) Allocator() memory.Allocator { return o.mem }

func (AllocatorOption) String() string  { return "Allocator" }
func (AllocatorOption) kind() optionSet { return optAllocator }
func (o AllocatorOption) apply(x *options) {
	if o.mem != nil {
		x.mem = o.mem
	}
}

// Strict accepts only the exact Arrow type and encoding of each field: no
// widening (int32 into an int64 field), no other list, string or binary
// encodings, no dictionary or run-end encoding unless the tag pins it. A
// plan option of decoding and of Columns; encoding always writes the exact
// type the tags name, so it is no WriteOption.
func Strict() StrictOption { return StrictOption{} }

// StrictOption is the option Strict makes.
type StrictOption struct{ readOnly }

func (StrictOption) String() string   { return "Strict" }
func (StrictOption) kind() optionSet  { return optStrict }
func (StrictOption) apply(x *options) { x.strict = true }

// ZeroCopy makes decoded strings and []byte alias the Arrow buffers instead
// of copying them. They are valid only while the record is: do not keep
// them past its Release, nor past the next Read of a Reader. A call option
// of decoding; readers whose rows outlive their records refuse it.
func ZeroCopy() ZeroCopyOption { return ZeroCopyOption{} }

// ZeroCopyOption is the option ZeroCopy makes.
type ZeroCopyOption struct{ readOnly }

func (ZeroCopyOption) String() string   { return "ZeroCopy" }
func (ZeroCopyOption) kind() optionSet  { return optZeroCopy }
func (ZeroCopyOption) apply(x *options) { x.zeroCopy = true }

// AllowMissing lets a field without a column keep its zero value instead of
// failing with ErrMissingColumn. A plan option of decoding and of Columns.
func AllowMissing() AllowMissingOption { return AllowMissingOption{} }

// AllowMissingOption is the option AllowMissing makes.
type AllowMissingOption struct{ readOnly }

func (AllowMissingOption) String() string   { return "AllowMissing" }
func (AllowMissingOption) kind() optionSet  { return optAllowMissing }
func (AllowMissingOption) apply(x *options) { x.allowMissing = true }

// SnakeCase lets an untagged field match its snake_case column name: UserID
// matches user_id; encoding names the column so. A plan option of every
// entry point, of both directions.
func SnakeCase() SnakeCaseOption { return SnakeCaseOption{} }

// SnakeCaseOption is the option SnakeCase makes.
type SnakeCaseOption struct{ bothWays }

func (SnakeCaseOption) String() string   { return "SnakeCase" }
func (SnakeCaseOption) kind() optionSet  { return optSnakeCase }
func (SnakeCaseOption) apply(x *options) { x.snakeCase = true }

// RejectExtraColumns makes a column that no field maps to an error,
// ErrExtraColumn listing every such column, at the top level and inside
// struct columns; by default they are ignored (and never read). The
// counterpart of encoding/json's DisallowUnknownFields. A plan option of
// decoding and of Columns.
func RejectExtraColumns() RejectExtraColumnsOption { return RejectExtraColumnsOption{} }

// RejectExtraColumnsOption is the option RejectExtraColumns makes.
type RejectExtraColumnsOption struct{ readOnly }

func (RejectExtraColumnsOption) String() string   { return "RejectExtraColumns" }
func (RejectExtraColumnsOption) kind() optionSet  { return optRejectExtra }
func (RejectExtraColumnsOption) apply(x *options) { x.rejectExtra = true }

// LastKeyWins lets a map row with a key twice decode to the last of its
// entries, as a Go map assignment would. By default such a row is an
// ErrDuplicateKey naming the row and the key, since a Go map cannot hold
// both entries. A plan option of decoding.
func LastKeyWins() LastKeyWinsOption { return LastKeyWinsOption{} }

// LastKeyWinsOption is the option LastKeyWins makes.
type LastKeyWinsOption struct{ readOnly }

func (LastKeyWinsOption) String() string   { return "LastKeyWins" }
func (LastKeyWinsOption) kind() optionSet  { return optLastKeyWins }
func (LastKeyWinsOption) apply(x *options) { x.lastKeyWins = true }

// Parallelism decodes a large batch in n windows at once, on n goroutines.
// The result is the same as with n = 1, the default. A call option of
// decoding.
func Parallelism(n int) ParallelismOption { return ParallelismOption{n: max(n, 1)} }

// ParallelismOption is the option Parallelism makes.
type ParallelismOption struct {
	readOnly
	n int
}

func (ParallelismOption) String() string     { return "Parallelism" }
func (ParallelismOption) kind() optionSet    { return optParallelism }
func (o ParallelismOption) apply(x *options) { x.parallelism = o.n }

// MaxExpansion bounds how far the readers trust the sizes their input
// claims: to n bytes allocated per byte received behind the claim, past a
// floor of 64 MiB. n is 64 by default, and below 1 it is the default;
// math.MaxInt lifts the bound, even for claims with no bytes behind them (a
// record of null columns has none). Past it, a read fails with an ErrTooLarge
// *Error that names the claim and the limit, before anything is allocated
// for the claim (or, for Parquet, before the allocation that passes it):
//
//   - an IPC message (read by package ipc, flight or flightsql) whose
//     compressed buffers claim more than 64 MiB + n × its body's bytes
//     once decompressed: each buffer starts with its length uncompressed,
//     which arrow-go allocates before it decompresses (the dictionaries
//     of a stream or file, held to its end, in all for all their bodies);
//   - a record that would make Reader.ReadAll hold more than 64 MiB + n ×
//     the bytes of the records it has read (their buffers, as arrow-go
//     holds them) in rows of T, each of the size of T: run-end-encoded
//     and null columns can claim trillions of rows in a few bytes;
//   - a record of a Parquet file (read by package parquet, which opens the
//     file) whose decoding would allocate more than 64 MiB + n × the bytes
//     of the column chunks read, and twice the largest page the file may
//     have (ReadConfig.MaxPageSize): arrow-go writes a dictionary-encoded
//     column's values out once a row, and one 1 MiB entry that 65,536 rows
//     refer to is 64 GiB. The error is the allocation's that would pass
//     the bound, which arrow-go makes as it decodes.
//
// Raise n for data that is legitimately more compressible: ZSTD stores a
// column of zeros in a thousandth of its size, and a run-end-encoded
// column of long runs reads into many times its bytes. Reading in pages
// (Read, Pages, All) holds a page, whatever a record claims. A call
// option of NewReader and of every reader of the IO packages.
func MaxExpansion(n int) MaxExpansionOption { return MaxExpansionOption{ratio: int64(max(n, 0))} }

// MaxExpansionOption is the option MaxExpansion makes.
type MaxExpansionOption struct {
	readOnly
	ratio int64
}

// Ratio is the bytes a reader may allocate per byte received: 0 for the
// default.
func (o MaxExpansionOption) Ratio() int64 { return o.ratio }

func (MaxExpansionOption) String() string     { return "MaxExpansion" }
func (MaxExpansionOption) kind() optionSet    { return optExpansion }
func (o MaxExpansionOption) apply(x *options) { x.ratio = o.ratio }

// As decodes fields of Go type T from the Arrow representation of R, and
// encodes them back, through the given conversions. Either may be nil when
// only one direction is used. An error from decode fails View (and so
// Decode) naming the field and row. A plan option of decoding and encoding.
//
// Plans built with As are not cached: build a Mapper (or a Builder) once
// and reuse it.
func As[T, R any](decode func(R) (T, error), encode func(T) (R, error)) AsOption {
	c := &conversion{
		from: reflect.TypeFor[R](),
	}
	if decode != nil {
		c.decode = func(dst, src unsafe.Pointer) error {
			v, err := decode(*(*R)(src))
			*(*T)(dst) = v
			return err
		}
	}
	if encode != nil {
		c.encode = func(dst, src unsafe.Pointer) error {
			v, err := encode(*(*T)(src))
			*(*R)(dst) = v
			return err
		}
	}
	return AsOption{to: reflect.TypeFor[T](), conv: c}
}

// AsOption is the option As makes.
type AsOption struct {
	bothWays
	to   reflect.Type // T
	conv *conversion
}

func (AsOption) String() string  { return "As" }
func (AsOption) kind() optionSet { return optAs }
func (o AsOption) apply(x *options) {
	if x.conversions == nil {
		x.conversions = map[reflect.Type]*conversion{}
	}
	x.conversions[o.to] = o.conv
}

// conversion is an As option: T ↔ R through unsafe pointers to each.
type conversion struct {
	from   reflect.Type                        // R
	decode func(dst, src unsafe.Pointer) error // *T ← *R
	encode func(dst, src unsafe.Pointer) error // *R ← *T
}

// SchemaMetadata is the metadata of the schema the encoders write: a plan
// option of SchemaOf, Encode and NewBuilder (EncodeArray refuses it: an
// array has no schema), and so of the IPC and Parquet writers, which take
// the encoders' options. By
// default a row type that has a method ArrowSchemaMetadata() arrow.Metadata
// (arrowmap gen writes one for a file with schema metadata) gives it, else
// the schema has none.
func SchemaMetadata(md arrow.Metadata) SchemaMetadataOption { return SchemaMetadataOption{md: md} }

// SchemaMetadataOption is the option SchemaMetadata makes.
type SchemaMetadataOption struct {
	writeOnly
	md arrow.Metadata
}

// Metadata is the metadata given.
func (o SchemaMetadataOption) Metadata() arrow.Metadata { return o.md }

func (SchemaMetadataOption) String() string     { return "SchemaMetadata" }
func (SchemaMetadataOption) kind() optionSet    { return optSchemaMetadata }
func (o SchemaMetadataOption) apply(x *options) { x.schemaMeta = o.md }
