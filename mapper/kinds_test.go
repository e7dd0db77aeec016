package mapper

import (
	"math/big"
	"net/netip"
	"reflect"
	"testing"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/arrowmap/arrowmap/tags"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type (
	kBool     bool
	kInt      int16
	kUint     uint32
	kFloat    float32
	kString   string
	kByte     uint8
	kBytes    []byte
	kStamp    time.Time
	kSpan     time.Duration
	kDec32    decimal.Decimal32
	kDec128   decimal.Decimal128
	kHalf     float16.Num
	kStruct   struct{ A int }
	kList     []int
	kMap      map[string]int
	kPtr      *int
	kFunc     func()
	kTextInt  int
	kTextStr  string
	kTextMap  map[string]int
	kOnlyText struct{ A int }
)

func (*kTextInt) UnmarshalText([]byte) error   { return nil }
func (kTextInt) MarshalText() ([]byte, error)  { return nil, nil }
func (*kTextStr) UnmarshalText([]byte) error   { return nil }
func (kTextMap) MarshalText() ([]byte, error)  { return nil, nil }
func (kOnlyText) MarshalText() ([]byte, error) { return nil, nil }
func (*kTextMap) UnmarshalText(b []byte) error { return nil }

func TestKindOf(t *testing.T) {
	tests := []struct {
		name string
		typ  reflect.Type
		want goKind
	}{
		{"a bool is a bool", reflect.TypeFor[bool](), kindBool},
		{"a named bool is a bool", reflect.TypeFor[kBool](), kindBool},
		{"int is an int", reflect.TypeFor[int](), kindInt},
		{"int8 is an int", reflect.TypeFor[int8](), kindInt},
		{"int16 is an int", reflect.TypeFor[int16](), kindInt},
		{"int32 is an int", reflect.TypeFor[int32](), kindInt},
		{"int64 is an int", reflect.TypeFor[int64](), kindInt},
		{"a named int16 is an int", reflect.TypeFor[kInt](), kindInt},
		{"uint is a uint", reflect.TypeFor[uint](), kindUint},
		{"uint8 is a uint", reflect.TypeFor[uint8](), kindUint},
		{"uint16 is a uint", reflect.TypeFor[uint16](), kindUint},
		{"uint64 is a uint", reflect.TypeFor[uint64](), kindUint},
		{"uintptr is a uint", reflect.TypeFor[uintptr](), kindUint},
		{"a named uint32 is a uint", reflect.TypeFor[kUint](), kindUint},
		{"float32 is a float", reflect.TypeFor[float32](), kindFloat},
		{"float64 is a float", reflect.TypeFor[float64](), kindFloat},
		{"a named float32 is a float", reflect.TypeFor[kFloat](), kindFloat},
		{"float16.Num is arrow-go's value of float16, though a struct", reflect.TypeFor[float16.Num](), kindValue},
		{"arrow.MonthDayNanoInterval is arrow-go's value of its interval", reflect.TypeFor[arrow.MonthDayNanoInterval](), kindValue},
		{"a type defined on float16.Num is a struct", reflect.TypeFor[kHalf](), kindStruct},
		{"a string is a string", reflect.TypeFor[string](), kindString},
		{"a named string is a string", reflect.TypeFor[kString](), kindString},
		{"[]byte is bytes", reflect.TypeFor[[]byte](), kindBytes},
		{"a named []byte is bytes", reflect.TypeFor[kBytes](), kindBytes},
		{"a slice of a named byte is bytes", reflect.TypeFor[[]kByte](), kindBytes},
		{"[16]byte is a byte array", reflect.TypeFor[[16]byte](), kindByteArray},
		{"[0]byte is a byte array", reflect.TypeFor[[0]byte](), kindByteArray},
		{"an array of a named byte is a byte array", reflect.TypeFor[[4]kByte](), kindByteArray},
		{"[4]int8 is an array: bytes are of a uint8 kind", reflect.TypeFor[[4]int8](), kindArray},
		{"time.Time is a time, though a struct", reflect.TypeFor[time.Time](), kindTime},
		{"a type defined on time.Time is a struct", reflect.TypeFor[kStamp](), kindStruct},
		{"time.Duration is a duration, though an int64", reflect.TypeFor[time.Duration](), kindDuration},
		{"a type defined on time.Duration is an int", reflect.TypeFor[kSpan](), kindInt},
		{"decimal.Decimal32 is a decimal, though an int32", reflect.TypeFor[decimal.Decimal32](), kindDecimal},
		{"decimal.Decimal64 is a decimal, though an int64", reflect.TypeFor[decimal.Decimal64](), kindDecimal},
		{"decimal.Decimal128 is a decimal, though a struct", reflect.TypeFor[decimal.Decimal128](), kindDecimal},
		{"decimal.Decimal256 is a decimal, though a struct", reflect.TypeFor[decimal.Decimal256](), kindDecimal},
		{"decimal128.Num is decimal.Decimal128", reflect.TypeFor[decimal128.Num](), kindDecimal},
		{"a type defined on decimal.Decimal32 is an int", reflect.TypeFor[kDec32](), kindInt},
		{"a type defined on decimal.Decimal128 is a struct", reflect.TypeFor[kDec128](), kindStruct},
		{"[]int is a list", reflect.TypeFor[[]int](), kindList},
		{"[][]byte is a list", reflect.TypeFor[[][]byte](), kindList},
		{"[]*byte is a list", reflect.TypeFor[[]*byte](), kindList},
		{"a named []int is a list", reflect.TypeFor[kList](), kindList},
		{"[3]int is an array", reflect.TypeFor[[3]int](), kindArray},
		{"[2][]byte is an array", reflect.TypeFor[[2][]byte](), kindArray},
		{"a map is a map", reflect.TypeFor[map[string]int](), kindMap},
		{"a named map is a map", reflect.TypeFor[kMap](), kindMap},
		{"a struct is a struct", reflect.TypeFor[struct{ A int }](), kindStruct},
		{"a named struct is a struct", reflect.TypeFor[kStruct](), kindStruct},
		{"netip.Addr is a struct: text is for the compiler to decide", reflect.TypeFor[netip.Addr](), kindStruct},
		{"a named int with UnmarshalText is still an int", reflect.TypeFor[kTextInt](), kindInt},
		{"*int is a pointer", reflect.TypeFor[*int](), kindPointer},
		{"**int is a pointer", reflect.TypeFor[**int](), kindPointer},
		{"*time.Time is a pointer", reflect.TypeFor[*time.Time](), kindPointer},
		{"a named pointer is a pointer", reflect.TypeFor[kPtr](), kindPointer},
		{"a channel is unsupported", reflect.TypeFor[chan int](), kindUnsupported},
		{"a func is unsupported", reflect.TypeFor[kFunc](), kindUnsupported},
		{"complex128 is unsupported", reflect.TypeFor[complex128](), kindUnsupported},
		{"complex64 is unsupported", reflect.TypeFor[complex64](), kindUnsupported},
		{"an interface is unsupported", reflect.TypeFor[any](), kindUnsupported},
		{"unsafe.Pointer is unsupported", reflect.TypeFor[unsafe.Pointer](), kindUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, kindOf(tt.typ), "%s", tt.typ)
		})
	}
}

