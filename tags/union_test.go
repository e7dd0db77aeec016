package tags_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/tags"
)

func code(c int8) *int8 { return &c }

func TestParseUnionOptions(t *testing.T) {
	tests := []struct {
		name string
		tag  string
		want tags.Tag
	}{
		{"union takes the mode from the column", "v,union", tags.Tag{Name: "v", Union: tags.AnyUnion}},
		{"sparse_union pins the sparse mode", "v,sparse_union", tags.Tag{Name: "v", Union: tags.SparseUnion}},
		{"dense_union pins the dense mode", "v,dense_union,nullable", tags.Tag{Name: "v", Union: tags.DenseUnion, Nullable: true}},
		{"code= gives a variant its type code", "f1,code=5", tags.Tag{Name: "f1", Code: code(5)}},
		{"code=0 is a code, not its absence", "f1,code=0", tags.Tag{Name: "f1", Code: code(0)}},
		{"the largest type code is 127", "f1,code=127", tags.Tag{Name: "f1", Code: code(127)}},
		{"type_code marks the field of the row's code", ",type_code", tags.Tag{TypeCode: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tags.Parse(tt.tag)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseRejectsUnionOptions(t *testing.T) {
	tests := []struct {
		name   string
		tag    string
		option string
		detail string
	}{
		{"two union modes", "v,union,dense_union", "dense_union", `conflicts with "union"`},
		{"sparse and dense", "v,dense_union,sparse_union", "sparse_union", `conflicts with "dense_union"`},
		{"a negative code", "f,code=-1", "code=-1", "type code -1 is outside 0 to 127"},
		{"a code past 127", "f,code=128", "code=128", "type code 128 is outside 0 to 127"},
		{"a code that is no integer", "f,code=five", "code=five", `"five" is not an integer`},
		{"code without a value", "f,code", "code", "needs a value, as in key=value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tags.Parse(tt.tag)
			require.Error(t, err)
			assert.True(t, errors.Is(err, tags.ErrTag))
			var e *tags.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tt.option, e.Option)
			assert.Equal(t, tt.detail, e.Err.Error())
		})
	}
}

func TestUnionModeStringIsItsTagSpelling(t *testing.T) {
	for _, m := range []tags.UnionMode{tags.AnyUnion, tags.SparseUnion, tags.DenseUnion} {
		got, err := tags.Parse("v," + m.String())
		require.NoError(t, err)
		assert.Equal(t, m, got.Union)
	}
	assert.Equal(t, "", tags.NoUnion.String())
}
