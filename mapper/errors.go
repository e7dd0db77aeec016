package mapper

import (
	"errors"
	"fmt"
	"strings"

	"github.com/arrowmap/arrowmap/internal/expansion"
	"github.com/arrowmap/arrowmap/tags"
	"github.com/arrowmap/arrowmap/views"
)

// The kinds of failure, wrapped in an [*Error]; test with errors.Is.
var (
	// ErrTypeMismatch: a column's Arrow type cannot be decoded into the
	// field's Go type (including narrowing and int ↔ float).
	ErrTypeMismatch = views.ErrTypeMismatch
	// ErrNull: a row reaches a null where the field cannot hold one.
	ErrNull = views.ErrNull
	// ErrMissingColumn: a field has no column and AllowMissing is not set.
	ErrMissingColumn = errors.New("missing column")
	// ErrInvalidData: the record's buffers are malformed.
	ErrInvalidData = views.ErrInvalidData
	// ErrUnsupported: the Go type cannot be mapped at all (a channel, a
	// function, a recursive type, a map key that is not comparable, …).
	ErrUnsupported = errors.New("unsupported Go type")
	// ErrTag: a struct tag is malformed or contradicts the field's type.
	ErrTag = tags.ErrTag
	// ErrOverflow: a value does not fit the field or the Arrow type.
	ErrOverflow = errors.New("value out of range")
	// ErrExtraColumn: with RejectExtraColumns, a column no field maps to.
	ErrExtraColumn = errors.New("extra column")
	// ErrDuplicateKey: a map row has a key twice, which a Go map cannot
	// hold, and LastKeyWins is not set.
	ErrDuplicateKey = errors.New("duplicate map key")
	// ErrClosed: a reader was used after its Release.
	ErrClosed = errors.New("used after Release or Close")
	// ErrTooLarge: the input claims more memory than a reader allows for
	// the bytes behind the claim (see MaxExpansion).
	ErrTooLarge = expansion.ErrTooLarge
	// ErrOption: an entry point was given an option it does not take, of
	// the right direction (the compiler refuses the other): ZeroCopy for a
	// reader whose rows outlive its records, Allocator for Decode, another
	// package's config. The message names the entry point and the option.
	ErrOption = errors.New("option not taken")
)

// Error is a failure to map a Go field to or from an Arrow column.
//
// Row counts from the start of what the call was given: for a Reader or a
// ColumnsReader (and so every reader of the IO packages), the first row of
// the file or stream, not of the record; for Mapper.Decode, Columns or
// Encode, the record or the rows given; for a Builder, the rows of the
// record it is building. Record is the index of the record the error is in, counted
// from 0 at the start of the stream: it is 0 where no reader is involved
// (the one record given) and in the first record of a stream, and the text
// of the error names it only past the first ("row 150000 (record 8)").
type Error struct {
	Path   string // Go field path: "Items[].SKU", "Attrs[value]", "Meta.Owner"
	Column string // Arrow column path: "items.item.sku"
	Row    int    // row from the start of the stream (see above), -1 when not about one row
	Record int    // index of the record of the stream, from 0; 0 without a reader
	Err    error  // one of the sentinels above, possibly wrapping a detail
}

// Error is the text of e: "arrowmap: field P, column "c", row R: detail",
// with " (record N)" after the row when Record > 0, and "record N" alone
// when the error is about a record but not one row.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("arrowmap: ")
	if e.Path != "" {
		fmt.Fprintf(&b, "field %s", e.Path)
	}
	if e.Column != "" {
		if e.Path != "" {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "column %q", e.Column)
	}
	if e.Row >= 0 {
		if e.Path != "" || e.Column != "" {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "row %d", e.Row)
		if e.Record > 0 {
			fmt.Fprintf(&b, " (record %d)", e.Record)
		}
	} else if e.Record > 0 {
		if e.Path != "" || e.Column != "" {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "record %d", e.Record)
	}
	if e.Path != "" || e.Column != "" || e.Row >= 0 || e.Record > 0 {
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap is e.Err, so that errors.Is finds the sentinel.
func (e *Error) Unwrap() error { return e.Err }

// InStream is err, an error of the record numbered record of a stream
// whose first row is the stream's row first, as the reader reports it:
// an *Error moves to the stream's rows and names its record; any other
// error is returned as it is.
func InStream(err error, record int, first int64) error {
	e, ok := err.(*Error)
	if !ok {
		return err
	}
	moved := *e
	moved.Record = record
	if moved.Row >= 0 {
		moved.Row += int(first)
	}
	return &moved
}

// detail wraps a sentinel with what exactly went wrong, keeping errors.Is.
type detail struct {
	kind error
	msg  string
}

func (d *detail) Error() string { return d.kind.Error() + ": " + d.msg }
func (d *detail) Unwrap() error { return d.kind }

func newError(kind error, path, column string, row int, format string, args ...any) *Error {
	return &Error{Path: path, Column: column, Row: row, Err: &detail{kind: kind, msg: fmt.Sprintf(format, args...)}}
}
