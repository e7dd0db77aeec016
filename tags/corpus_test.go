package tags_test

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/tags"
)

var update = flag.Bool("update", false, "rewrite testdata/parse.golden from what Parse gives now")

// corpusOptions is every option as a user writes it, with sample values,
// spelled here apart from the grammar table so that the corpus does not
// follow the table when the table changes.
var corpusOptions = []string{
	"nullable", "inline", "view", "large", "dict", "ree",
	"naive", "notnull", "ordered", "keys_sorted",
	"union", "sparse_union", "dense_union", "type_code", "code=3",
	"list", "large_list", "list_view", "listview", "large_list_view", "fixed_size_list",
	"utf8", "large_utf8", "utf8_view", "binary", "large_binary", "binary_view", "fixed_size_binary", "map",
	"timestamp", "date32", "date64", "time32", "time64", "duration",
	"unit=s", "unit=ms", "unit=us", "unit=ns", "tz=UTC", "tz=+05:30",
	"decimal(10,2)", "precision=10", "scale=2",
	"pos=1", "index=int8", "index=uint64", "run_ends=int16", "run_ends=int64",
	"name=x", "ext=arrow.uuid", `ext_metadata="{}"`, "elem(nullable)",
	"nullable=false", "dict=true", "large=1",
}

// corpusBad is tags refused today, beyond what pairs of corpusOptions
// make: syntax, values, and the rules between options.
var corpusBad = []string{
	"col,frobnicate", "col,Nullable", "col,nullable,zzz,aaa", "col,color=red", "col,decimal", "col,=ms",
	"col,timestamp,unit=", "col,nullable=", "col,timestamp,unit", "col,timestamp,tz", "col,precision",
	"col,nullable=maybe", "col,nullable,dict,nullable", "col,nullable,nullable=false", "col,timestamp,unit=ms,unit=ms",
	"col,decimal(5,2),decimal(6,2)", "col,timestamp,unit=weeks", "col,timestamp,unit=MS", "col,timestamp,tz=Mars/Olympus",
	"col,timestamp,tz=+5:30", "col,timestamp,tz=+24:00", "col,timestamp,tz=-01:60", "col,timestamp,tz=Local",
	"col,unit=ms", "col,date32,unit=s", "col,unit=ms,date64", "col,time32,unit=us", "col,time32,unit=ns",
	"col,time64,unit=s", "col,time64,unit=ms", "col,tz=UTC", "col,duration,tz=UTC", "col,time32,tz=UTC",
	"col,decimal(5,10)", "col,decimal(0,0)", "col,decimal(77,2)", "col,precision=-3", "col,decimal(10,-1)",
	"col,precision=10,scale=-2", "col,precision=3,scale=4", "col,decimal(10)", "col,decimal()", "col,decimal(10,)",
	"col,decimal(10,2,1)", "col,decimal(10,2", "col,decimal(10,2)x", "col,decimal(ten,2)", "col,decimal(10,2.5)",
	"col,precision=99999999999", "col,scale=2", "col,keys_sorted", "col,list,keys_sorted",
	"col,decimal(10,2),precision=12", "col,scale=2,decimal(10,2)", "col,decimal(10,2),timestamp", "col,date32,precision=5",
	"t,timestamp,naive,tz=UTC", "t,naive", "t,date32,naive", "b,nullable,notnull", "d,index=int8",
	"d,dict,index=float32", "d,dict,index=int", "d,ordered", "r,run_ends=int16", "r,ree,run_ends=int8", "r,ree,run_ends=uint16",
	`o,ext_metadata="{}"`, `o,ext="a`, "c,name=x", `c,name="x"`,
	"v,union,dense_union", "v,dense_union,sparse_union", "f,code=-1", "f,code=128", "f,code=five", "f,code",
	"f,code=1,code=2", "f,type_code=maybe",
	"a,pos=-1", "a,pos=two", "a,pos", "a,pos=1,pos=2", ",inline,pos=1", `"a,pos=1`, `"a"b,pos=1`,
	"l,elem(nope)", "l,elem(pos=1)", "l,elem(large_utf8),elem(utf8)", "l,elem(large_utf8", "l,elem(elem(frob))",
	`l,name=a"b,nullable`, `l,ext=x"y,dict`, "x,decimal(10,2,frobnicate", " a , = , b= ,(,),unit",
	"l,list_view,listview", "t,time32,unit=ns", "p,precision=10,scale=12", "s,view,large,dict",
	"s,utf8,view", "s,view,list", "s,large,binary_view", "s,dict,ree", "s,view,dict", "s,ree,view",
	"e,index", "e,run_ends", "e,name", "e,ext", "e,ext_metadata", "e,tz=", "e,dict,index=", "e,index=int8=int8",
	"e,unit=ms,unit=us,timestamp", "e,timestamp=maybe", "e,list=2", "e,inline=yes",
}

// corpusQuoted is tags with quoted names and values, which parse.
var corpusQuoted = []string{
	`"a,b",pos=1`, `"",pos=0`, `" a ",nullable`, `"-"`, `-`, `-,`, ` - `, ``, `,`, `name,`, `name,,nullable,,`,
	`l,elem(large_list,elem(large_utf8))`, `l,name="a,\"b",nullable`, `d,large_utf8,ext=arrow.json`,
	`t,timestamp,unit=us,tz=Asia/Tokyo`, `x,ext=arrow.opaque,ext_metadata="{\"type_name\":\"t\",\"vendor_name\":\"v\"}"`,
	`x , decimal( 10 , 2 ) , nullable `, `t,timestamp, unit = ms ,tz = UTC`,
	`"a",name=x`, // refused since the grammar table; before, name= was dropped
}

