package tags_test

import (
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/tags"
)

func TestParseReadsTheSchemaPins(t *testing.T) {
	tests := []struct {
		name string
		tag  string
		want tags.Tag
	}{
		{"naive is a timestamp without a zone", "t,timestamp,naive", tags.Tag{Name: "t", Temporal: tags.Timestamp, Naive: true}},
		{"naive goes with a unit", "t,timestamp,unit=us,naive", tags.Tag{Name: "t", Temporal: tags.Timestamp, Unit: tags.Microsecond, Naive: true}},
		{"naive goes with a unit alone", "t,unit=us,naive", tags.Tag{Name: "t", Unit: tags.Microsecond, Naive: true}},
		{"notnull marks a nullable-by-nature level not nullable", "b,notnull", tags.Tag{Name: "b", NotNull: true}},
		{"notnull goes with a layout", "b,large_binary,notnull", tags.Tag{Name: "b", Encoding: tags.LargeBinary, NotNull: true}},
		{"index= takes each integer type", "d,dict,index=uint16", tags.Tag{Name: "d", Dict: true, Index: arrow.PrimitiveTypes.Uint16}},
		{"index=int8", "d,dict,index=int8", tags.Tag{Name: "d", Dict: true, Index: arrow.PrimitiveTypes.Int8}},
		{"index=int64", "d,dict,index=int64", tags.Tag{Name: "d", Dict: true, Index: arrow.PrimitiveTypes.Int64}},
		{"ordered marks the dictionary ordered", "d,dict,ordered", tags.Tag{Name: "d", Dict: true, Ordered: true}},
		{"run_ends=int16", "r,ree,run_ends=int16", tags.Tag{Name: "r", REE: true, RunEnds: arrow.PrimitiveTypes.Int16}},
		{"run_ends=int64", "r,ree,run_ends=int64", tags.Tag{Name: "r", REE: true, RunEnds: arrow.PrimitiveTypes.Int64}},
		{"ext= names an extension", "u,ext=arrow.uuid", tags.Tag{Name: "u", Extension: "arrow.uuid"}},
		{"ext_metadata= is its serialized metadata, Go-quoted", `o,ext=arrow.opaque,ext_metadata="{\"type_name\":\"g\",\"vendor_name\":\"v\"}"`,
			tags.Tag{Name: "o", Extension: "arrow.opaque", ExtensionMetadata: `{"type_name":"g","vendor_name":"v"}`}},
		{"an empty quoted ext_metadata is given, and empty", `o,ext=x,ext_metadata=""`, tags.Tag{Name: "o", Extension: "x"}},
		{"a Go-quoted ext= holds a comma", `o,ext="a,b"`, tags.Tag{Name: "o", Extension: "a,b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tags.Parse(tt.tag)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseOptionsReadsAnElementName(t *testing.T) {
	for _, c := range []struct{ opts, name string }{
		{"name=element", "element"},
		{`name="a,b"`, "a,b"},
		{`name=""`, ""},
		{"notnull,name=x", "x"},
	} {
		got, err := tags.ParseOptions(c.opts)
		require.NoError(t, err, c.opts)
		assert.Equal(t, c.name, got.Name, c.opts)
	}
}

func TestParseRejectsBadSchemaPins(t *testing.T) {
	tests := []struct {
		name string
		tag  string
		want string
	}{
		{"naive with a zone", "t,timestamp,naive,tz=UTC", `arrowmap/tags: invalid tag option "tz=UTC": conflicts with "naive"`},
		{"naive without timestamp", "t,naive", `arrowmap/tags: invalid tag option "naive": naive needs timestamp (or unit= alone, on a time.Time)`},
		{"naive on a date", "t,date32,naive", `arrowmap/tags: invalid tag option "naive": naive needs timestamp (or unit= alone, on a time.Time)`},
		{"notnull and nullable", "b,nullable,notnull", `arrowmap/tags: invalid tag option "notnull": conflicts with "nullable"`},
		{"index= without dict", "d,index=int8", `arrowmap/tags: invalid tag option "index=int8": index needs dict`},
		{"an index type that is not an integer", "d,dict,index=float32", `arrowmap/tags: invalid tag option "index=float32": unknown index type "float32" (want int8, int16, int32, int64, uint8, uint16, uint32 or uint64)`},
		{"ordered without dict", "d,ordered", `arrowmap/tags: invalid tag option "ordered": ordered needs dict`},
		{"run_ends= without ree", "r,run_ends=int16", `arrowmap/tags: invalid tag option "run_ends=int16": run_ends needs ree`},
		{"a run-end type Arrow does not allow", "r,ree,run_ends=int8", `arrowmap/tags: invalid tag option "run_ends=int8": unknown run-end type "int8" (want int16, int32 or int64)`},
		{"ext_metadata= without ext=", `o,ext_metadata="{}"`, `arrowmap/tags: invalid tag option "ext_metadata=\"{}\"": ext_metadata needs ext`},
		{"a badly quoted ext=", `o,ext="a`, `arrowmap/tags: invalid tag option "ext=\"a": "a is not a Go-quoted string`},
		{"name= on a column", "c,name=x", `arrowmap/tags: invalid tag option "name=x": the arrow tag names its column first; name= is for arrow-elem, arrow-key and arrow-value`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tags.Parse(tt.tag)
			require.ErrorIs(t, err, tags.ErrTag)
			assert.EqualError(t, err, tt.want)
		})
	}
}

func TestOfReadsMetadataTags(t *testing.T) {
	type row struct {
		A []int          `arrow:"a" arrow-meta:"k=v,\"a,b\"=\"=\"" arrow-elem:"name=element" arrow-elem-meta:"e=1"`
		M map[string]int `arrow:"m" arrow-key-meta:"kk=1" arrow-value-meta:"vv=\"\""`
	}
	a, err := tags.Of(reflect.TypeFor[row]().Field(0))
	require.NoError(t, err)
	require.NotNil(t, a.Metadata)
	assert.Equal(t, arrow.NewMetadata([]string{"k", "a,b"}, []string{"v", "="}), *a.Metadata)
	require.NotNil(t, a.Elem)
	assert.Equal(t, "element", a.Elem.Name)
	assert.Equal(t, arrow.NewMetadata([]string{"e"}, []string{"1"}), *a.Elem.Metadata)

	m, err := tags.Of(reflect.TypeFor[row]().Field(1))
	require.NoError(t, err)
	assert.Equal(t, arrow.NewMetadata([]string{"kk"}, []string{"1"}), *m.Key.Metadata)
	assert.Equal(t, arrow.NewMetadata([]string{"vv"}, []string{""}), *m.Value.Metadata)
}

func TestMetadataFormatsAsItParses(t *testing.T) {
	for _, md := range []arrow.Metadata{
		arrow.NewMetadata(nil, nil),
		arrow.NewMetadata([]string{"pandas"}, []string{`{"index_columns": ["a"]}`}),
		arrow.NewMetadata([]string{"", " x ", "ARROW:extension:name", "q\"", "tab\t"}, []string{"empty", "", "arrow.uuid", "=", "line\n"}),
	} {
		s := tags.FormatMetadata(md)
		back, err := tags.ParseMetadata(s)
		require.NoError(t, err, s)
		assert.Equal(t, md.Keys(), back.Keys(), s)
		assert.Equal(t, md.Values(), back.Values(), s)
	}
}

func TestParseMetadataRejects(t *testing.T) {
	tests := []struct {
		name, s, want string
	}{
		{"a key without a value", "k", `arrowmap/tags: invalid arrow-meta tag option "k": want key=value`},
		{"a key given twice", "k=1,k=2", `arrowmap/tags: invalid arrow-meta tag option "\"k\"": the key is given twice`},
		{"a bare quote", `k=a"b`, `arrowmap/tags: invalid arrow-meta tag option "k=a\"b": "a\"b" has a quote: quote it whole`},
		{"an unterminated quote", `"k=1`, `arrowmap/tags: invalid arrow-meta tag option "\"k=1": "k=1 is not a Go-quoted string`},
		{"pairs without a comma", `"a"="b" c=d`, `arrowmap/tags: invalid arrow-meta tag option "c=d": want a comma between pairs`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tags.ParseMetadata(tt.s)
			require.ErrorIs(t, err, tags.ErrTag)
			assert.EqualError(t, err, tt.want)
		})
	}
}