func TestDecodeKindOf(t *testing.T) {
	plain := &planner{opts: testOptions(nil)}
	converted := &planner{opts: testOptions([]Option{As(func(b int16) (uint8, error) { return uint8(b), nil }, nil)})}
	tests := []struct {
		name string
		c    *planner
		typ  reflect.Type
		id   arrow.Type
		want goKind
	}{
		{"netip.Addr reads utf8 as text", plain, reflect.TypeFor[netip.Addr](), arrow.STRING, kindText},
		{"netip.Addr reads utf8_view as text", plain, reflect.TypeFor[netip.Addr](), arrow.STRING_VIEW, kindText},
		{"netip.Addr reads a struct as a struct", plain, reflect.TypeFor[netip.Addr](), arrow.STRUCT, kindStruct},
		{"an int with UnmarshalText reads large_utf8 as text", plain, reflect.TypeFor[kTextInt](), arrow.LARGE_STRING, kindText},
		{"an int with UnmarshalText reads int64 as an int", plain, reflect.TypeFor[kTextInt](), arrow.INT64, kindInt},
		{"a string with UnmarshalText reads utf8 as a string", plain, reflect.TypeFor[kTextStr](), arrow.STRING, kindString},
		{"time.Time reads utf8 as text, through its UnmarshalText", plain, reflect.TypeFor[time.Time](), arrow.STRING, kindText},
		{"time.Time reads a timestamp as a time", plain, reflect.TypeFor[time.Time](), arrow.TIMESTAMP, kindTime},
		{"a struct with only MarshalText reads utf8 as a struct", plain, reflect.TypeFor[kOnlyText](), arrow.STRING, kindStruct},
		{"a map with UnmarshalText reads utf8 as text", plain, reflect.TypeFor[kTextMap](), arrow.STRING, kindText},
		{"[]byte reads binary as bytes", plain, reflect.TypeFor[[]byte](), arrow.BINARY, kindBytes},
		{"[]uint8 whose uint8 has an As is a list", converted, reflect.TypeFor[[]uint8](), arrow.BINARY, kindList},
		{"[]kByte is bytes when only uint8 has an As", converted, reflect.TypeFor[[]kByte](), arrow.BINARY, kindBytes},
		{"[16]byte reads fixed_size_binary as a byte array", plain, reflect.TypeFor[[16]byte](), arrow.FIXED_SIZE_BINARY, kindByteArray},
		{"[16]byte reads a fixed_size_list as an array", plain, reflect.TypeFor[[16]byte](), arrow.FIXED_SIZE_LIST, kindArray},
		{"[16]uint8 whose uint8 has an As still reads fixed_size_binary as bytes", converted, reflect.TypeFor[[16]uint8](), arrow.FIXED_SIZE_BINARY, kindByteArray},
		{"an int reads int32 as an int", plain, reflect.TypeFor[int](), arrow.INT32, kindInt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.c.decodeKindOf(tt.typ, tt.id))
		})
	}
}

