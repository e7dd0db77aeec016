package mapper

import (
	"reflect"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/mapperhook"
)

// Option configures a Mapper, a Reader, Decode, Columns and the encoders.
//
// Options are of two kinds. Plan options (Strict, AllowMissing, SnakeCase,
// RejectExtraColumns, LastKeyWins, As) change what a plan is: which column
// a field reads and how its values convert. Call options (ZeroCopy,
// Parallelism, Allocator) steer one call or reader over a plan and never
// make a new one. Every entry point says which options it takes; passing
// one it does not take is an ErrUnsupported *Error naming the option, not
// an option silently ignored.
type Option func(*options)

// options is what the Options given to one entry point set.
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

// optionSet is a set of kinds of option, one bit each: mapperhook's, so
// that the IO packages classify options by the same bits.
type optionSet = mapperhook.Kinds

const (
	optStrict         = mapperhook.Strict
	optAllowMissing   = mapperhook.AllowMissing
	optSnakeCase      = mapperhook.SnakeCase
	optRejectExtra    = mapperhook.RejectExtraColumns
	optLastKeyWins    = mapperhook.LastKeyWins
	optAs             = mapperhook.As
	optAllocator      = mapperhook.Allocator
	optZeroCopy       = mapperhook.ZeroCopy
	optParallelism    = mapperhook.Parallelism
	optSchemaMetadata = mapperhook.SchemaMetadata
	optExpansion      = mapperhook.Expansion
)

// The options each family of entry points takes (see mapperhook).
const (
	decodeOptions  = mapperhook.Decode
	readerOptions  = mapperhook.Reader
	columnsOptions = mapperhook.Columns
	schemaOptions  = mapperhook.Schema
	encodeOptions  = mapperhook.Encode
)

// IOOption lets IO packages take mapper options beside their own
// settings: it marks an Option as one of the options their entry points
// take (parquet.Option, ipc.Option, …, which a config struct of the
// package satisfies too). It does nothing.
func (Option) IOOption() {}

func init() {
	mapperhook.Inspect = func(opt any) mapperhook.Given {
		var o options
		opt.(Option)(&o)
		return mapperhook.Given{Kind: o.given, Alloc: o.mem, Metadata: o.schemaMeta, Ratio: o.ratio}
	}
}

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
// in accepted: any other is an ErrUnsupported *Error naming it.
func optionsFor(entry string, accepted optionSet, opts []Option) (*options, error) {
	o := &options{mem: memory.DefaultAllocator, parallelism: 1}
	for _, opt := range opts {
		if opt != nil {
			opt(o)
		}
	}
	if extra := o.given &^ accepted; extra != 0 {
		return nil, newError(ErrUnsupported, "", "", -1, "%s does not take %s", entry, extra)
	}
	return o, nil
}

// Allocator sets the allocator for the Arrow memory the encoders build.
// The default is memory.DefaultAllocator. A call option of Encode,
// NewBuilder and EncodeArray.
func Allocator(mem memory.Allocator) Option {
	return func(o *options) {
		o.given |= optAllocator
		if mem != nil {
			o.mem = mem
		}
	}
}

// Strict accepts only the exact Arrow type and encoding of each field: no
// widening (int32 into an int64 field), no other list, string or binary
// encodings, no dictionary or run-end encoding unless the tag pins it. A
// plan option of decoding and of Columns; encoding always writes the exact
// type the tags name, so the encoders do not take it.
func Strict() Option { return func(o *options) { o.given |= optStrict; o.strict = true } }

// ZeroCopy makes decoded strings and []byte alias the Arrow buffers instead
// of copying them. They are valid only while the record is: do not keep
// them past its Release, nor past the next Read of a Reader. A call option
// of decoding; readers whose rows outlive their records refuse it.
func ZeroCopy() Option { return func(o *options) { o.given |= optZeroCopy; o.zeroCopy = true } }

// AllowMissing lets a field without a column keep its zero value instead of
// failing with ErrMissingColumn. A plan option of decoding and of Columns.
func AllowMissing() Option {
	return func(o *options) { o.given |= optAllowMissing; o.allowMissing = true }
}

