package parquet

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"time"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// MayContain reports whether the row group may hold a row whose leaf
// column name (as Column names it) equals value. It reports false only
// when the footer proves that no row does: value lies below the column's
// min or above its max, or the column's bloom filter (when the writer
// wrote one) does not hold it, or the column's type cannot hold value at
// all (1<<40 for an INT32 column). A bloom filter is read from the file
// at the call, a few KiB to a few MiB, and let go after.
//
// value is a Go value of the column's storage, as ColumnStats names it,
// or one that converts to it exactly: any Go integer for an integer
// column (an unsigned one takes values from 0 to its unsigned maximum),
// float32 or float64 for a floating-point one, string or []byte for
// a byte array or fixed-size binary, bool, parquet.Int96; a time.Time
// for a DATE column (its UTC date) or a TIMESTAMP column (its count of
// the column's units). A value of another Go type, nil, a NaN, a column
// the file does not have, or a bloom filter that cannot be read proves
// nothing: MayContain reports true, and the row group is read.
func (g RowGroup) MayContain(name string, value any) bool {
	if g.md == nil {
		return true
	}
	leaf := g.leaf(name)
	if leaf < 0 {
		return true
	}
	col := g.schema.Column(leaf)
	v, known, fits := physical(col, value)
	if !known {
		return true
	}
	if !fits {
		return false
	}
	if st, ok := g.Column(name); ok && st.HasMinMax && col.SortOrder() != schema.SortUNKNOWN && outside(v, st.Min, st.Max, col) {
		return false
	}
	return g.bloomMayContain(leaf, v)
}

// outside reports whether v, of the column's physical type, is below lo or
// above hi, the column's statistics in the Go types ColumnStats names; false
// when they cannot be compared (a decimal's bytes, which sort signed).
func outside(v, lo, hi any, col *schema.Column) bool {
	switch v := v.(type) {
	case bool:
		l, okL := lo.(bool)
		h, okH := hi.(bool)
		return okL && okH && l == h && v != l
	case int32:
		if l, ok := lo.(uint32); ok { // an unsigned column: its storage as unsigned
			return uint32(v) < l || uint32(v) > hi.(uint32)
		}
		return ordered(v, lo, hi)
	case int64:
		if l, ok := lo.(uint64); ok {
			return uint64(v) < l || uint64(v) > hi.(uint64)
		}
		return ordered(v, lo, hi)
	case float32:
		return ordered(v, lo, hi)
	case float64:
		return ordered(v, lo, hi)
	case parquet.ByteArray, parquet.FixedLenByteArray:
		if col.SortOrder() != schema.SortUNSIGNED {
			return false
		}
		b := asBytes(v)
		l, h := asBytes(lo), asBytes(hi)
		if l == nil || h == nil {
			return false
		}
		return bytes.Compare(b, l) < 0 || bytes.Compare(b, h) > 0
	}
	return false
}

// ordered reports whether v is outside [lo, hi], of v's type.
func ordered[T cmp.Ordered](v T, lo, hi any) bool {
	l, okL := lo.(T)
	h, okH := hi.(T)
	if !okL || !okH || l != l || h != h { // a NaN bound bounds nothing
		return false
	}
	return v < l || v > h
}

// asBytes is the bytes of a ColumnStats bound or a byte-array value, nil
// for anything else.
func asBytes(v any) []byte {
	switch v := v.(type) {
	case string:
		return []byte(v)
	case []byte:
		return v
	case parquet.ByteArray:
		return v
	case parquet.FixedLenByteArray:
		return v
	}
	return nil
}

// bloomMayContain probes the bloom filter of leaf, when the writer wrote
// one, for v of the column's physical type. A filter that cannot be read
// proves nothing.
func (g RowGroup) bloomMayContain(leaf int, v any) (may bool) {
	if g.pf == nil {
		return true
	}
	cc, err := g.md.ColumnChunk(leaf)
	if err != nil {
		return true
	}
	size := g.pf.MetaData().GetSourceFileSize()
	off, length := cc.BloomFilterOffset(), int64(cc.BloomFilterLength())
	if off <= 0 || (size > 0 && (off >= size || off+max(length, 0) > size)) {
		return true
	}
	// arrow-go decodes the filter's header as it finds it: garbage must
	// read as no filter, not a panic.
	defer func() {
		if recover() != nil {
			may = true
		}
	}()
	rg, err := g.pf.GetBloomFilterReader().RowGroup(g.Index)
	if err != nil {
		return true
	}
	may = true
	err = rg.VisitColumnBloomFilter(leaf, func(bf metadata.BloomFilter) error {
		may = bf.CheckHash(hashOf(bf.Hasher(), v))
		return nil
	})
	return may || err != nil
}

// hashOf is the bloom filter hash of v, of a column's physical type.
func hashOf(h metadata.Hasher, v any) uint64 {
	switch v := v.(type) {
	case bool:
		return metadata.GetHash(h, v)
	case int32:
		return metadata.GetHash(h, v)
	case int64:
		return metadata.GetHash(h, v)
	case float32:
		return metadata.GetHash(h, v)
	case float64:
		return metadata.GetHash(h, v)
	case parquet.ByteArray:
		return metadata.GetHash(h, v)
	case parquet.FixedLenByteArray:
		return metadata.GetHash(h, v)
	case parquet.Int96:
		return metadata.GetHash(h, v)
	}
	panic(fmt.Sprintf("arrowmap/parquet: hashOf: %T is no physical type", v)) // physical makes no other
}

