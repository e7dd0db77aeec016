package main

import (
	"errors"
	"fmt"
	"regexp"
	"testing"

	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/tags"
	"github.com/stretchr/testify/assert"
)

// anyPrefix is the prefix of an error of this module's packages, anywhere.
var anyPrefix = regexp.MustCompile(`arrowmap(/[a-z]+)?: `)

func TestMessagesSayArrowmapOnce(t *testing.T) {
	tagErr := &tags.Error{Key: "arrow", Option: "pos=-1", Err: errors.New("position -1 is negative")}
	for _, tt := range []struct {
		name string
		err  error
		want string
	}{
		{"a plain error gets the prefix", errors.New("head: -n -1 is negative"), "arrowmap: head: -n -1 is negative"},
		{"a mapper error keeps its text after one prefix", &mapper.Error{Path: "A", Column: "a", Row: -1, Err: mapper.ErrTypeMismatch},
			`arrowmap: field A, column "a": type mismatch`},
		{"a wrapped mapper error loses its prefix where it is wrapped", fmt.Errorf("rows.arrow: %w", &mapper.Error{Path: "A", Row: 3, Err: mapper.ErrNull}),
			"arrowmap: rows.arrow: field A, row 3: unexpected null"},
		{"an IO package's prefix goes too", fmt.Errorf("x.arrow: %w", errors.New("arrowmap/ipc: x.arrow: not an IPC file")),
			"arrowmap: x.arrow: x.arrow: not an IPC file"},
		{"a tag error inside a mapper error", &mapper.Error{Path: "A", Row: -1, Err: tagErr},
			`arrowmap: field A: invalid arrow tag option "pos=-1": position -1 is negative`},
		{"prefixes one after the other go at once", errors.New("arrowmap: arrowmap/ipc: broken"), "arrowmap: broken"},
		{"a column named like a prefix keeps its name", &mapper.Error{Path: "X", Column: "arrowmap: x", Row: -1, Err: mapper.ErrUnsupported},
			`arrowmap: field X, column "arrowmap: x": unsupported Go type`},
		{"a message of several lines is one", errors.New("arrowmap: a\n\tb"), "arrowmap: a b"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, message(tt.err))
		})
	}
}
