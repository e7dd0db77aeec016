package mapper_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/tags"
	"github.com/stretchr/testify/require"
)

// The round-trip properties: for random rows of Go types that cover every
// kind Encode supports, nested up to three levels,
//
//   - Decode(Encode(rows)) equals rows, up to the documented
//     normalisations (a time.Time is the same instant, in UTC or the tagged
//     zone; nil slices and maps stay nil, empty ones empty);
//   - Encode(Decode(rec)) equals rec for a record of the SchemaOf schema,
//     whole or sliced, and appending the rows to a Builder in pieces builds
//     the record Encode does.
//
// The seed is printed; rerun with -arrowmap.seed=S or ARROWMAP_SEED=S.

// rtCode implements encoding.TextMarshaler, so it encodes as utf8.
type rtCode struct{ Major, Minor uint8 }

func (c rtCode) MarshalText() ([]byte, error) {
	return fmt.Appendf(nil, "%d.%d", c.Major, c.Minor), nil
}

func (c *rtCode) UnmarshalText(b []byte) error {
	_, err := fmt.Sscanf(string(b), "%d.%d", &c.Major, &c.Minor)
	return err
}

type (
	rtEnum int16
	rtName string
	rtBlob []byte
)

type rtScalars struct {
	Bool     bool
	Int      int
	Int8     int8
	Int16    int16
	Int32    int32
	Int64    int64
	Uint     uint
	Uint8    uint8
	Uint16   uint16
	Uint32   uint32
	Uint64   uint64
	Uintptr  uintptr
	Float32  float32
	Float64  float64
	Half     float16.Num
	String   string
	Bytes    []byte
	Fixed    [4]byte
	Enum     rtEnum
	Name     rtName
	Blob     rtBlob
	Code     rtCode
	Nullable int32 `arrow:"nullable_int,nullable"`
	PtrInt   *int32
	PtrStr   *string
	PtrPtr   **int64
	PtrCode  *rtCode
}

type rtTemporal struct {
	At      time.Time
	Milli   time.Time `arrow:"milli,timestamp,unit=ms,tz=Asia/Tokyo"`
	Sec     time.Time `arrow:"sec,timestamp,unit=s,tz=+05:30"`
	Micro   time.Time `arrow:"micro,timestamp,unit=us"`
	Day     time.Time `arrow:"day,date32"`
	Day64   time.Time `arrow:"day64,date64"`
	PtrAt   *time.Time
	Took    time.Duration
	TookUS  time.Duration `arrow:"took_us,duration,unit=us"`
	Clock   time.Duration `arrow:"clock,time32,unit=ms"`
	ClockS  time.Duration `arrow:"clock_s,time32,unit=s"`
	Clock64 time.Duration `arrow:"clock64,time64,unit=us"`
}

type rtDecimals struct {
	D32   decimal.Decimal32
	D64   decimal.Decimal64  `arrow:"d64,decimal(12,3)"`
	D128  decimal.Decimal128 `arrow:"d128,decimal(30,10)"`
	D256  decimal.Decimal256
	Text  string              `arrow:"text,decimal(20,4)"`
	Wide  string              `arrow:"wide,decimal(60,20)"`
	Whole string              `arrow:"whole,decimal(5,0)"`
	PtrD  *decimal.Decimal128 `arrow:"ptr_d,decimal(10,2)"`
}

type rtLists struct {
	Ints       []int64
	Strs       []string
	PtrStrs    []*string
	Nullable   []int32 `arrow-elem:"nullable"`
	Nested     [][]int32
	Large      []string  `arrow:"large,large_list"`
	View       []int16   `arrow:"view,list_view"`
	LargeView  []float64 `arrow:"large_view,large_list_view"`
	Fixed      [3]float64
	FixedStrs  [2][]string
	LargeStr   string      `arrow:"large_str,large_utf8"`
	ViewStr    string      `arrow:"view_str,utf8_view"`
	LargeBin   []byte      `arrow:"large_bin,large_binary"`
	ViewBin    []byte      `arrow:"view_bin,binary_view"`
	Times      []time.Time `arrow-elem:"timestamp,unit=ms"`
	Elems      []string    `arrow:"elems,large_list" arrow-elem:"utf8_view"`
	FixedBytes [2]byte     `arrow:"fixed_bytes,fixed_size_list"`
	PtrList    *[]int8
}