func TestEncodeKindOf(t *testing.T) {
	plain := &planner{opts: testOptions(nil)}
	converted := &planner{opts: testOptions([]Option{As(nil, func(b uint8) (int16, error) { return int16(b), nil })})}
	fsl := tags.Tag{Encoding: tags.FixedSizeList}
	tests := []struct {
		name string
		c    *planner
		typ  reflect.Type
		tag  tags.Tag
		want goKind
	}{
		{"netip.Addr writes text", plain, reflect.TypeFor[netip.Addr](), tags.Tag{}, kindText},
		{"a struct with only MarshalText writes text", plain, reflect.TypeFor[kOnlyText](), tags.Tag{}, kindText},
		{"a map with MarshalText writes text", plain, reflect.TypeFor[kTextMap](), tags.Tag{}, kindText},
		{"an int with MarshalText writes an int", plain, reflect.TypeFor[kTextInt](), tags.Tag{}, kindInt},
		{"time.Time writes a time, though it has MarshalText", plain, reflect.TypeFor[time.Time](), tags.Tag{}, kindTime},
		{"a plain struct writes a struct", plain, reflect.TypeFor[kStruct](), tags.Tag{}, kindStruct},
		{"[]byte writes bytes", plain, reflect.TypeFor[[]byte](), tags.Tag{}, kindBytes},
		{"[]uint8 whose uint8 has an As is a list", converted, reflect.TypeFor[[]uint8](), tags.Tag{}, kindList},
		{"[4]uint8 whose uint8 has an As is an array", converted, reflect.TypeFor[[4]uint8](), tags.Tag{}, kindArray},
		{"[16]byte writes a byte array", plain, reflect.TypeFor[[16]byte](), tags.Tag{}, kindByteArray},
		{"[16]byte tagged fixed_size_list is an array", plain, reflect.TypeFor[[16]byte](), fsl, kindArray},
		{"a func writes nothing", plain, reflect.TypeFor[kFunc](), tags.Tag{}, kindUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.c.encodeKindOf(tt.typ, tt.tag))
		})
	}
}