// physical is value as a value of col's physical type (bool, int32,
// int64, float32, float64, parquet.ByteArray, parquet.FixedLenByteArray,
// parquet.Int96). known is false for a Go value that says nothing of the
// column (another type, nil, a NaN); fits is false for a value of a known
// type that the column cannot hold (out of its range, a fixed-size binary
// of another length, a float64 that no float32 equals).
func physical(col *schema.Column, value any) (v any, known, fits bool) {
	if t, ok := value.(time.Time); ok {
		return temporal(col, t)
	}
	switch col.PhysicalType() {
	case parquet.Types.Boolean:
		b, ok := value.(bool)
		return b, ok, true
	case parquet.Types.Int32:
		n, ok := integer(value)
		if !ok {
			return nil, false, false
		}
		if unsignedInt(col) {
			return int32(uint32(n.lo)), true, n.nonNegative() && n.lo <= math.MaxUint32
		}
		return int32(n.lo), true, n.fitsSigned(math.MinInt32, math.MaxInt32)
	case parquet.Types.Int64:
		n, ok := integer(value)
		if !ok {
			return nil, false, false
		}
		if unsignedInt(col) {
			return int64(n.lo), true, n.nonNegative()
		}
		return int64(n.lo), true, n.fitsSigned(math.MinInt64, math.MaxInt64)
	case parquet.Types.Float:
		switch f := value.(type) {
		case float32:
			return f, f == f, true
		case float64:
			return float32(f), f == f, float64(float32(f)) == f
		}
	case parquet.Types.Double:
		switch f := value.(type) {
		case float32:
			return float64(f), f == f, true
		case float64:
			return f, f == f, true
		}
	case parquet.Types.ByteArray:
		if b := textOrBytes(value); b != nil {
			return parquet.ByteArray(b), true, true
		}
	case parquet.Types.FixedLenByteArray:
		if b := textOrBytes(value); b != nil {
			return parquet.FixedLenByteArray(b), true, len(b) == col.TypeLength()
		}
	case parquet.Types.Int96:
		i, ok := value.(parquet.Int96)
		return i, ok, true
	}
	return nil, false, false
}

// temporal is t as a value of a DATE (its UTC date, in days since the
// epoch) or TIMESTAMP column (its count of the column's units).
func temporal(col *schema.Column, t time.Time) (v any, known, fits bool) {
	switch lt := col.LogicalType().(type) {
	case schema.DateLogicalType:
		if col.PhysicalType() != parquet.Types.Int32 {
			return nil, false, false
		}
		secs := t.Unix()
		days := secs / 86400
		if secs%86400 < 0 {
			days--
		}
		return int32(days), true, days >= math.MinInt32 && days <= math.MaxInt32 && secs%86400 == 0 && t.Nanosecond() == 0
	case schema.TimestampLogicalType:
		if col.PhysicalType() != parquet.Types.Int64 {
			return nil, false, false
		}
		switch lt.TimeUnit() {
		case schema.TimeUnitMillis:
			return t.UnixMilli(), true, t.Nanosecond()%1e6 == 0
		case schema.TimeUnitMicros:
			return t.UnixMicro(), true, t.Nanosecond()%1e3 == 0
		case schema.TimeUnitNanos:
			// UnixNano holds years 1678 to 2262 only.
			ns := t.UnixNano()
			return ns, true, time.Unix(0, ns).Equal(t)
		}
	}
	return nil, false, false
}

// unsignedInt reports whether col is an unsigned integer column.
func unsignedInt(col *schema.Column) bool {
	it, ok := col.LogicalType().(schema.IntLogicalType)
	return ok && !it.IsSigned()
}

// goInteger is a Go integer of any kind: its low 64 bits, and whether it
// is a negative signed value.
type goInteger struct {
	lo  uint64
	neg bool
}

func (n goInteger) nonNegative() bool { return !n.neg }

// fitsSigned reports whether n is in [lo, hi].
func (n goInteger) fitsSigned(lo, hi int64) bool {
	if n.neg {
		return int64(n.lo) >= lo
	}
	return n.lo <= uint64(hi)
}

// integer is value as a goInteger, when it is a Go integer.
func integer(value any) (goInteger, bool) {
	signed := func(v int64) (goInteger, bool) { return goInteger{lo: uint64(v), neg: v < 0}, true }
	switch v := value.(type) {
	case int:
		return signed(int64(v))
	case int8:
		return signed(int64(v))
	case int16:
		return signed(int64(v))
	case int32:
		return signed(int64(v))
	case int64:
		return signed(v)
	case uint:
		return goInteger{lo: uint64(v)}, true
	case uint8:
		return goInteger{lo: uint64(v)}, true
	case uint16:
		return goInteger{lo: uint64(v)}, true
	case uint32:
		return goInteger{lo: uint64(v)}, true
	case uint64:
		return goInteger{lo: v}, true
	}
	return goInteger{}, false
}

// textOrBytes is the bytes of a string or []byte value, nil for another
// type (an empty value is a non-nil empty slice).
func textOrBytes(value any) []byte {
	switch v := value.(type) {
	case string:
		return append([]byte{}, v...)
	case []byte:
		if v == nil {
			return []byte{}
		}
		return v
	}
	return nil
}