type rtLeaf struct {
	SKU   string
	Price float64
	At    time.Time         `arrow:"at,timestamp,unit=us"`
	Dec   decimal.Decimal64 `arrow:"dec,decimal(10,2)"`
}

type rtMiddle struct {
	Leaf   rtLeaf
	Leaves []rtLeaf
	Ptr    *rtLeaf
	ByKey  map[string]rtLeaf
}

type rtNested struct {
	Middle  rtMiddle
	Middles []rtMiddle
	PtrMid  *rtMiddle
}

type rtMaps struct {
	Counts map[string]int64
	ByID   map[int32]*string
	Lists  map[string][]float64
	Items  map[rtName]rtLeaf
	Pinned map[string]string `arrow-key:"large_utf8" arrow-value:"utf8_view"`
	ByDay  map[time.Time]bool
	ByPair map[[2]int8]string
}

type rtBase struct {
	BaseID int64
	Label  string `arrow:"label"`
}

type RtExtra struct {
	Extra string
	Score float32
}

type rtEmbedded struct {
	rtBase
	*RtExtra
	Own int32
}

type rtEncodings struct {
	DictStr  string    `arrow:"dict_str,dict"`
	DictInt  int32     `arrow:"dict_int,dict"`
	DictPtr  *string   `arrow:"dict_ptr,dict"`
	ReeStr   string    `arrow:"ree_str,ree"`
	ReeInt   int64     `arrow:"ree_int,ree"`
	ReePtr   *int16    `arrow:"ree_ptr,ree"`
	ReeTime  time.Time `arrow:"ree_time,ree"`
	ListDict []string  `arrow-elem:"dict"`
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	seed := propertySeedFor(t)
	t.Logf("seed %d (-arrowmap.seed=%d or ARROWMAP_SEED=%d to reproduce)", seed, seed, seed)
	rtCheck[rtScalars](t, seed)
	rtCheck[rtTemporal](t, seed)
	rtCheck[rtDecimals](t, seed)
	rtCheck[rtLists](t, seed)
	rtCheck[rtNested](t, seed)
	rtCheck[rtMaps](t, seed)
	rtCheck[rtEmbedded](t, seed)
	rtCheck[rtEncodings](t, seed)
}

// rtCheck checks the round-trip properties on random rows of T.
func rtCheck[T any](t *testing.T, seed int64) {
	typ := reflect.TypeFor[T]()
	t.Run(typ.Name(), func(t *testing.T) {
		schema, err := mapper.SchemaOf[T]()
		require.NoError(t, err)
		for trial := range 25 {
			g := &rtGen{r: rand.New(rand.NewPCG(uint64(seed), uint64(trial)<<8|uint64(len(typ.Name()))))}
			rows := make([]T, g.r.IntN(40))
			for i := range rows {
				g.fill(reflect.ValueOf(&rows[i]).Elem(), tags.Tag{})
			}
			msg := fmt.Sprintf("seed %d, trial %d, %d rows", seed, trial, len(rows))
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)

			rec, err := mapper.Encode(rows, mapper.Allocator(mem))
			require.NoError(t, err, msg)
			require.True(t, rec.Schema().Equal(schema), "%s: schema %s, want %s", msg, rec.Schema(), schema)
			got, err := mapper.Decode[T](rec)
			require.NoError(t, err, msg)
			if len(rows) == 0 {
				got = rows // Decode of no rows is nil
			}
			if diff := rtDiff(typ.Name(), reflect.ValueOf(got), reflect.ValueOf(rows), tags.Tag{}); diff != "" {
				t.Fatalf("%s: Decode(Encode(rows)) differs: %s", msg, diff)
			}

			again, err := mapper.Encode(got, mapper.Allocator(mem))
			require.NoError(t, err, msg)
			require.True(t, array.RecordEqual(rec, again), "%s: Encode(Decode(rec)) differs:\n%v\nwant\n%v", msg, again, rec)
			again.Release()

			rtCheckPieces(t, msg, rows, rec, mem, g.r)
			if len(rows) > 2 {
				i := g.r.IntN(len(rows))
				j := i + g.r.IntN(len(rows)-i+1)
				rtCheckSlice(t, msg, rows, rec, i, j, mem)
			}
			rec.Release()
			mem.AssertSize(t, 0)
		}
	})
}