func TestIsLeafStruct(t *testing.T) {
	tests := []struct {
		name string
		typ  reflect.Type
		want bool
	}{
		{"time.Time is one column", reflect.TypeFor[time.Time](), true},
		{"decimal.Decimal128 is one column", reflect.TypeFor[decimal.Decimal128](), true},
		{"decimal.Decimal256 is one column", reflect.TypeFor[decimal.Decimal256](), true},
		{"decimal.Decimal32 is no struct", reflect.TypeFor[decimal.Decimal32](), false},
		{"a type defined on time.Time is a struct of fields", reflect.TypeFor[kStamp](), false},
		{"a plain struct is a struct of fields", reflect.TypeFor[kStruct](), false},
		{"float16.Num is one column, as an interval is", reflect.TypeFor[float16.Num](), true},
		{"arrow.DayTimeInterval is one column", reflect.TypeFor[arrow.DayTimeInterval](), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, isLeafStruct(tt.typ))
		})
	}
}

func TestKindNamesCoverEveryKind(t *testing.T) {
	seen := map[string]goKind{}
	for k := kindUnsupported; k <= kindPointer; k++ {
		name := k.String()
		require.NotEqual(t, "goKind(?)", name, "kind %d has no name", k)
		_, dup := seen[name]
		require.False(t, dup, "%s names two kinds", name)
		seen[name] = k
	}
	assert.Equal(t, "goKind(?)", (kindPointer + 1).String())
}

// arrowInteger is what arrow-go says of Go integer G, to check the row of
// integerWidths for G against.
type arrowInteger struct {
	typ     reflect.Type
	dt      arrow.DataType
	decoder reflect.Type
	encoder reflect.Type
	ordered func(compare func(a, b unsafe.Pointer) int) bool
}

func arrowIntegerOf[G int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64]() arrowInteger {
	return arrowInteger{
		typ:     reflect.TypeFor[G](),
		dt:      arrow.GetDataType[G](),
		decoder: reflect.TypeFor[numberDecoder[G]](),
		encoder: reflect.TypeFor[*valuesEncoder[G]](),
		ordered: func(compare func(a, b unsafe.Pointer) int) bool {
			// The extremes of G: a compare of the wrong sign or width
			// orders them the other way round or not at all.
			lo, hi := G(0), ^G(0)
			if hi < lo {
				lo = G(1) << (8*unsafe.Sizeof(lo) - 1)
				hi = ^lo
			}
			return compare(unsafe.Pointer(&lo), unsafe.Pointer(&hi)) < 0 &&
				compare(unsafe.Pointer(&hi), unsafe.Pointer(&lo)) > 0 &&
				compare(unsafe.Pointer(&hi), unsafe.Pointer(&hi)) == 0
		},
	}
}

func TestIntegerWidthsAgreeWithArrow(t *testing.T) {
	all := []arrowInteger{
		arrowIntegerOf[int8](), arrowIntegerOf[int16](), arrowIntegerOf[int32](), arrowIntegerOf[int64](),
		arrowIntegerOf[uint8](), arrowIntegerOf[uint16](), arrowIntegerOf[uint32](), arrowIntegerOf[uint64](),
	}
	rows := map[arrow.Type]bool{}
	for _, a := range all {
		t.Run(a.typ.String()+" maps to arrow-go's "+a.dt.String(), func(t *testing.T) {
			w := integerWidthOf(a.typ)
			rows[w.id] = true
			assert.Equal(t, a.dt.ID(), w.id)
			assert.True(t, arrow.TypeEqual(a.dt, w.dt), "%s", w.dt)
			assert.Equal(t, int(8*a.typ.Size()), w.dt.(arrow.FixedWidthDataType).BitWidth())
			assert.Equal(t, a.typ.Size(), w.size)
			assert.Equal(t, arrow.IsSignedInteger(w.id), w.signed)
			assert.Equal(t, !arrow.IsUnsignedInteger(w.id), w.signed)
			assert.Equal(t, a.decoder, reflect.TypeOf(w.decoder))
			assert.Equal(t, a.encoder, reflect.TypeOf(w.encoder(encLevel{})))
			assert.True(t, a.ordered(w.compare), "compare orders %s's extremes", a.typ)
		})
	}
	assert.Len(t, rows, len(integerWidths), "every row is some Go integer's")

	sized := []struct {
		name string
		typ  reflect.Type
		like reflect.Type
	}{
		{"int is the signed integer of its size", reflect.TypeFor[int](), map[uintptr]reflect.Type{4: reflect.TypeFor[int32](), 8: reflect.TypeFor[int64]()}[unsafe.Sizeof(int(0))]},
		{"uint is the unsigned integer of its size", reflect.TypeFor[uint](), map[uintptr]reflect.Type{4: reflect.TypeFor[uint32](), 8: reflect.TypeFor[uint64]()}[unsafe.Sizeof(uint(0))]},
		{"uintptr is the unsigned integer of its size", reflect.TypeFor[uintptr](), map[uintptr]reflect.Type{4: reflect.TypeFor[uint32](), 8: reflect.TypeFor[uint64]()}[unsafe.Sizeof(uintptr(0))]},
		{"time.Duration is an int64", reflect.TypeFor[time.Duration](), reflect.TypeFor[int64]()},
		{"a named int16 is an int16", reflect.TypeFor[kInt](), reflect.TypeFor[int16]()},
		{"a named uint32 is a uint32", reflect.TypeFor[kUint](), reflect.TypeFor[uint32]()},
	}
	for _, tt := range sized {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, integerWidthOf(tt.like).id, integerWidthOf(tt.typ).id)
		})
	}
}

