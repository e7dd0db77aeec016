package parquet

import (
	"bytes"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// RowGroup is one row group of a Parquet file as its footer describes it:
// what ReadConfig.KeepRowGroup decides on before any of its data is read.
// Its column statistics (Column, MinMax) and bloom filters (MayContain)
// let a predicate on a column skip the row groups that cannot match:
//
//	KeepRowGroup: func(g parquet.RowGroup) bool {
//		_, hi, ok := parquet.MinMax[int64](g, "placed_ms")
//		return g.MayContain("status", "shipped") && (!ok || hi >= cutoff)
//	}
type RowGroup struct {
	// Index is the row group's index in the file.
	Index int
	// NumRows is its number of rows.
	NumRows int64
	md      *metadata.RowGroupMetaData
	schema  *schema.Schema
	pf      *file.Reader // for the bloom filters
}

// ColumnStats is what a row group's footer says of the values of one leaf
// column. Min and Max are in the Go type of the column's storage: bool,
// int32, int64, float32, float64 (uint32 and uint64 for unsigned integer
// columns), string for text, []byte for other byte arrays and fixed-size
// binaries, parquet.Int96. Logical types keep their storage: a timestamp is
// its int64 count of units, a date its int32 days since the epoch, a
// decimal its unscaled integer or bytes.
type ColumnStats struct {
	Min, Max     any
	HasMinMax    bool // the writer stored a min and max (not when every value is null)
	NullCount    int64
	HasNullCount bool
}

func newRowGroup(pf *file.Reader, i int) RowGroup {
	md := pf.MetaData().RowGroup(i)
	return RowGroup{Index: i, NumRows: md.NumRows(), md: md, schema: pf.MetaData().Schema, pf: pf}
}

// Column is the statistics of the leaf column named name: its dotted
// Parquet path ("id", "customer.name", "items.list.element.sku"), or a
// top-level or struct field with exactly one leaf under it ("tags" for
// "tags.list.element"). It reports false when there is no such column or
// the writer stored no statistics for it.
func (g RowGroup) Column(name string) (ColumnStats, bool) {
	if g.md == nil {
		return ColumnStats{}, false
	}
	leaf := g.leaf(name)
	if leaf < 0 {
		return ColumnStats{}, false
	}
	cc, err := g.md.ColumnChunk(leaf)
	if err != nil {
		return ColumnStats{}, false
	}
	if set, err := cc.StatsSet(); err != nil || !set {
		return ColumnStats{}, false
	}
	st, err := cc.Statistics()
	if err != nil || st == nil {
		return ColumnStats{}, false
	}
	out := ColumnStats{NullCount: st.NullCount(), HasNullCount: st.HasNullCount(), HasMinMax: st.HasMinMax()}
	if out.HasMinMax {
		out.Min, out.Max = minMax(st, g.schema.Column(leaf))
	}
	return out, true
}

// MinMax is the min and max of the leaf column named name (as Column names
// it) in the row group, as values of T: the Go type ColumnStats names for
// the column's storage (int64 for an INT64 column, a timestamp's count of
// units included; int32 for a date's days; string for text). ok is false
// when the writer stored no min and max, when there is no such column, and
// when T is not that type.
func MinMax[T any](g RowGroup, name string) (lo, hi T, ok bool) {
	st, found := g.Column(name)
	if !found || !st.HasMinMax {
		return lo, hi, false
	}
	lo, okLo := st.Min.(T)
	hi, okHi := st.Max.(T)
	if !okLo || !okHi {
		var zero T
		return zero, zero, false
	}
	return lo, hi, true
}

// leaf is the index of the leaf column name, or -1: leafIndex's rule,
// which WriteConfig.Columns names columns by too.
func (g RowGroup) leaf(name string) int { return leafIndex(g.schema, name) }

// minMax is the min and max of st in the Go types ColumnStats names.
func minMax(st metadata.TypedStatistics, col *schema.Column) (lo, hi any) {
	unsigned := false
	if it, ok := col.LogicalType().(schema.IntLogicalType); ok {
		unsigned = !it.IsSigned()
	}
	switch s := st.(type) {
	case *metadata.BooleanStatistics:
		return s.Min(), s.Max()
	case *metadata.Int32Statistics:
		if unsigned {
			return uint32(s.Min()), uint32(s.Max())
		}
		return s.Min(), s.Max()
	case *metadata.Int64Statistics:
		if unsigned {
			return uint64(s.Min()), uint64(s.Max())
		}
		return s.Min(), s.Max()
	case *metadata.Int96Statistics:
		return s.Min(), s.Max()
	case *metadata.Float32Statistics:
		return s.Min(), s.Max()
	case *metadata.Float64Statistics:
		return s.Min(), s.Max()
	case *metadata.ByteArrayStatistics:
		if isText(col.LogicalType()) {
			return string(s.Min()), string(s.Max())
		}
		return bytes.Clone(s.Min()), bytes.Clone(s.Max())
	case *metadata.FixedLenByteArrayStatistics:
		return bytes.Clone(s.Min()), bytes.Clone(s.Max())
	case *metadata.Float16Statistics:
		return bytes.Clone(s.Min()), bytes.Clone(s.Max())
	}
	return nil, nil
}

func isText(lt schema.LogicalType) bool {
	switch lt.(type) {
	case schema.StringLogicalType, schema.EnumLogicalType, schema.JSONLogicalType:
		return true
	}
	return false
}