// corpusContexts are the options another one needs, to try each option
// where its rule is met as well as where it is not.
var corpusContexts = []string{"timestamp", "time32", "time64", "dict", "ree", "map", "ext=arrow.uuid", "precision=10", "union"}

// corpus is every tag the golden file records: each option alone, each
// ordered pair of options and each option before and after a context, as
// the arrow tag and as an option list (the arrow-elem level), and the bad
// and quoted tags above.
func corpus() (arrowTags, optionLists []string) {
	for _, a := range corpusOptions {
		arrowTags = append(arrowTags, "col,"+a)
		optionLists = append(optionLists, a)
		for _, b := range corpusOptions {
			arrowTags = append(arrowTags, "col,"+a+","+b)
		}
		for _, c := range corpusContexts {
			arrowTags = append(arrowTags, "col,"+c+","+a, "col,"+a+","+c)
		}
	}
	arrowTags = append(arrowTags, corpusBad...)
	arrowTags = append(arrowTags, corpusQuoted...)
	for _, bad := range corpusBad {
		if _, opts, ok := strings.Cut(bad, ","); ok {
			optionLists = append(optionLists, opts)
		}
	}
	return arrowTags, optionLists
}

// describe prints a parse result in one stable line: the Tag's non-zero
// fields (pointers followed, Arrow types by name), or the error.
func describe(t tags.Tag, err error) string {
	if err != nil {
		return "error " + err.Error()
	}
	return describeTag(t)
}

func describeTag(t tags.Tag) string {
	v := reflect.ValueOf(t)
	var parts []string
	for i := range v.NumField() {
		f := v.Field(i)
		if f.IsZero() {
			continue
		}
		name := v.Type().Field(i).Name
		switch x := f.Interface().(type) {
		case arrow.DataType:
			parts = append(parts, name+":"+x.String())
		case *tags.Tag:
			parts = append(parts, name+":"+describeTag(*x))
		case *arrow.Metadata:
			parts = append(parts, name+":"+x.String())
		case fmt.Stringer:
			parts = append(parts, name+":"+x.String())
		default:
			if f.Kind() == reflect.Pointer {
				f = f.Elem()
			}
			parts = append(parts, fmt.Sprintf("%s:%+v", name, f.Interface()))
		}
	}
	return "{" + strings.Join(parts, " ") + "}"
}

func goldenLines() []string {
	arrowTags, optionLists := corpus()
	var lines []string
	for _, tag := range arrowTags {
		lines = append(lines, fmt.Sprintf("Parse(%q) = %s", tag, describe(tags.Parse(tag))))
	}
	for _, opts := range optionLists {
		lines = append(lines, fmt.Sprintf("ParseOptions(%q) = %s", opts, describe(tags.ParseOptions(opts))))
	}
	for _, st := range structTags() {
		f := reflect.StructOf([]reflect.StructField{{Name: "F", Type: reflect.TypeFor[[]int](), Tag: st}}).Field(0)
		lines = append(lines, fmt.Sprintf("Of(`%s`) = %s", st, describe(tags.Of(f))))
	}
	return lines
}

// structTags are whole struct tags for Of: each option in arrow-elem,
// arrow-key and arrow-value, and the tags that conflict across keys.
func structTags() []reflect.StructTag {
	var out []reflect.StructTag
	for _, a := range corpusOptions {
		for _, key := range []string{"arrow-elem", "arrow-key", "arrow-value"} {
			out = append(out, reflect.StructTag(fmt.Sprintf(`arrow:"c" %s:%q`, key, a)))
		}
	}
	return append(out,
		`arrow:"l,elem(list)" arrow-elem:"list"`, `arrow:"l,elem(list)" arrow-key:"list"`,
		`arrow:"a" arrow-meta:"k=v,\"a,b\"=\"=\"" arrow-elem:"name=element" arrow-elem-meta:"e=1"`,
		`arrow-key-meta:"kk=1" arrow-value-meta:"vv=\"\""`, `arrow-meta:"k=v,k=w"`, `arrow-meta:"k"`,
		`arrow-elem:"pos=1"`, `arrow-value:"decimal(5,10)"`, `arrow-key:"dict,ree"`, `arrow:"a,frobnicate"`,
		`arrow:"-" arrow-elem:"nullable"`, `arrow-elem:""`, `json:"j" arrow:"a"`,
	)
}

// TestParseGivesWhatTheGoldenFileRecords parses a corpus of every option
// alone, every ordered pair of options and a list of bad tags, and
// compares each result, Tag or error message, with the golden file written
// by the parser before the grammar table.
func TestParseGivesWhatTheGoldenFileRecords(t *testing.T) {
	const path = "testdata/parse.golden"
	got := goldenLines()
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(strings.Join(got, "\n")+"\n"), 0o644))
	}
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	want := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	require.Len(t, got, len(want), "the corpus changed: rerun with -update and read the diff")
	for i := range want {
		assert.Equal(t, want[i], got[i])
	}
}
