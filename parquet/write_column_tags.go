package parquet

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/mapper"
)

// columnTagKey is the struct tag key a Writer[T] reads ColumnConfigs from.
const columnTagKey = "arrow-parquet"

// taggedField is the ColumnConfig of a field's arrow-parquet tag, with the Arrow
// names of its column (mapper.FieldTag.Columns) and its Go path.
type taggedField struct {
	columns []string
	goPath  string
	cfg     ColumnConfig
}

// taggedColumn is a taggedField bound to its leaf.
type taggedColumn struct {
	goPath string
	cfg    ColumnConfig
}

// ParseColumnTag is the ColumnConfig of the value of an `arrow-parquet:"…"`
// struct tag, which a Writer[T] reads on T's fields: options separated by
// commas, whitespace around them ignored, as the arrow tag's options are.
//
//	bloom                 a bloom filter (ColumnConfig.BloomFilter)
//	fpp=0.05              its false-positive rate (BloomFilterFPP)
//	ndv=100000            its distinct values per row group (BloomFilterNDV)
//	stats, stats=false    statistics on or off (Statistics)
//	pageindex=false       the page index on or off (PageIndex)
//	encoding=delta        plain, dictionary, delta, delta_length or
//	                      byte_stream_split (Encoding)
//
// The key is arrow-parquet, not parquet: parquet-go reads `parquet:"…"`
// tags (a column's name and its options), and a type may be tagged for
// both. A flag may be written with a value, bloom=true or bloom=false. An
// unknown option, a value that does not parse, or an option twice is an
// error naming it.
func ParseColumnTag(tag string) (ColumnConfig, error) {
	var c ColumnConfig
	seen := map[string]bool{}
	for _, opt := range strings.Split(tag, ",") {
		opt = strings.TrimSpace(opt)
		if opt == "" {
			continue
		}
		key, value, hasValue := strings.Cut(opt, "=")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if seen[key] {
			return ColumnConfig{}, fmt.Errorf("arrow-parquet tag %q: option %s twice", tag, key)
		}
		seen[key] = true
		flag := func() (bool, error) {
			if !hasValue {
				return true, nil
			}
			b, err := strconv.ParseBool(value)
			if err != nil {
				return false, fmt.Errorf("arrow-parquet tag %q: %s=%s is not true or false", tag, key, value)
			}
			return b, nil
		}
		var err error
		switch key {
		case "bloom":
			c.BloomFilter, err = flag()
		case "stats":
			var b bool
			b, err = flag()
			c.Statistics = &b
		case "pageindex":
			var b bool
			b, err = flag()
			c.PageIndex = &b
		case "fpp":
			if c.BloomFilterFPP, err = strconv.ParseFloat(value, 64); err != nil || !hasValue {
				err = fmt.Errorf("arrow-parquet tag %q: fpp=%s is not a number", tag, value)
			}
		case "ndv":
			if c.BloomFilterNDV, err = strconv.ParseInt(value, 10, 64); err != nil || !hasValue {
				err = fmt.Errorf("arrow-parquet tag %q: ndv=%s is not an integer", tag, value)
			}
		case "encoding":
			i := slices.Index(encodingNames[:], value)
			if i <= int(EncodingDefault) {
				err = fmt.Errorf("arrow-parquet tag %q: encoding=%s is not one of %s", tag, value, strings.Join(encodingNames[1:], ", "))
			}
			c.Encoding = Encoding(max(i, 0))
		default:
			err = fmt.Errorf("arrow-parquet tag %q: unknown option %s (bloom, fpp, ndv, stats, pageindex, encoding)", tag, key)
		}
		if err != nil {
			return ColumnConfig{}, err
		}
	}
	return c, nil
}

// fieldColumnConfigs is the arrow-parquet tags of T's fields under the mapper
// options opts, parsed: an error names the field.
func fieldColumnConfigs[T any](opts []mapper.WriteOption) ([]taggedField, error) {
	tags, err := mapper.FieldTags[T](columnTagKey, opts...)
	if err != nil {
		return nil, err
	}
	out := make([]taggedField, 0, len(tags))
	for _, ft := range tags {
		c, err := ParseColumnTag(ft.Tag)
		if err != nil {
			return nil, &mapper.Error{Path: ft.Path, Column: strings.Join(ft.Columns, "."), Row: -1, Err: fmt.Errorf("%w: %w", mapper.ErrTag, err)}
		}
		out = append(out, taggedField{columns: ft.Columns, goPath: ft.Path, cfg: c})
	}
	return out, nil
}

