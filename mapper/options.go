package mapper

import (
	"reflect"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Option configures a Mapper, a Reader, Decode and the encoders.
type Option func(*options)

type options struct {
	mem          memory.Allocator
	strict       bool
	zeroCopy     bool
	allowMissing bool
	snakeCase    bool
	parallelism  int
	conversions  map[reflect.Type]*conversion
}

// key is what of the options a compiled plan depends on; ok is false when
// the options cannot be compared (As conversions), so the plan is not cached.
type optionsKey struct {
	strict, zeroCopy, allowMissing, snakeCase bool
	parallelism                               int
}

func (o *options) key() (optionsKey, bool) {
	return optionsKey{o.strict, o.zeroCopy, o.allowMissing, o.snakeCase, o.parallelism}, len(o.conversions) == 0
}

func newOptions(opts []Option) *options {
	o := &options{mem: memory.DefaultAllocator, parallelism: 1}
	for _, opt := range opts {
		if opt != nil {
			opt(o)
		}
	}
	return o
}

// WithAllocator sets the allocator for the Arrow memory the encoders build.
// The default is memory.DefaultAllocator.
func WithAllocator(mem memory.Allocator) Option {
	return func(o *options) {
		if mem != nil {
			o.mem = mem
		}
	}
}

// Strict accepts only the exact Arrow type and encoding of each field: no
// widening (int32 into an int64 field), no other list, string or binary
// encodings, no dictionary or run-end encoding unless the tag pins it.
func Strict() Option { return func(o *options) { o.strict = true } }

// ZeroCopy makes decoded strings and []byte alias the Arrow buffers instead
// of copying them. They are valid only while the record is: do not keep
// them past its Release, nor past the next Read of a Reader.
func ZeroCopy() Option { return func(o *options) { o.zeroCopy = true } }

// AllowMissing lets a field without a column keep its zero value instead of
// failing with ErrMissingColumn.
func AllowMissing() Option { return func(o *options) { o.allowMissing = true } }

// SnakeCase lets an untagged field match its snake_case column name: UserID
// matches user_id.
func SnakeCase() Option { return func(o *options) { o.snakeCase = true } }

// Parallelism decodes a large batch in n windows at once, on n goroutines.
// The result is the same as with n = 1, the default.
func Parallelism(n int) Option {
	return func(o *options) { o.parallelism = max(n, 1) }
}

// As decodes fields of Go type T from the Arrow representation of R, and
// encodes them back, through the given conversions. Either may be nil when
// only one direction is used. An error from decode fails View (and so
// Decode) naming the field and row.
//
// Decode[T] does not cache plans built with As: build a Mapper once.
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
