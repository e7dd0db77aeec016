package parquet

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/mapper"
)

// julianUnixEpoch is the Julian day of 1970-01-01, day 0 of Unix time.
const julianUnixEpoch = 2_440_588

// int96Timestamps is a, INT96 timestamps read as 12 bytes each (the
// nanoseconds of the day, a little-endian int64, then the Julian day, an
// int32; see read_repair.go), as the timestamps to (see int96Value).
func int96Timestamps(a arrow.Array, to arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	fixed := a.(arrowtype.FixedBinaryArray)
	tick, _ := arrowtype.TickOf(to)
	per := tick.Nanoseconds()
	n := a.Len()
	out := memory.NewResizableBuffer(mem)
	defer out.Release()
	out.Resize(n * 8)
	vals := arrow.GetData[int64](out.Bytes())
	for i := range n {
		vals[i] = 0
		if a.IsNull(i) {
			continue
		}
		b := fixed.Value(i)
		day, nanos := int32(binary.LittleEndian.Uint32(b[8:12])), int64(binary.LittleEndian.Uint64(b[:8]))
		v, err := int96Value(day, nanos, per)
		if err != nil {
			return nil, &rowError{i, fmt.Errorf("%w: %w (Julian day %d, %d ns) %w %s (ReadConfig.Int96Unit sets the unit)", mapper.ErrOverflow, ErrInt96, day, nanos, err, to)}
		}
		vals[i] = v
	}
	valid := copyValidity(a, mem)
	if valid != nil {
		defer valid.Release()
	}
	d := array.NewData(to, n, []*memory.Buffer{valid, out}, nil, a.NullN(), 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// ErrInt96 is wrapped by the error of an INT96 timestamp that the unit
// it is read in (ReadConfig.Int96Unit) cannot hold exactly: a date past
// the unit's range, or digits below it. It comes with mapper.ErrOverflow.
var ErrInt96 = errors.New("an INT96 timestamp")

var (
	errInt96Digits = errors.New("has digits below the unit of")
	errInt96Range  = errors.New("is past the range of")
)

// int96Value is the INT96 timestamp of the Julian day day and nanos
// nanoseconds into it, in units of per nanoseconds (1e3: microseconds):
// exactly, or not at all, but for what Spark writes of a timestamp whose
// Julian microseconds pass 2^63 (from 2^63 µs - 2,440,588 days, year
// 287,564, on): Spark adds the Julian epoch to the microseconds wrapping
// around, and reads them back the same way (DateTimeUtils.toJulianDay and
// fromJulianDay), which this does too. (DuckDB reads that day unsigned
// and wraps around again: a date 226,414 BC for a Spark year 290,000.)
func int96Value(day int32, nanos, per int64) (int64, error) {
	if nanos%per != 0 {
		return 0, errInt96Digits
	}
	days, units, perDay := int64(day)-julianUnixEpoch, nanos/per, 86_400e9/per
	if days <= math.MaxInt64/perDay && days >= math.MinInt64/perDay {
		v := days * perDay
		if !(units > 0 && v > math.MaxInt64-units || units < 0 && v < math.MinInt64-units) {
			return v + units, nil
		}
	}
	const usPerDay = 86_400e6
	if nanos%1000 != 0 {
		return 0, errInt96Range
	}
	us := int64(uint64(days)*usPerDay + uint64(nanos/1000)) // wraps around, as Spark's
	if us < math.MaxInt64-julianUnixEpoch*usPerDay {
		return 0, errInt96Range // not what Spark's overflow makes
	}
	switch {
	case per == 1e3:
		return us, nil
	case per < 1e3:
		return 0, errInt96Range
	case us%(per/1e3) != 0:
		return 0, errInt96Digits
	}
	return us / (per / 1e3), nil
}

// unwrapStruct is a, structs of one field, as that field, of type to: a
// list of lists of the old structure, which pqarrow reads as a list of
// structs of one list (see read_repair.go), made a list of lists. Its structs
// are its list's repeated level, never null.
func unwrapStruct(a arrowtype.StructArray, to arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	if a.NullN() > 0 {
		return nil, fmt.Errorf("%w: a null struct of a list of the old structure", mapper.ErrInvalidData)
	}
	return convertArray(a.Field(0), to, mem) // sliced to a's rows already
}

// nullKey is the error of the first null key of entries, a map's
// key-value structs, a *rowError of its entry; nil when it has none. A
// Parquet MAP whose key is optional may hold one (see read_repair.go), which
// an Arrow map cannot.
func nullKey(entries arrow.Array) error {
	keys := entries.(arrowtype.StructArray).Field(0)
	if keys.NullN() == 0 {
		return nil
	}
	for i := range keys.Len() {
		if keys.IsNull(i) {
			return &rowError{i, fmt.Errorf("%w: a null map key", mapper.ErrNull)}
		}
	}
	return nil
}