// taggedLeaves binds each tagged field to the one leaf of pq (the Parquet
// schema of arrowSchema) under its column; a field with no leaf or more
// than one under it (a struct of two fields) is an error naming it.
func taggedLeaves(arrowSchema *arrow.Schema, pq *schema.Schema, tagged []taggedField) (map[int]taggedColumn, error) {
	if len(tagged) == 0 {
		return nil, nil
	}
	leaves := arrowLeaves(arrowSchema)
	if len(leaves) != pq.NumColumns() {
		return nil, fmt.Errorf("arrowmap/parquet: the arrow-parquet tags: %d Arrow leaves for %d Parquet columns", len(leaves), pq.NumColumns())
	}
	out := map[int]taggedColumn{}
	for _, tf := range tagged {
		leaf := -1
		for i, l := range leaves {
			n := l.names
			if len(n) >= len(tf.columns) && slices.Equal(n[:len(tf.columns)], tf.columns) {
				if leaf >= 0 {
					return nil, &mapper.Error{Path: tf.goPath, Column: strings.Join(tf.columns, "."), Row: -1,
						Err: fmt.Errorf("%w: an arrow-parquet tag on a field of more than one leaf column (%s, %s): tag the leaves", mapper.ErrTag, pq.Column(leaf).Path(), pq.Column(i).Path())}
				}
				leaf = i
			}
		}
		if leaf < 0 {
			return nil, &mapper.Error{Path: tf.goPath, Column: strings.Join(tf.columns, "."), Row: -1, Err: fmt.Errorf("%w: an arrow-parquet tag on a field of no leaf column", mapper.ErrTag)}
		}
		out[leaf] = taggedColumn{goPath: tf.goPath, cfg: tf.cfg}
	}
	return out, nil
}

// arrowLeaf is a leaf of an Arrow schema as pqarrow makes a Parquet
// column of it: the names of the Arrow fields from its top-level column
// down (as mapper.FieldTag.Columns names them: a struct's fields by name,
// a list's elements adding none, a map's keys and values "key" and
// "value"), the indexes of the columns and struct fields on the way, and
// whether a list or map is on the way (path then stops at it), and
// whether the leaf is the values of an Arrow dictionary.
type arrowLeaf struct {
	names []string
	path  []int
	list  bool
	dict  bool
}

// arrowLeaves is the leaves of schema in pqarrow's order (depth first).
func arrowLeaves(schema *arrow.Schema) []arrowLeaf {
	var leaves []arrowLeaf
	var walk func(dt arrow.DataType, at arrowLeaf)
	child := func(at arrowLeaf, name string, i int) arrowLeaf {
		at.names = append(at.names[:len(at.names):len(at.names)], name)
		if !at.list {
			at.path = append(at.path[:len(at.path):len(at.path)], i)
		}
		at.dict = false
		return at
	}
	walk = func(dt arrow.DataType, at arrowLeaf) {
		dt = arrowtype.Storage(dt)
		if _, values, _, ok := arrowtype.DictionaryParts(dt); ok {
			at.dict = true
			walk(values, at)
			return
		}
		switch r := arrowtype.OfType(dt); {
		case r.Map:
			mp, _ := arrowtype.MapParts(dt)
			at.list = true
			walk(mp.Key.Type, child(at, "key", 0))
			walk(mp.Item.Type, child(at, "value", 1))
		case r.Layout == arrowtype.Struct:
			for i, f := range dt.(arrow.NestedType).Fields() {
				walk(f.Type, child(at, f.Name, i))
			}
		default:
			if l, ok := dt.(arrow.ListLikeType); ok {
				at.list, at.dict = true, false
				walk(l.Elem(), at)
				return
			}
			leaves = append(leaves, at)
		}
	}
	for i, f := range schema.Fields() {
		walk(f.Type, arrowLeaf{names: []string{f.Name}, path: []int{i}})
	}
	return leaves
}
