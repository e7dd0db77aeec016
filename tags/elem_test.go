package tags_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/arrowmap/arrowmap/tags"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestElemPinsTheLevelsBelowAListElement(t *testing.T) {
	type row struct {
		Deep [][][]string `arrow:"deep" arrow-elem:"large_list,notnull,elem(name=inner,elem(large_utf8))"`
	}
	got, err := tags.Of(reflect.TypeFor[row]().Field(0))
	require.NoError(t, err)
	require.NotNil(t, got.Elem)
	assert.Equal(t, tags.LargeList, got.Elem.Encoding)
	assert.True(t, got.Elem.NotNull)
	require.NotNil(t, got.Elem.Elem, "elem( ) of arrow-elem is the element's element")
	assert.Equal(t, "inner", got.Elem.Elem.Name)
	require.NotNil(t, got.Elem.Elem.Elem)
	assert.Equal(t, tags.LargeUtf8, got.Elem.Elem.Elem.Encoding)
	assert.Nil(t, got.Elem.Elem.Elem.Elem)
}

func TestElemRejects(t *testing.T) {
	for _, tc := range []struct{ name, opts, option string }{
		{"an unknown option inside", "elem(nope)", "nope"},
		{"a position inside", "elem(pos=1)", "pos=1"},
		{"elem twice", "elem(large_utf8),elem(utf8)", "elem(utf8)"},
		{"an unclosed elem", "elem(large_utf8", "elem(large_utf8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tags.ParseOptions(tc.opts)
			var te *tags.Error
			require.ErrorAs(t, err, &te)
			assert.Contains(t, err.Error(), tc.option)
		})
	}
	t.Run("elem in the arrow tag and arrow-elem both", func(t *testing.T) {
		type row struct {
			L [][]int `arrow:"l,elem(list)" arrow-elem:"list"`
		}
		_, err := tags.Of(reflect.TypeFor[row]().Field(0))
		var te *tags.Error
		require.ErrorAs(t, err, &te)
		assert.Contains(t, err.Error(), "arrow-elem")
	})
}

// TestAQuoteInsideABareValueHidesNothing: only a quote that opens a value
// quotes; one inside a bare value is refused, and the options after it are
// still read as options.
func TestAQuoteInsideABareValueHidesNothing(t *testing.T) {
	for _, opts := range []string{`name=a"b,nullable`, `ext=x"y,dict`} {
		_, err := tags.ParseOptions(opts)
		var te *tags.Error
		require.ErrorAs(t, err, &te, opts)
		assert.Contains(t, err.Error(), "Go string literal")
	}
	got, err := tags.ParseOptions(`name="a,\"b",nullable`)
	require.NoError(t, err)
	assert.Equal(t, `a,"b`, got.Name)
	assert.True(t, got.Nullable)
}

// nestedElem is the options "x,elem(elem(…(nullable)…))", depth elem(…)
// levels deep.
func nestedElem(depth int) string {
	return "x," + strings.Repeat("elem(", depth) + "nullable" + strings.Repeat(")", depth)
}

func TestElemNestsSixtyFourDeepAndNoDeeper(t *testing.T) {
	tag, err := tags.Parse(nestedElem(64))
	require.NoError(t, err)
	for range 64 {
		require.NotNil(t, tag.Elem)
		tag = *tag.Elem
	}
	assert.True(t, tag.Nullable, "the innermost level's options are kept")

	_, err = tags.Parse(nestedElem(65))
	require.ErrorIs(t, err, tags.ErrTag)
	assert.Contains(t, err.Error(), "nested more than 64 deep")
}

// A tag of a megabyte of elem(…) (the length GoTypeOf gives a hostile
// Parquet schema of lists 180,000 deep) is refused at the bound: each
// level was parsed from the text inside it, which took minutes.
func TestAMegabyteOfNestedElemIsAnErrorAtTheBound(t *testing.T) {
	opts := nestedElem(180_000)
	require.Greater(t, len(opts), 1<<20)
	_, err := tags.Parse(opts)
	require.ErrorIs(t, err, tags.ErrTag)
	assert.Contains(t, err.Error(), "nested more than 64 deep")
	assert.Less(t, len(err.Error()), 200, "the error does not quote the tag")
}