// SnakeCase lets an untagged field match its snake_case column name: UserID
// matches user_id; encoding names the column so. A plan option of every
// entry point.
func SnakeCase() Option { return func(o *options) { o.given |= optSnakeCase; o.snakeCase = true } }

// RejectExtraColumns makes a column that no field maps to an error,
// ErrExtraColumn listing every such column, at the top level and inside
// struct columns; by default they are ignored (and never read). The
// counterpart of encoding/json's DisallowUnknownFields. A plan option of
// decoding and of Columns.
func RejectExtraColumns() Option {
	return func(o *options) { o.given |= optRejectExtra; o.rejectExtra = true }
}

// LastKeyWins lets a map row with a key twice decode to the last of its
// entries, as a Go map assignment would. By default such a row is an
// ErrDuplicateKey naming the row and the key, since a Go map cannot hold
// both entries. A plan option of decoding.
func LastKeyWins() Option {
	return func(o *options) { o.given |= optLastKeyWins; o.lastKeyWins = true }
}

// Parallelism decodes a large batch in n windows at once, on n goroutines.
// The result is the same as with n = 1, the default. A call option of
// decoding.
func Parallelism(n int) Option {
	return func(o *options) { o.given |= optParallelism; o.parallelism = max(n, 1) }
}

// MaxExpansion bounds how far the readers trust the sizes their input
// claims: to n bytes allocated per byte received behind the claim, past a
// floor of 64 MiB. n is 64 by default, and below 1 it is the default;
// math.MaxInt lifts the bound, even for claims with no bytes behind them (a
// record of null columns has none). Past it, a read fails with an ErrTooLarge
// *Error that names the claim and the limit, before anything is allocated
// for the claim:
//
//   - an IPC message (read by package ipc, flight or flightsql) whose
//     compressed buffers claim more than 64 MiB + n × its body's bytes
//     once decompressed: each buffer starts with its length uncompressed,
//     which arrow-go allocates before it decompresses (the dictionaries
//     of a stream or file, held to its end, in all for all their bodies);
//   - a record that would make Reader.ReadAll hold more than 64 MiB + n ×
//     the bytes of the records it has read (their buffers, as arrow-go
//     holds them) in rows of T, each of the size of T: run-end-encoded
//     and null columns can claim trillions of rows in a few bytes.
//
// Raise n for data that is legitimately more compressible: ZSTD stores a
// column of zeros in a thousandth of its size, and a run-end-encoded
// column of long runs reads into many times its bytes. Reading in pages
// (Read, Pages, All) holds a page, whatever a record claims. A call
// option of NewReader and of every reader of the IO packages.
func MaxExpansion(n int) Option {
	return func(o *options) { o.given |= optExpansion; o.ratio = int64(max(n, 0)) }
}

// As decodes fields of Go type T from the Arrow representation of R, and
// encodes them back, through the given conversions. Either may be nil when
// only one direction is used. An error from decode fails View (and so
// Decode) naming the field and row. A plan option of decoding and encoding.
//
// Plans built with As are not cached: build a Mapper (or a Builder) once
// and reuse it.
func As[T, R any](decode func(R) (T, error), encode func(T) (R, error)) Option {
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
	return func(o *options) {
		o.given |= optAs
		if o.conversions == nil {
			o.conversions = map[reflect.Type]*conversion{}
		}
		o.conversions[reflect.TypeFor[T]()] = c
	}
}

// conversion is an As option: T ↔ R through unsafe pointers to each.
type conversion struct {
	from   reflect.Type                        // R
	decode func(dst, src unsafe.Pointer) error // *T ← *R
	encode func(dst, src unsafe.Pointer) error // *R ← *T
}

// SchemaMetadata is the metadata of the schema the encoders write: a plan
// option of SchemaOf, Encode, NewBuilder and EncodeArray's record, and so
// of the IPC and Parquet writers, which take the encoders' options. By
// default a row type that has a method ArrowSchemaMetadata() arrow.Metadata
// (arrowmap gen writes one for a file with schema metadata) gives it, else
// the schema has none.
func SchemaMetadata(md arrow.Metadata) Option {
	return func(o *options) { o.given |= optSchemaMetadata; o.schemaMeta = md }
}