// rtCheckPieces appends rows to a Builder in random pieces, and checks the
// record is Encode's.
func rtCheckPieces[T any](t *testing.T, msg string, rows []T, want arrow.RecordBatch, mem memory.Allocator, r *rand.Rand) {
	b, err := mapper.NewBuilder[T](mapper.Allocator(mem))
	require.NoError(t, err)
	defer b.Release()
	for i := 0; i < len(rows); {
		j := i + r.IntN(len(rows)-i+1)
		require.NoError(t, b.Append(rows[i:j]...), msg)
		i = j
	}
	got := b.NewRecordBatch()
	defer got.Release()
	require.True(t, array.RecordEqual(got, want), "%s: appended in pieces:\n%v\nwant\n%v", msg, got, want)
}

// rtCheckSlice decodes rows [i, j) of rec and checks that encoding them
// again builds the record of the same rows encoded afresh.
func rtCheckSlice[T any](t *testing.T, msg string, rows []T, rec arrow.RecordBatch, i, j int, mem memory.Allocator) {
	msg = fmt.Sprintf("%s, slice [%d, %d)", msg, i, j)
	part := rec.NewSlice(int64(i), int64(j))
	defer part.Release()
	got, err := mapper.Decode[T](part)
	require.NoError(t, err, msg)
	if i == j {
		got = []T{} // Decode of no rows is nil
	}
	if diff := rtDiff("rows", reflect.ValueOf(got), reflect.ValueOf(rows[i:j:j]), tags.Tag{}); diff != "" {
		t.Fatalf("%s: Decode(slice) differs: %s", msg, diff)
	}
	again, err := mapper.Encode(got, mapper.Allocator(mem))
	require.NoError(t, err, msg)
	defer again.Release()
	want, err := mapper.Encode(rows[i:j], mapper.Allocator(mem))
	require.NoError(t, err, msg)
	defer want.Release()
	require.True(t, array.RecordEqual(again, want), "%s: Encode(Decode(slice)) differs", msg)
}