// TestIntegerAcceptIsLossless checks integerAccept against its definition:
// a Go integer reads an Arrow integer when every value of the one fits the
// other; with Strict, only its own.
func TestIntegerAcceptIsLossless(t *testing.T) {
	bounds := func(size uintptr, signed bool) (lo, hi *big.Int) {
		bits := uint(8 * size)
		if !signed {
			return big.NewInt(0), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), bits), big.NewInt(1))
		}
		half := new(big.Int).Lsh(big.NewInt(1), bits-1)
		return new(big.Int).Neg(half), new(big.Int).Sub(half, big.NewInt(1))
	}
	goTypes := []reflect.Type{
		reflect.TypeFor[int](), reflect.TypeFor[int8](), reflect.TypeFor[int16](), reflect.TypeFor[int32](), reflect.TypeFor[int64](),
		reflect.TypeFor[uint](), reflect.TypeFor[uint8](), reflect.TypeFor[uint16](), reflect.TypeFor[uint32](), reflect.TypeFor[uint64](),
		reflect.TypeFor[uintptr](), reflect.TypeFor[kInt](), reflect.TypeFor[time.Duration](),
	}
	for _, g := range goTypes {
		signed := g.Kind() >= reflect.Int && g.Kind() <= reflect.Int64
		glo, ghi := bounds(g.Size(), signed)
		for _, dt := range []arrow.DataType{
			arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64,
			arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Uint64,
		} {
			bits := dt.(arrow.FixedWidthDataType).BitWidth()
			alo, ahi := bounds(uintptr(bits/8), arrow.IsSignedInteger(dt.ID()))
			fits := glo.Cmp(alo) <= 0 && ghi.Cmp(ahi) >= 0
			own := glo.Cmp(alo) == 0 && ghi.Cmp(ahi) == 0
			assert.Equal(t, fits, integerAccept(g, false).Has(dt.ID()), "%s reads %s", g, dt)
			assert.Equal(t, own, integerAccept(g, true).Has(dt.ID()), "%s reads %s with Strict", g, dt)
		}
	}
}

// arrowDecimal is what arrow-go says of decimal number type D, to check
// the row of decimalWidths for D against.
type arrowDecimal struct {
	typ          reflect.Type
	maxPrecision int32
	decoder      reflect.Type
	encoder      reflect.Type
	// fit reports, for each precision p, whether the encoder's check takes
	// ±(10^p - 1) and refuses ±10^p.
	fit func(w decimalWidth) []string
	// ordered reports whether compare orders -1 before 1.
	ordered func(compare func(a, b unsafe.Pointer) int) bool
}

