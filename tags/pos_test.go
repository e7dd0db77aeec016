package tags_test

import (
	"reflect"
	"testing"

	"github.com/arrowmap/arrowmap/tags"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func intPtr(n int) *int { return &n }

func TestParseReadsPositionsAndQuotedNames(t *testing.T) {
	tests := []struct {
		name string
		tag  string
		want tags.Tag
	}{
		{"pos gives the position with a name", "ints,pos=1", tags.Tag{Name: "ints", Pos: intPtr(1)}},
		{"pos gives the position without a name", ",pos=2", tags.Tag{Pos: intPtr(2)}},
		{"pos=0 is the first position, not none", "a,pos=0", tags.Tag{Name: "a", Pos: intPtr(0)}},
		{"pos goes with other options", "t,nullable,pos=3,timestamp", tags.Tag{Name: "t", Nullable: true, Pos: intPtr(3), Temporal: tags.Timestamp}},
		{"a quoted name holds a comma", `"a,b"`, tags.Tag{Name: "a,b", Quoted: true}},
		{"a quoted name holds edge spaces", `" a ",pos=0`, tags.Tag{Name: " a ", Quoted: true, Pos: intPtr(0)}},
		{"a quoted empty name is the empty name", `"",pos=2`, tags.Tag{Quoted: true, Pos: intPtr(2)}},
		{"a quoted name holds escapes", `"say \"hi\"\n",nullable`, tags.Tag{Name: "say \"hi\"\n", Quoted: true, Nullable: true}},
		{"a quoted dash names a column dash", `"-"`, tags.Tag{Name: "-", Quoted: true}},
		{"spaces around a quoted name are trimmed", `  "a,b"  , pos=4 `, tags.Tag{Name: "a,b", Quoted: true, Pos: intPtr(4)}},
		{"a quote inside an unquoted name is kept", `a"b`, tags.Tag{Name: `a"b`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tags.Parse(tt.tag)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseRejectsBadPositionsAndQuotedNames(t *testing.T) {
	tests := []struct {
		name string
		tag  string
		want string
	}{
		{"a negative position", "a,pos=-1", `arrowmap/tags: invalid tag option "pos=-1": position -1 is negative`},
		{"a position that is not a number", "a,pos=two", `arrowmap/tags: invalid tag option "pos=two": "two" is not an integer`},
		{"a position without a value", "a,pos", `arrowmap/tags: invalid tag option "pos": needs a value, as in key=value`},
		{"a position given twice", "a,pos=1,pos=2", `arrowmap/tags: invalid tag option "pos=2": repeats "pos=1"`},
		{"a position on an inlined struct", ",inline,pos=1", `arrowmap/tags: invalid tag option "pos=1": conflicts with "inline"`},
		{"an unterminated quoted name", `"a,pos=1`, `arrowmap/tags: invalid tag option "\"a,pos=1": a quoted name must be a Go string literal`},
		{"text after a quoted name", `"a"b,pos=1`, `arrowmap/tags: invalid tag option "\"a\"b,pos=1": want a comma after the quoted name`},
		{"name= after a quoted name", `"a",name=b`, `arrowmap/tags: invalid tag option "name=b": the arrow tag names its column first; name= is for arrow-elem, arrow-key and arrow-value`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tags.Parse(tt.tag)
			require.ErrorIs(t, err, tags.ErrTag)
			assert.EqualError(t, err, tt.want)
		})
	}
}

func TestOfRefusesAPositionBelowAField(t *testing.T) {
	type row struct {
		Items []int `arrow:"items" arrow-elem:"pos=1"`
	}
	_, err := tags.Of(reflect.TypeFor[row]().Field(0))
	require.ErrorIs(t, err, tags.ErrTag)
	assert.EqualError(t, err, `arrowmap/tags: invalid arrow-elem tag option "pos=1": only a column or a struct field has a position`)
}
