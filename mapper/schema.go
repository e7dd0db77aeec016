package mapper

import (
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"
)

// SchemaOf is the schema Encode writes rows of struct type T with, derived
// from the Go types and their tags:
//
//   - bool, intN, uintN, float32, float64 and float16.Num map to the Arrow
//     type of the same width; int to int64, uint and uintptr to uint64;
//     named types map by their underlying kind.
//   - string is utf8, []byte binary, [N]byte fixed_size_binary(N); the
//     pins utf8, large_utf8, utf8_view, binary, large_binary, binary_view,
//     large and view choose another layout. A string tagged decimal(p,s)
//     holds decimal text and is decimal128(p,s) (decimal256 past 38 digits).
//   - time.Time is timestamp[ns, UTC], or as tagged: timestamp with unit=
//     and tz=, date32 (its day in UTC) or date64 (a UTC midnight; another
//     instant is ErrInvalidData), time32 or time64 (its time of day in
//     UTC, as arreflect writes it; Decode reads times of day into
//     time.Duration only); time.Duration is duration[ns], or duration
//     with unit=, time32 or time64 (a time of day, in [0, 24h)).
//   - decimal.Decimal32, 64, 128 and 256 are decimal32(9,0), decimal64(18,0),
//     decimal128(38,0) and decimal256(76,0), or decimal(p,s) as tagged, p at
//     most those maximums.
//   - []T is list<T> (or large_list, list_view, large_list_view as pinned),
//     [N]T fixed_size_list<T>(N), map[K]V map<K, V> and a struct a struct,
//     at any depth; a type that implements encoding.TextMarshaler and is
//     none of the above is utf8.
//   - dict makes a level dictionary<int32, value> and ree
//     run_end_encoded<int32, value>.
//   - a struct of pointer variants tagged union (or sparse_union) is a
//     sparse_union of its variants, dense_union as tagged, with the codes
//     of their code= tags (else their indexes); see [UnionCode].
//
// Pointers, slices and maps are nullable; another level only with the tag
// nullable (arrow-elem:"nullable" for list elements, arrow-value for map
// values). A column is named by its tag, else by its Go field, in
// snake_case with SnakeCase. An As option with an encode func maps T as its
// R. Recursive types, channels, functions, complex numbers and interfaces
// are ErrUnsupported; a tag that does not apply to its field's type is
// ErrTag.
func SchemaOf[T any](opts ...WriteOption) (*arrow.Schema, error) {
	o, err := optionsFor("SchemaOf", schemaOptions, opts)
	if err != nil {
		return nil, err
	}
	p, err := cachedEncodePlan(reflect.TypeFor[T](), o)
	if err != nil {
		return nil, err
	}
	return p.schema, nil
}