func arrowDecimalOf[D interface {
	decimal.DecimalTypes
	decimal.Num[D]
}](fromBig func(*big.Int) D) arrowDecimal {
	return arrowDecimal{
		typ:          reflect.TypeFor[D](),
		maxPrecision: int32(decimal.MaxPrecision[D]()),
		decoder:      reflect.TypeFor[decimalDecoder[D]](),
		encoder:      reflect.TypeFor[*valuesEncoder[D]](),
		fit: func(w decimalWidth) []string {
			var wrong []string
			for p := int32(1); p <= w.maxPrecision; p++ {
				_, enc := w.encoder(p, 0, encLevel{})
				check := enc.(*valuesEncoder[D]).check
				pow := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil)
				below := new(big.Int).Sub(pow, big.NewInt(1))
				for _, v := range []struct {
					x    *big.Int
					fits bool
				}{{below, true}, {new(big.Int).Neg(below), true}, {pow, false}, {new(big.Int).Neg(pow), false}} {
					k, _ := check([]D{fromBig(v.x)})
					if (k < 0) != v.fits {
						wrong = append(wrong, v.x.String()+" at precision "+big.NewInt(int64(p)).String())
					}
				}
			}
			return wrong
		},
		ordered: func(compare func(a, b unsafe.Pointer) int) bool {
			lo, hi := fromBig(big.NewInt(-1)), fromBig(big.NewInt(1))
			return compare(unsafe.Pointer(&lo), unsafe.Pointer(&hi)) < 0 &&
				compare(unsafe.Pointer(&hi), unsafe.Pointer(&lo)) > 0 &&
				compare(unsafe.Pointer(&lo), unsafe.Pointer(&lo)) == 0
		},
	}
}

func TestDecimalWidthsAgreeWithArrow(t *testing.T) {
	all := []arrowDecimal{
		arrowDecimalOf(func(x *big.Int) decimal.Decimal32 { return decimal.Decimal32(x.Int64()) }),
		arrowDecimalOf(func(x *big.Int) decimal.Decimal64 { return decimal.Decimal64(x.Int64()) }),
		arrowDecimalOf(decimal128.FromBigInt),
		arrowDecimalOf(decimal256.FromBigInt),
	}
	require.Len(t, decimalWidths, len(all))
	for _, a := range all {
		t.Run(a.typ.String()+" maps to arrow-go's decimal of its width", func(t *testing.T) {
			w, ok := decimalWidthOf(a.typ)
			require.True(t, ok)
			assert.Equal(t, a.typ, w.typ)
			assert.Equal(t, int(8*a.typ.Size()), w.bits)
			assert.Equal(t, a.maxPrecision, w.maxPrecision)

			dt, enc := w.encoder(w.maxPrecision, 2, encLevel{})
			assert.Equal(t, w.id, dt.ID())
			assert.True(t, arrow.IsDecimal(dt.ID()))
			assert.Equal(t, w.bits, dt.(arrow.FixedWidthDataType).BitWidth())
			assert.Equal(t, w.maxPrecision, dt.(arrow.DecimalType).GetPrecision())
			assert.Equal(t, int32(2), dt.(arrow.DecimalType).GetScale())
			_, err := arrow.NewDecimalType(w.id, w.maxPrecision, 0)
			assert.NoError(t, err, "arrow-go takes the maximum precision")
			_, err = arrow.NewDecimalType(w.id, w.maxPrecision+1, 0)
			assert.Error(t, err, "arrow-go refuses one digit more")

			assert.Equal(t, a.decoder, reflect.TypeOf(w.decoder))
			assert.Equal(t, a.encoder, reflect.TypeOf(enc))
			assert.Empty(t, a.fit(w), "the encoder's check takes exactly the values of each precision")
			assert.True(t, a.ordered(w.compare))

			for _, other := range decimalWidths {
				assert.Equal(t, other.bits <= w.bits, decimalAccept(w, false).Has(other.id), "%s reads %s", w.typ, other.id)
				assert.Equal(t, other.bits == w.bits, decimalAccept(w, true).Has(other.id), "%s reads %s with Strict", w.typ, other.id)
			}
		})
	}
	_, ok := decimalWidthOf(reflect.TypeFor[kDec32]())
	assert.False(t, ok, "a type defined on a decimal is none")
	assert.Equal(t, int32(decimal128.MaxPrecision), decimalWidthFor[decimal.Decimal128]().maxPrecision)
	assert.Equal(t, int32(decimal256.MaxPrecision), decimalWidthFor[decimal.Decimal256]().maxPrecision)
}
