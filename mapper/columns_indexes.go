package mapper

import (
	"reflect"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
)

// ColumnsIndexes is the indexes in schema of the columns that Columns[C]
// binds, in increasing order: what a source that can project columns
// (Parquet) needs to read for C, as Mapper.ColumnIndexes is for rows. It
// takes the options Columns takes and fails as Columns does when C does not
// fit schema, before any data is read.
func ColumnsIndexes[C any](schema *arrow.Schema, opts ...ReadOption) ([]int, error) {
	o, err := optionsFor("ColumnsIndexes", columnsOptions, opts)
	if err != nil {
		return nil, err
	}
	p, err := cachedColumnsPlan(reflect.TypeFor[C](), schema, o)
	if err != nil {
		return nil, err
	}
	idx := make([]int, len(p.fields))
	for k := range p.fields {
		idx[k] = p.fields[k].col.index
	}
	slices.Sort(idx)
	return slices.Compact(idx), nil
}
