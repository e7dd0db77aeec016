package tags

import (
	"errors"
	"strconv"
	"strings"
)

// ErrTag is wrapped by every error this package returns, so callers can test
// for a bad tag with errors.Is(err, tags.ErrTag).
var ErrTag = errors.New("arrowmap/tags: invalid tag")

// Error describes an invalid tag: which struct tag, which option, and why.
type Error struct {
	// Key is the struct tag key ("arrow", "arrow-elem", "arrow-key",
	// "arrow-value") when the error comes from [Of], "" from [Parse] and
	// [ParseOptions].
	Key string
	// Option is the offending option as written, e.g. "unit=weeks"; "" when
	// no single option is to blame.
	Option string
	// Err says what is wrong with the option.
	Err error
}

// Error returns a message naming the tag key and the offending option, e.g.
//
//	arrowmap/tags: invalid arrow tag option "unit=weeks": unknown unit "weeks" (want s, ms, us or ns)
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("arrowmap/tags: invalid ")
	if e.Key != "" {
		b.WriteString(e.Key)
		b.WriteByte(' ')
	}
	b.WriteString("tag")
	if e.Option != "" {
		b.WriteString(" option ")
		b.WriteString(strconv.Quote(e.Option))
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the detail error, Err.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is [ErrTag], which every *Error stands for.
func (e *Error) Is(target error) bool { return target == ErrTag }
