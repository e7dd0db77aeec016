package views

import (
	"errors"
	"fmt"
	"strings"
)

// The kinds of error New returns, wrapped in an [*Error].
var (
	// ErrTypeMismatch: the array's datatype is not one the Type accepts.
	ErrTypeMismatch = errors.New("type mismatch")
	// ErrNull: a row reaches a null at a level that is not nullable.
	ErrNull = errors.New("unexpected null")
	// ErrInvalidData: the array's buffers are malformed.
	ErrInvalidData = errors.New("invalid data")
)

// Error is a failure of [New] at one level of the view tree.
type Error struct {
	// Column is the path of the failing level below the viewed array, with
	// Arrow's field names: "" for the array itself, "item", "item.sku".
	Column string
	// Label is the [Type.Label] of the failing level.
	Label string
	// Row is the first row of the viewed array that reaches the failure, or
	// -1 when the failure is not about a row.
	Row int
	// Err is ErrTypeMismatch, ErrNull or ErrInvalidData.
	Err error
	// Detail says what exactly is wrong.
	Detail string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("arrowmap/views: ")
	if e.Column != "" {
		fmt.Fprintf(&b, "column %q: ", e.Column)
	}
	if e.Row >= 0 {
		fmt.Fprintf(&b, "row %d: ", e.Row)
	}
	b.WriteString(e.Err.Error())
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// path is the Arrow path of a level, linked to its parent so that building a
// view never formats a string unless it fails.
type path struct {
	up   *path
	name string
	t    *Type
	// prefix: validate only the rows of a child that the rows of its
	// parent reach (OfPrefix), not the whole child.
	prefix bool
}

func (p *path) String() string {
	if p == nil || p.up == nil {
		return ""
	}
	if up := p.up.String(); up != "" {
		return up + "." + p.name
	}
	return p.name
}

func (p *path) child(name string, t *Type) path {
	return path{up: p, name: name, t: t, prefix: p.prefix}
}

func (p *path) fail(kind error, row int, format string, args ...any) *Error {
	e := &Error{Column: p.String(), Row: row, Err: kind, Detail: fmt.Sprintf(format, args...)}
	if p.t != nil {
		e.Label = p.t.Label
	}
	return e
}
