// Package tags reads the `arrow:"…"` struct tags that tell arrowmap how a Go
// struct field maps to an Arrow column.
//
// It is the syntax layer only: it turns tag text into a [Tag] and rejects
// malformed or contradictory tags, but it knows nothing about Go types or
// Arrow data types; deciding whether `utf8` suits an int field is the
// mapper's job. Most callers read all of a field's tags with [Of]:
//
//	f, _ := reflect.TypeFor[Row]().FieldByName("Scores")
//	tag, err := tags.Of(f) // reads arrow, arrow-elem, arrow-key and arrow-value
//
// # Grammar
//
// The `arrow` tag is a column name followed by options, separated by commas:
//
//	arrow:"name,opt,opt=value,…"
//
// As in encoding/json, an empty name means "derive the name from the Go
// field", `arrow:"-"` skips the field, and `arrow:"-,"` names a column "-".
// Commas inside parentheses do not split (`decimal(10,2)` is one option),
// whitespace around an option is ignored and so are empty options. A name
// that starts with a double quote is a Go string literal, the one way to
// write a name with a comma or edge spaces, or the empty name ([Tag.Quoted]):
//
//	arrow:"\"a,b\",pos=3"
//	arrow:"\"\",pos=0"
//
// The `arrow-elem`, `arrow-key` and `arrow-value` tags hold options only (no
// name) for a list's elements, a map's keys and a map's values, in the manner
// of parquet-go's `parquet-element`/`-key`/`-value`:
//
//	Scores []float64 `arrow:"scores,large_list" arrow-elem:"nullable"`
//
// # Options
//
// Every option is one row of the package's grammar table, which [Options]
// lists: its name, its [Kind] (a flag, a pin among a group, key=value,
// decimal(p,s) or elem(…)), the [Level]s it may be written at and the
// kinds of Go type ([GoTypes]) it applies to. The parser, the groups of
// which a tag gives at most one, the error messages and the String of
// [Encoding], [Temporal], [Unit] and [UnionMode] read that table; the
// pins that name an Arrow type are spelled as arrowmap's table of Arrow
// types names it.
//
// Position: `pos=N`, N ≥ 0, the column's position among its siblings
// ([Tag.Pos]), which tells apart columns of one name; not in arrow-elem,
// arrow-key or arrow-value, nor with `inline`.
//
// Flags: `nullable` (this level may be null), `inline` (flatten an embedded
// struct's fields), `dict` (dictionary-encoded), `ree` (run-end encoded),
// `view` and `large` (the view or large variant of whatever the Go type
// encodes to). A flag may also be written with a value, as
// `nullable=true` or `nullable=false`.
//
// Encoding pins, at most one: `list`, `large_list`, `list_view` (alias
// `listview`), `large_list_view`, `fixed_size_list`, `utf8`, `large_utf8`,
// `utf8_view`, `binary`, `large_binary`, `binary_view`,
// `fixed_size_binary`, `map`. A pin cannot be combined with `view` or
// `large`, and at most one of `dict`, `ree` and `view` may be given.
//
// Temporal types, at most one: `timestamp`, `date32`, `date64`, `time32`,
// `time64`, `duration`; with `unit=s|ms|us|ns` (not for dates; s or ms for
// time32, us or ns for time64) and, for timestamps, `tz=` a zone as
// [ParseZone] reads it: UTC, Z, an IANA zone name ("Asia/Tokyo") or a fixed
// offset ("+05:30", "-0800", "+09"). `unit=` without a temporal type is
// the type of the field's Go type in that unit, which the mapper, seeing
// the Go type, decides: on a time.Time, a timestamp (`unit=us` is
// `timestamp,unit=us`, and takes `tz=` and `naive` as a timestamp does);
// on a time.Duration, a duration; on any other type, an error.
//
// Decimals: `decimal(precision,scale)`, or `precision=p` with an optional
// `scale=s`; 1 ≤ precision ≤ 76 and 0 ≤ scale ≤ precision.
//
// Unions: `union`, `sparse_union` or `dense_union` on a struct field of
// pointer variants (at most one of them); `code=N`, 0 ≤ N ≤ 127, on a
// variant for its type code; `type_code` on the int8 field that holds
// each row's code.
//
// Schema pins, so that a schema is written back exactly as it was read:
// `naive` (with `timestamp`: no time zone), `notnull` (a pointer, slice or
// map level whose field is not nullable; not with `nullable`),
// `index=int8…uint64` and `ordered` (with `dict`), `run_ends=int16|int32|int64`
// (with `ree`), `keys_sorted` (with `map`), `name=` (in arrow-elem, arrow-key, arrow-value: the child
// field's name; not in the arrow tag, which names its column first),
// `elem(…)` (the options of a list element's own element, 64 levels deep at most:
// `arrow-elem:"large_list,elem(large_utf8)"`),
// `ext=` and `ext_metadata=` (an extension type's name and serialized
// metadata; ext_metadata needs ext). A value with a comma, an equals sign,
// a quote, parentheses or edge spaces is a Go string literal:
//
//	Doc  json.RawMessage `arrow:"doc,large_utf8,ext=arrow.json"`
//	Tags []string        `arrow:"tags" arrow-elem:"name=\"a,b\""`
//
// # Metadata
//
// The `arrow-meta` struct tag holds a field's metadata as key=value pairs
// ([ParseMetadata], [FormatMetadata]); `arrow-elem-meta`, `arrow-key-meta`
// and `arrow-value-meta` hold those of a list's element and a map's key and
// value fields:
//
//	Score int64 `arrow:"score" arrow-meta:"pandas={},\"a,b\"=\"\""`
//
// Every option of arrow-go's arreflect package (`dict`, `ree`, `view`,
// `large`, `decimal(p,s)`, `date32`, `date64`, `time32`, `time64`,
// `timestamp`) is accepted with the same meaning, so a struct tagged for
// arreflect works unchanged.
//
// Every error wraps [ErrTag] and is an [*Error] naming the offending option.
package tags
