package duckdb

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/extensions"
)

// vendor is the vendor_name of DuckDB's arrow.opaque types.
const vendor = "DuckDB"

// HugeInt is DuckDB's HUGEINT, a signed 128-bit integer, as DuckDB's
// lossless export holds it: arrow.opaque (type_name hugeint) over
// fixed_size_binary(16), little-endian two's complement. It encodes as
// that extension, so a table created from a type with a HugeInt column has
// a HUGEINT column. database/sql's Rows.Scan gives a *big.Int: Big is it.
type HugeInt [16]byte

// UHugeInt is DuckDB's UHUGEINT, an unsigned 128-bit integer: arrow.opaque
// (type_name uhugeint) over fixed_size_binary(16), little-endian.
type UHugeInt [16]byte

// ArrowExtension is arrow.opaque hugeint over storage: HugeInt is a
// mapper.Extension.
func (HugeInt) ArrowExtension(storage arrow.DataType) (arrow.ExtensionType, error) {
	return extensions.NewOpaqueType(storage, "hugeint", vendor), nil
}

// ArrowExtension is arrow.opaque uhugeint over storage.
func (UHugeInt) ArrowExtension(storage arrow.DataType) (arrow.ExtensionType, error) {
	return extensions.NewOpaqueType(storage, "uhugeint", vendor), nil
}

var (
	two128   = new(big.Int).Lsh(big.NewInt(1), 128)
	minHuge  = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 127))
	maxHuge  = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 127), big.NewInt(1))
	maxUHuge = new(big.Int).Sub(two128, big.NewInt(1))
)

// Big is h as a big.Int.
func (h HugeInt) Big() *big.Int {
	x := UHugeInt(h).Big()
	if h[15]&0x80 != 0 {
		x.Sub(x, two128)
	}
	return x
}

// Big is u as a big.Int.
func (u UHugeInt) Big() *big.Int {
	var be [16]byte
	for i, b := range u {
		be[15-i] = b
	}
	return new(big.Int).SetBytes(be[:])
}

// String is h in decimal.
func (h HugeInt) String() string { return h.Big().String() }

// String is u in decimal.
func (u UHugeInt) String() string { return u.Big().String() }

// HugeIntOf is x as a HugeInt; an error when x is outside HUGEINT's range,
// -2¹²⁷ to 2¹²⁷-1.
func HugeIntOf(x *big.Int) (HugeInt, error) {
	if x.Cmp(minHuge) < 0 || x.Cmp(maxHuge) > 0 {
		return HugeInt{}, fmt.Errorf("arrowmap/duckdb: %s is outside HUGEINT's range", x)
	}
	y := x
	if x.Sign() < 0 {
		y = new(big.Int).Add(x, two128)
	}
	return HugeInt(uhugeOf(y)), nil
}

// HugeIntFromInt64 is x as a HugeInt.
func HugeIntFromInt64(x int64) HugeInt {
	var h HugeInt
	binary.LittleEndian.PutUint64(h[:8], uint64(x))
	if x < 0 {
		binary.LittleEndian.PutUint64(h[8:], ^uint64(0))
	}
	return h
}

// UHugeIntOf is x as a UHugeInt; an error when x is outside UHUGEINT's
// range, 0 to 2¹²⁸-1.
func UHugeIntOf(x *big.Int) (UHugeInt, error) {
	if x.Sign() < 0 || x.Cmp(maxUHuge) > 0 {
		return UHugeInt{}, fmt.Errorf("arrowmap/duckdb: %s is outside UHUGEINT's range", x)
	}
	return uhugeOf(x), nil
}

func uhugeOf(x *big.Int) UHugeInt {
	var be [16]byte
	x.FillBytes(be[:])
	var u UHugeInt
	for i, b := range be {
		u[15-i] = b
	}
	return u
}

// TimeTZ is DuckDB's TIMETZ, a time of day with its offset from UTC, as
// DuckDB's lossless export holds it: arrow.opaque (type_name time_tz) over
// fixed_size_binary(8), DuckDB's own bits (the microseconds of the day in
// the high 40, the offset in the low 24). DuckDB's default export keeps
// only the time, without the offset.
type TimeTZ [8]byte

// ArrowExtension is arrow.opaque time_tz over storage.
func (TimeTZ) ArrowExtension(storage arrow.DataType) (arrow.ExtensionType, error) {
	return extensions.NewOpaqueType(storage, "time_tz", vendor), nil
}

// DuckDB's encoding of TIMETZ's offset: 24 bits, MaxOffset-offset, so
// that the bits order the values by their instant.
const (
	timeTZOffsetBits = 24
	maxTimeTZOffset  = 16*60*60 - 1 // ±15:59:59
)

// TimeTZOf is the TIMETZ of the clock time and zone offset of t; its date
// is dropped. An offset past ±15:59:59, DuckDB's range, is an error.
func TimeTZOf(t time.Time) (TimeTZ, error) {
	_, offset := t.Zone()
	if offset > maxTimeTZOffset || offset < -maxTimeTZOffset {
		return TimeTZ{}, fmt.Errorf("arrowmap/duckdb: the offset %s of %s is outside TIMETZ's ±15:59:59", time.Duration(offset)*time.Second, t)
	}
	h, m, s := t.Clock()
	micros := ((int64(h)*60+int64(m))*60+int64(s))*1e6 + int64(t.Nanosecond()/1e3)
	var tz TimeTZ
	binary.LittleEndian.PutUint64(tz[:], uint64(micros)<<timeTZOffsetBits|uint64(maxTimeTZOffset-offset))
	return tz, nil
}

// Micros is the time of day of tz, in microseconds after midnight, in its
// own offset.
func (tz TimeTZ) Micros() int64 {
	return int64(binary.LittleEndian.Uint64(tz[:]) >> timeTZOffsetBits)
}

// Offset is tz's offset east of UTC, in seconds.
func (tz TimeTZ) Offset() int {
	return maxTimeTZOffset - int(binary.LittleEndian.Uint64(tz[:])&(1<<timeTZOffsetBits-1))
}

// Time is tz on 0001-01-01 in a fixed zone of its offset, as duckdb-go's
// Rows.Scan gives a TIMETZ.
func (tz TimeTZ) Time() time.Time {
	zone := time.FixedZone("", tz.Offset())
	return time.Date(1, 1, 1, 0, 0, 0, 0, zone).Add(time.Duration(tz.Micros()) * time.Microsecond)
}

// String is tz as DuckDB prints it: 12:00:00+05:30.
func (tz TimeTZ) String() string {
	t := tz.Time()
	s := t.Format("15:04:05.999999")
	off := tz.Offset()
	sign := '+'
	if off < 0 {
		sign, off = '-', -off
	}
	s += fmt.Sprintf("%c%02d", sign, off/3600)
	if off%3600 != 0 {
		s += fmt.Sprintf(":%02d", off/60%60)
		if off%60 != 0 {
			s += fmt.Sprintf(":%02d", off%60)
		}
	}
	return s
}
