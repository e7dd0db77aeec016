package tags_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/tags"
)

// optionName is the option a corpus entry writes: "unit" of "unit=ms",
// "decimal" of "decimal(10,2)".
func optionName(written string) string {
	return strings.TrimSpace(regexp.MustCompile(`^[^=(]*`).FindString(written))
}

func TestTheCorpusWritesEveryOptionOfTheTableAndNoOther(t *testing.T) {
	var table []string
	for _, o := range tags.Options() {
		table = append(table, o.Name)
	}
	var corpus []string
	for _, written := range corpusOptions {
		if name := optionName(written); !slices.Contains(corpus, name) {
			corpus = append(corpus, name)
		}
	}
	assert.ElementsMatch(t, table, corpus, "an option is in the grammar table and not in the golden corpus, or the other way round")
}

func TestThePackageDocumentationNamesEveryOptionOfTheTableAndNoOther(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	require.NoError(t, err)
	options := string(doc)[strings.Index(string(doc), "// # Options"):strings.Index(string(doc), "// # Metadata")]
	var documented []string
	for _, m := range regexp.MustCompile("`([a-z_0-9]+)[^`]*`").FindAllStringSubmatch(options, -1) {
		if name := m[1]; !slices.Contains(documented, name) {
			documented = append(documented, name)
		}
	}
	var table []string
	for _, o := range tags.Options() {
		table = append(table, o.Name)
	}
	// The documentation quotes a few whole tags too: arrow-elem:"…".
	documented = slices.DeleteFunc(documented, func(s string) bool { return s == "arrow" })
	assert.ElementsMatch(t, table, documented)
}

func TestEveryPinIsSpelledAsTheArrowTypeTableNamesItsType(t *testing.T) {
	pins := 0
	for _, o := range tags.Options() {
		if o.Kind != tags.KindPin || o.ArrowType == arrow.NULL {
			continue
		}
		pins++
		row, ok := arrowtype.ByName(o.Name)
		if o.AliasOf != "" {
			row, ok = arrowtype.ByName(o.AliasOf)
		}
		require.True(t, ok, "%s names no row of the Arrow type table", o.Name)
		assert.Equal(t, row.ID, o.ArrowType, o.Name)
	}
	assert.Equal(t, 22, pins, "13 encodings, an alias, 6 temporal types, 2 unions")
}

func TestEncodingsAndTemporalsNameTheArrowTypeTheyPin(t *testing.T) {
	for e := tags.List; e <= tags.Map; e++ {
		id, ok := e.ID()
		require.True(t, ok, e.String())
		assert.Equal(t, e.String(), arrowtype.Of(id).Name)
	}
	for tt := tags.Timestamp; tt <= tags.Duration; tt++ {
		id, ok := tt.ID()
		require.True(t, ok, tt.String())
		assert.Equal(t, tt.String(), arrowtype.Of(id).Name)
	}
	_, ok := tags.EncodingDefault.ID()
	assert.False(t, ok, "no pin names no type")
	_, ok = tags.TemporalDefault.ID()
	assert.False(t, ok, "no pin names no type")
}

func TestOptionsDescribeEachOption(t *testing.T) {
	tests := []struct {
		name string
		want tags.Option
	}{
		{"nullable", tags.Option{Name: "nullable", Kind: tags.KindFlag, Levels: tags.LevelColumn | tags.LevelChild, AppliesTo: tags.AnyGoType}},
		{"dict", tags.Option{Name: "dict", Kind: tags.KindFlag, Group: "layout", Levels: tags.LevelColumn | tags.LevelChild, AppliesTo: tags.AnyGoType}},
		{"listview", tags.Option{Name: "listview", Kind: tags.KindPin, Group: "encoding", AliasOf: "list_view", Levels: tags.LevelColumn | tags.LevelChild,
			AppliesTo: tags.Lists, ArrowType: arrow.LIST_VIEW}},
		{"utf8", tags.Option{Name: "utf8", Kind: tags.KindPin, Group: "encoding", Levels: tags.LevelColumn | tags.LevelChild,
			AppliesTo: tags.Strings | tags.Bytes, ArrowType: arrow.STRING}},
		{"time64", tags.Option{Name: "time64", Kind: tags.KindPin, Group: "temporal", Levels: tags.LevelColumn | tags.LevelChild,
			AppliesTo: tags.Times | tags.Durations | tags.Integers, ArrowType: arrow.TIME64}},
		{"union", tags.Option{Name: "union", Kind: tags.KindPin, Group: "union", Levels: tags.LevelColumn | tags.LevelChild, AppliesTo: tags.UnionStructs}},
		{"unit", tags.Option{Name: "unit", Kind: tags.KindValue, Levels: tags.LevelColumn | tags.LevelChild, AppliesTo: tags.Times | tags.Durations | tags.Integers}},
		{"pos", tags.Option{Name: "pos", Kind: tags.KindValue, Levels: tags.LevelColumn, AppliesTo: tags.AnyGoType}},
		{"name", tags.Option{Name: "name", Kind: tags.KindValue, Levels: tags.LevelChild, AppliesTo: tags.AnyGoType}},
		{"decimal", tags.Option{Name: "decimal", Kind: tags.KindDecimal, Levels: tags.LevelColumn | tags.LevelChild, AppliesTo: tags.Decimals | tags.Strings}},
		{"elem", tags.Option{Name: "elem", Kind: tags.KindOptions, Levels: tags.LevelColumn | tags.LevelChild, AppliesTo: tags.Lists}},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is described as the grammar has it", func(t *testing.T) {
			got, ok := tags.LookupOption(tt.name)
			require.True(t, ok)
			assert.Equal(t, tt.want, got)
		})
	}
	_, ok := tags.LookupOption("frobnicate")
	assert.False(t, ok, "an unknown option has no description")
}

func TestOptionsIsACopy(t *testing.T) {
	opts := tags.Options()
	opts[0].Name = "changed"
	assert.NotEqual(t, "changed", tags.Options()[0].Name)
}

func TestEveryGroupTakesOneMemberAndRefusesTwo(t *testing.T) {
	groups := map[string][]string{}
	for _, o := range tags.Options() {
		if o.Group != "" {
			groups[o.Group] = append(groups[o.Group], o.Name)
		}
	}
	assert.Len(t, groups, 4, "encoding, temporal, union, layout")
	for group, members := range groups {
		for _, a := range members {
			_, err := tags.Parse("c," + a)
			require.NoError(t, err, "%s alone", a)
			for _, b := range members {
				if a == b {
					continue
				}
				_, err := tags.Parse("c," + a + "," + b)
				var te *tags.Error
				require.ErrorAs(t, err, &te, "%s group: %s with %s", group, a, b)
				assert.Equal(t, b, te.Option)
				assert.EqualError(t, te.Err, `conflicts with "`+a+`"`)
			}
		}
	}
}

func TestEveryKeyValueOptionNeedsItsValue(t *testing.T) {
	for _, o := range tags.Options() {
		if o.Kind != tags.KindValue {
			continue
		}
		_, err := tags.ParseOptions(o.Name)
		var te *tags.Error
		require.ErrorAs(t, err, &te, o.Name)
		assert.EqualError(t, te.Err, "needs a value, as in key=value", o.Name)
	}
}

func TestGoTypesPrintTheirKinds(t *testing.T) {
	assert.Equal(t, "strings|bytes", (tags.Strings | tags.Bytes).String())
	assert.Equal(t, "any Go type", tags.AnyGoType.String())
	assert.Equal(t, "key=value", tags.KindValue.String())
}