// rtDiff describes the first difference between decoded and original
// values, or returns "". A time.Time must be the same instant, in the
// zone its column decodes in.
func rtDiff(path string, got, want reflect.Value, tag tags.Tag) string {
	differ := func() string { return fmt.Sprintf("%s: %#v, want %#v", path, got.Interface(), want.Interface()) }
	if got.Type() == reflect.TypeFor[time.Time]() {
		g, w := got.Interface().(time.Time), want.Interface().(time.Time)
		zone := "UTC"
		if tag.TZ != "" {
			zone = tag.TZ
		}
		if !g.Equal(w) || g.Location().String() != zone {
			return fmt.Sprintf("%s: %s, want %s in %s", path, g, w, zone)
		}
		return ""
	}
	switch got.Kind() {
	case reflect.Pointer:
		// Arrow has one null per level: a pointer to a nil pointer, slice or
		// map is null, and decodes as nil.
		if got.IsNil() != rtNullish(want) {
			return differ()
		}
		if got.IsNil() {
			return ""
		}
		return rtDiff("*"+path, got.Elem(), want.Elem(), tag)
	case reflect.Slice:
		if got.IsNil() != want.IsNil() || got.Len() != want.Len() {
			return differ()
		}
		fallthrough
	case reflect.Array:
		elem := tag
		if tag.Elem != nil {
			elem = *tag.Elem
		} else if got.Type().Elem().Kind() != reflect.Uint8 {
			elem = tags.Tag{}
		}
		for i := range got.Len() {
			if d := rtDiff(fmt.Sprintf("%s[%d]", path, i), got.Index(i), want.Index(i), elem); d != "" {
				return d
			}
		}
		return ""
	case reflect.Map:
		if got.IsNil() != want.IsNil() || got.Len() != want.Len() {
			return differ()
		}
		var value tags.Tag
		if tag.Value != nil {
			value = *tag.Value
		}
		for it := want.MapRange(); it.Next(); {
			g := got.MapIndex(it.Key())
			if !g.IsValid() {
				return fmt.Sprintf("%s: no key %v", path, it.Key())
			}
			if d := rtDiff(fmt.Sprintf("%s[%v]", path, it.Key()), g, it.Value(), value); d != "" {
				return d
			}
		}
		return ""
	case reflect.Struct:
		for i := range got.NumField() {
			sf := got.Type().Field(i)
			if !sf.IsExported() && !sf.Anonymous {
				if !reflect.DeepEqual(rtField(got, i).Interface(), rtField(want, i).Interface()) {
					return differ()
				}
				continue
			}
			ftag, err := tags.Of(sf)
			if err != nil {
				return err.Error()
			}
			if d := rtDiff(path+"."+sf.Name, rtField(got, i), rtField(want, i), ftag); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(got.Interface(), want.Interface()) {
		return differ()
	}
	return ""
}

// rtNullish reports whether v encodes as null: a nil pointer, slice or map,
// or a pointer to one.
func rtNullish(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer:
		return v.IsNil() || rtNullish(v.Elem())
	case reflect.Slice, reflect.Map:
		return v.IsNil()
	}
	return false
}

// rtField is field i of struct v, readable and settable even when it is
// unexported (v must be addressable, or is copied to be).
func rtField(v reflect.Value, i int) reflect.Value {
	if !v.CanAddr() {
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		v = c
	}
	f := v.Field(i)
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// rtGen fills Go values with random data that their tags can hold.
type rtGen struct{ r *rand.Rand }

var rtZones = []*time.Location{time.UTC, time.FixedZone("-03:00", -3*3600), rtTokyo()}

func rtTokyo() *time.Location {
	loc, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		return time.FixedZone("+09:00", 9*3600)
	}
	return loc
}

func (g *rtGen) fill(v reflect.Value, tag tags.Tag) {
	few := tag.Dict || tag.REE // few distinct values, so that runs and repeats happen
	switch t := v.Type(); {
	case t == reflect.TypeFor[time.Time]():
		v.Set(reflect.ValueOf(g.time(tag, few)))
		return
	case t == reflect.TypeFor[time.Duration]():
		v.SetInt(int64(g.duration(tag)))
		return
	case t == reflect.TypeFor[float16.Num]():
		v.Set(reflect.ValueOf(float16.New(float32(g.r.NormFloat64() * 100))))
		return
	case t == reflect.TypeFor[decimal.Decimal32]():
		v.SetInt(g.unscaled(precisionOf(tag, 9)).Int64())
		return
	case t == reflect.TypeFor[decimal.Decimal64]():
		v.SetInt(g.unscaled(precisionOf(tag, 18)).Int64())
		return
	case t == reflect.TypeFor[decimal.Decimal128]():
		v.Set(reflect.ValueOf(decimal128.FromBigInt(g.unscaled(precisionOf(tag, 38)))))
		return
	case t == reflect.TypeFor[decimal.Decimal256]():
		v.Set(reflect.ValueOf(decimal256.FromBigInt(g.unscaled(precisionOf(tag, 76)))))
		return
	case t.Kind() == reflect.String && tag.Decimal != nil:
		v.SetString(rtDecimalText(g.unscaled(tag.Decimal.Precision), tag.Decimal.Scale))
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(g.r.IntN(2) == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x := int64(g.r.Uint64())
		if few || g.r.IntN(3) == 0 {
			x = int64(g.r.IntN(3))
		}
		v.SetInt(x)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(g.r.Uint64())
	case reflect.Float32, reflect.Float64:
		v.SetFloat([]float64{0, math.Inf(1), math.Inf(-1), g.r.NormFloat64() * 1e6, g.r.Float64()}[g.r.IntN(5)])
	case reflect.String:
		v.SetString(g.text(few))
	case reflect.Pointer:
		if g.r.IntN(4) == 0 {
			v.SetZero()
			return
		}
		p := reflect.New(v.Type().Elem())
		g.fill(p.Elem(), tag)
		v.Set(p)
	case reflect.Slice:
		n := g.r.IntN(5) - 1
		switch {
		case n < 0:
			v.SetZero()
			return
		case v.Type().Elem().Kind() == reflect.Uint8:
			b := make([]byte, n*3)
			for i := range b {
				b[i] = byte(g.r.Uint32())
			}
			v.SetBytes(b)
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		fallthrough
	case reflect.Array:
		elem := tags.Tag{}
		if tag.Elem != nil {
			elem = *tag.Elem
		}
		for i := range v.Len() {
			g.fill(v.Index(i), elem)
		}
	case reflect.Map:
		n := g.r.IntN(5) - 1
		if n < 0 {
			v.SetZero()
			return
		}
		var key, value tags.Tag
		if tag.Key != nil {
			key = *tag.Key
		}
		if tag.Value != nil {
			value = *tag.Value
		}
		m := reflect.MakeMap(v.Type())
		for range n {
			k, x := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			g.fill(k, key)
			if t, ok := k.Interface().(time.Time); ok {
				k.Set(reflect.ValueOf(t.UTC())) // keys decode in UTC, and are looked up as they are
			}
			g.fill(x, value)
			m.SetMapIndex(k, x)
		}
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			sf := v.Type().Field(i)
			if !sf.IsExported() && !sf.Anonymous {
				continue
			}
			ftag, err := tags.Of(sf)
			if err != nil {
				panic(err)
			}
			f := rtField(v, i)
			if sf.Anonymous && f.Kind() == reflect.Pointer {
				// A nil embedded pointer decodes as a pointer to zeros:
				// the documented normalisation, tested on its own.
				f.Set(reflect.New(f.Type().Elem()))
				g.fill(f.Elem(), ftag)
				continue
			}
			g.fill(f, ftag)
		}
	default:
		panic(fmt.Sprintf("rtGen: no values of %s", v.Type()))
	}
}

func (g *rtGen) text(few bool) string {
	if few {
		return []string{"", "a", "bb"}[g.r.IntN(3)]
	}
	alphabet := []rune("ab z0é日\x00🙂")
	rs := make([]rune, g.r.IntN(9))
	for i := range rs {
		rs[i] = alphabet[g.r.IntN(len(alphabet))]
	}
	return string(rs)
}

// time is an instant its column holds exactly, in a random zone.
func (g *rtGen) time(tag tags.Tag, few bool) time.Time {
	zone := rtZones[g.r.IntN(len(rtZones))]
	var t time.Time
	switch {
	case few:
		t = time.Unix(int64(g.r.IntN(2))*3600, 0)
	case tag.Temporal == tags.Date32 || tag.Temporal == tags.Date64:
		t = time.Unix((g.r.Int64N(2_000_000)-1_000_000)*86400, 0)
	default:
		unit := tag.Unit
		if unit == tags.UnitDefault {
			unit = tags.Nanosecond
		}
		sec := g.r.Int64N(18_000_000_000) - 9_000_000_000 // about ±285 years
		if unit != tags.Nanosecond {
			sec = g.r.Int64N(2e11) - 1e11
		}
		per := int64(unit.TimeUnit().Multiplier())
		t = time.Unix(sec, g.r.Int64N(1e9)/per*per)
	}
	return t.In(zone)
}

// duration is a duration its column holds exactly.
func (g *rtGen) duration(tag tags.Tag) time.Duration {
	unit := tag.Unit
	if unit == tags.UnitDefault {
		unit = map[tags.Temporal]tags.Unit{tags.Time32: tags.Millisecond}[tag.Temporal]
		if unit == tags.UnitDefault {
			unit = tags.Nanosecond
		}
	}
	per := time.Duration(unit.TimeUnit().Multiplier())
	if tag.Temporal == tags.Time32 || tag.Temporal == tags.Time64 {
		return time.Duration(g.r.Int64N(int64(24*time.Hour))) / per * per
	}
	return time.Duration(int64(g.r.Uint64())) / per * per
}

// unscaled is an integer of at most precision digits.
func (g *rtGen) unscaled(precision int32) *big.Int {
	digits := g.r.IntN(int(precision)) + 1
	var b strings.Builder
	if g.r.IntN(2) == 0 {
		b.WriteByte('-')
	}
	for range digits {
		b.WriteByte(byte('0' + g.r.IntN(10)))
	}
	x, _ := new(big.Int).SetString(b.String(), 10)
	return x
}

func precisionOf(tag tags.Tag, max int32) int32 {
	if tag.Decimal != nil {
		return tag.Decimal.Precision
	}
	return max
}

// rtDecimalText is x·10^-scale as Decode writes decimal text: "-12.50".
func rtDecimalText(x *big.Int, scale int32) string {
	sign := ""
	if x.Sign() < 0 {
		sign = "-"
		x = new(big.Int).Neg(x)
	}
	digits := x.Text(10)
	if scale == 0 {
		return sign + digits
	}
	if len(digits) <= int(scale) {
		digits = strings.Repeat("0", int(scale)-len(digits)+1) + digits
	}
	return sign + digits[:len(digits)-int(scale)] + "." + digits[len(digits)-int(scale):]
}
