package mapper_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
	"github.com/arrowmap/arrowmap/tags"
)

// TestEncodeBuildersAgreeWithArrowGo encodes random rows of every
// round-trip type with the package's own builders and with arrow-go's at
// every level: the records are equal. The rows come in batches of very
// different sizes through one Builder, which reuses its builders, and one
// of the batches has no null where the others have some.
func TestEncodeBuildersAgreeWithArrowGo(t *testing.T) {
	seed := propertySeedFor(t)
	t.Logf("seed %d", seed)
	builderCheck[rtScalars](t, seed)
	builderCheck[rtTemporal](t, seed)
	builderCheck[rtDecimals](t, seed)
	builderCheck[rtLists](t, seed)
	builderCheck[rtNested](t, seed)
	builderCheck[rtMaps](t, seed)
	builderCheck[rtEmbedded](t, seed)
	builderCheck[rtEncodings](t, seed)
}

func builderCheck[T any](t *testing.T, seed int64) {
	typ := reflect.TypeFor[T]()
	t.Run(typ.Name(), func(t *testing.T) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		b, err := mapper.NewBuilder[T](mapper.Allocator(mem))
		require.NoError(t, err)
		defer b.Release()
		ref, err := mapper.NewArrowGoBuilder[T](mem)
		require.NoError(t, err)
		defer ref.Release()
		g := &rtGen{r: rand.New(rand.NewPCG(uint64(seed), uint64(len(typ.Name()))))}
		// Zero rows have nil slices and pointers, nulls only, where the
		// zero value can be encoded at all.
		probe, err := mapper.NewArrowGoBuilder[T](mem)
		require.NoError(t, err)
		zeros := probe.Append(make([]T, 1)...) == nil
		probe.Release()
		for batch, n := range []int{37, 0, 1500, 3, 1, 200} {
			rows := make([]T, n)
			for i := range rows {
				if batch != 3 || !zeros {
					g.fill(reflect.ValueOf(&rows[i]).Elem(), tags.Tag{})
				}
			}
			msg := fmt.Sprintf("batch %d of %d rows", batch, n)
			// In two Appends, so that validity and offsets carry on.
			require.NoError(t, b.Append(rows[:n/2]...), msg)
			require.NoError(t, b.Append(rows[n/2:]...), msg)
			got := b.NewRecordBatch()
			require.NoError(t, ref.Append(rows...), msg)
			want := ref.NewRecordBatch()
			require.True(t, array.RecordEqual(got, want), "%s:\n%v\nwant\n%v", msg, got, want)
			require.Equal(t, want.Schema(), got.Schema(), msg)
			for k, col := range got.Columns() {
				assert.NoError(t, validateFull(col), "%s: column %d", msg, k)
				if batch == 3 {
					// After 1500 rows, 3 rows keep no buffer that big.
					for _, buf := range col.Data().Buffers() {
						if buf != nil {
							assert.Less(t, buf.Cap(), 8192, "%s: column %d keeps a buffer of %d bytes", msg, k, buf.Cap())
						}
					}
				}
			}
			got.Release()
			want.Release()
		}
	})
}

// validateFull runs arrow-go's full validation where the array has one.
func validateFull(arr arrow.Array) error {
	if v, ok := arr.(interface{ ValidateFull() error }); ok {
		return v.ValidateFull()
	}
	return nil
}

// TestEncodeOverflowsThirtyTwoBitOffsets checks that strings past what
// 32-bit offsets hold are ErrOverflow naming the field and the first row
// that does not fit, at every level and through both kinds of builders,
// and that the Builder then holds what it held.
func TestEncodeOverflowsThirtyTwoBitOffsets(t *testing.T) {
	defer mapper.SetMaxOffset32(10)()
	type row struct {
		S    string            `arrow:"s"`
		Tags []string          `arrow:"tags"`
		M    map[string]string `arrow:"m"`
		Big  string            `arrow:"big,large_utf8"`
		// Lists of 32-bit offsets below a list view: built by arrow-go.
		Views [][]int8 `arrow:"views,list_view"`
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, tc := range []struct {
		name string
		rows []row
		path string
		row  int
	}{
		{"top-level strings", []row{{S: "abcd"}, {S: "efgh"}, {S: "ijk"}}, "S", 2},
		{"list elements", []row{{Tags: []string{"abc"}}, {}, {Tags: []string{"defg", "hijk"}}}, "Tags[]", 2},
		{"map values, built by arrow-go", []row{{M: map[string]string{"a": "bcdefghijkl"}}}, "M[value]", 0},
		{"list elements, built by arrow-go", []row{{Views: [][]int8{make([]int8, 6)}}, {Views: [][]int8{make([]int8, 5)}}}, "Views[]", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := mapper.Encode(tc.rows, mapper.Allocator(mem))
			require.ErrorIs(t, err, mapper.ErrOverflow)
			var me *mapper.Error
			require.ErrorAs(t, err, &me)
			assert.Equal(t, tc.path, me.Path)
			assert.Equal(t, tc.row, me.Row)
		})
	}
	t.Run("a string that is not UTF-8 before the one past the offsets is the error", func(t *testing.T) {
		_, err := mapper.Encode([]row{{S: "ab"}, {S: "c\xff"}, {S: "defghijk"}}, mapper.Allocator(mem))
		require.ErrorIs(t, err, mapper.ErrInvalidData)
		var me *mapper.Error
		require.ErrorAs(t, err, &me)
		assert.Equal(t, 1, me.Row)
	})
	t.Run("a large layout holds them", func(t *testing.T) {
		rec, err := mapper.Encode([]row{{Big: "abcdefgh"}, {Big: "ijklmnop"}}, mapper.Allocator(mem))
		require.NoError(t, err)
		assert.Equal(t, "ijklmnop", rec.Column(3).(*array.LargeString).Value(1))
		rec.Release()
	})
	t.Run("bytes count across Appends, and a failed Append changes nothing", func(t *testing.T) {
		b, err := mapper.NewBuilder[row](mapper.Allocator(mem))
		require.NoError(t, err)
		defer b.Release()
		require.NoError(t, b.Append(row{S: "abcdef"}))
		err = b.Append(row{S: "gh"}, row{S: "ijk"})
		require.ErrorIs(t, err, mapper.ErrOverflow)
		var me *mapper.Error
		require.ErrorAs(t, err, &me)
		assert.Equal(t, 2, me.Row, "rows count from the start of the batch")
		require.NoError(t, b.Append(row{S: "gh"}))
		rec := b.NewRecordBatch()
		defer rec.Release()
		require.EqualValues(t, 2, rec.NumRows())
		s := rec.Column(0).(*array.String)
		assert.Equal(t, []string{"abcdef", "gh"}, []string{s.Value(0), s.Value(1)})
		// A new batch starts from no bytes.
		require.NoError(t, b.Append(row{S: "abcdefghij"}))
		b.NewRecordBatch().Release()
	})
}

// TestEncodeDictionariesStartAfreshEachRecord checks that a record's
// dictionary holds the values of its own rows only: not those of an
// earlier batch of a reused Builder, nor of an earlier Encode, whose
// builders the next one reuses. That holds below arrow-go's builders too
// (a list view's elements), whose NewArray builds the dictionary without
// going through ours.
func TestEncodeDictionariesStartAfreshEachRecord(t *testing.T) {
	type row struct {
		City  string   `arrow:"city,dict"`
		Tags  []string `arrow:"tags" arrow-elem:"dict"`
		Views []string `arrow:"views,list_view" arrow-elem:"dict"`
	}
	dictionary := func(t *testing.T, arr arrow.Array) []string {
		t.Helper()
		d := arr.(*array.Dictionary).Dictionary().(*array.String)
		out := make([]string, d.Len())
		for i := range out {
			out[i] = d.Value(i)
		}
		return out
	}
	first := []row{{City: "Oslo", Tags: []string{"x"}, Views: []string{"p"}}, {City: "Lima", Tags: []string{"y"}, Views: []string{"q"}}}
	second := []row{{City: "Quito", Tags: []string{"z"}, Views: []string{"r"}}}
	check := func(t *testing.T, rec arrow.RecordBatch) {
		t.Helper()
		assert.Equal(t, []string{"Quito"}, dictionary(t, rec.Column(0)))
		assert.Equal(t, []string{"z"}, dictionary(t, rec.Column(1).(*array.List).ListValues()))
		assert.Equal(t, []string{"r"}, dictionary(t, rec.Column(2).(*array.ListView).ListValues()))
	}

	t.Run("a reused Builder", func(t *testing.T) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		b, err := mapper.NewBuilder[row](mapper.Allocator(mem))
		require.NoError(t, err)
		defer b.Release()
		require.NoError(t, b.Append(first...))
		b.NewRecordBatch().Release()
		require.NoError(t, b.Append(second...))
		rec := b.NewRecordBatch()
		defer rec.Release()
		check(t, rec)
	})
	t.Run("Encode after Encode", func(t *testing.T) {
		rec, err := mapper.Encode(first)
		require.NoError(t, err)
		rec.Release()
		rec, err = mapper.Encode(second)
		require.NoError(t, err)
		defer rec.Release()
		check(t, rec)
	})
}

// every has a column of each kind of builder, ours and arrow-go's, with
// the one that fails last: an Append that fails there has staged values in
// all the others.
type every struct {
	N     int64
	OK    bool
	S     string
	B     []byte
	View  string `arrow:"view,utf8_view"`
	Fixed [3]byte
	Dec   decimal.Decimal128 `arrow:"dec,decimal(10,2)"`
	Ints  []int32
	Views []string `arrow:"views,list_view"`
	Arr   [2]int16
	M     map[string]int32
	Dict  string   `arrow:"dict,dict"`
	Tags  []string `arrow:"tags,list_view" arrow-elem:"dict"`
	Ree   int64    `arrow:"ree,ree"`
	Text  rtCode
	At    time.Time
}

// TestEncodeFailedAppendLeavesEveryBuilderAsItWas appends good rows, rows
// whose last value cannot be encoded, then good rows again, through our
// builders and through arrow-go's at every level: each record is the one
// the good rows alone make, so nothing staged by the failed Append, in any
// builder, is in it (dictionaries included: their values are not in the
// dictionary).
func TestEncodeFailedAppendLeavesEveryBuilderAsItWas(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	row := func(i int) every {
		s := fmt.Sprintf("value-%d", i)
		return every{
			N: int64(i), OK: i%2 == 0, S: s, B: []byte(s), View: s + "-long-enough-not-to-be-inline",
			Fixed: [3]byte{byte(i), 1, 2}, Dec: decimal128.FromI64(int64(i)),
			Ints: []int32{int32(i)}, Views: []string{s, s}, Arr: [2]int16{int16(i), 3},
			M: map[string]int32{s: int32(i)}, Dict: s, Tags: []string{s}, Ree: int64(i / 2),
			Text: rtCode{Major: uint8(i)}, At: at,
		}
	}
	first := []every{row(0), row(1)}
	bad := []every{row(2), row(3)}
	bad[1].At = time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC) // before what timestamp[ns] holds
	second := []every{row(4)}

	want, err := mapper.Encode(append(first, second...), mapper.Allocator(mem))
	require.NoError(t, err)
	defer want.Release()
	ours, err := mapper.NewBuilder[every](mapper.Allocator(mem))
	require.NoError(t, err)
	defer ours.Release()
	ref, err := mapper.NewArrowGoBuilder[every](mem)
	require.NoError(t, err)
	defer ref.Release()
	for _, tc := range []struct {
		name string
		b    *mapper.Builder[every]
	}{{"our builders", ours}, {"arrow-go's builders", ref}} {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, tc.b.Append(first...))
			err := tc.b.Append(bad...)
			require.ErrorIs(t, err, mapper.ErrOverflow)
			var me *mapper.Error
			require.ErrorAs(t, err, &me)
			assert.Equal(t, "At", me.Path)
			assert.Equal(t, 3, me.Row)
			require.NoError(t, tc.b.Append(second...))
			got := tc.b.NewRecordBatch()
			defer got.Release()
			assert.True(t, array.RecordEqual(want, got), "got\n%v\nwant\n%v", got, want)
		})
	}
}

// badUTF8 is not UTF-8: a lone continuation byte after valid text.
const badUTF8 = "ok, \x80 then more"

// utf8Code is written through an As conversion to string.
type utf8Code struct{ Text string }

// utf8Name is a string whose text is given.
type utf8Name string

func (n utf8Name) MarshalText() ([]byte, error) { return []byte(n), nil }

type (
	utf8Top struct {
		ID   int64  `arrow:"id"`
		Name string `arrow:"name"`
	}
	utf8Large struct {
		Name string `arrow:"name,large_utf8"`
	}
	utf8View struct {
		Name string `arrow:"name,utf8_view"`
	}
	utf8Dict struct {
		Name string `arrow:"name,dict"`
	}
	utf8Nullable struct {
		Name *string `arrow:"name"`
	}
	utf8Converted struct {
		Name utf8Code `arrow:"name"`
	}
	utf8JSON struct {
		Doc json.RawMessage `arrow:"doc,ext=arrow.json"`
	}
	utf8Text struct {
		Name utf8Name `arrow:"name"`
	}
	utf8List struct {
		Tags []string `arrow:"tags"`
	}
	utf8ViewList struct {
		Tags []string `arrow:"tags,list_view"`
	}
	utf8ListDict struct {
		Tags []string `arrow:"tags" arrow-elem:"dict"`
	}
	utf8MapKey struct {
		Attrs map[string]int64 `arrow:"attrs"`
	}
	utf8MapValue struct {
		Attrs map[string]string `arrow:"attrs"`
	}
	utf8Inner struct {
		City string `arrow:"city"`
	}
	utf8Struct struct {
		Addr utf8Inner `arrow:"addr"`
	}
	utf8Binary struct {
		Raw  []byte `arrow:"raw"`
		View []byte `arrow:"view,binary_view"`
	}
)

// encodeOf encodes rows with a Builder: Append, then the record.
func encodeOf[T any](t *testing.T, mem memory.Allocator, rows []T) (arrow.RecordBatch, error) {
	t.Helper()
	b, err := mapper.NewBuilder[T](mapper.Allocator(mem))
	require.NoError(t, err)
	defer b.Release()
	if err := b.Append(rows...); err != nil {
		return nil, err
	}
	return b.NewRecordBatch(), nil
}

func TestEncodeRefusesAStringThatIsNotUTF8(t *testing.T) {
	bad, good := badUTF8, "fine"
	cases := []struct {
		name         string
		encode       func(mem memory.Allocator) error
		path, column string
		row          int
	}{
		{"a string", func(mem memory.Allocator) error {
			return encodeErr([]utf8Top{{1, "a"}, {2, "b"}, {3, bad}}, mem)
		}, "Name", "name", 2},
		{"a large_utf8 string", func(mem memory.Allocator) error {
			return encodeErr([]utf8Large{{"a"}, {bad}}, mem)
		}, "Name", "name", 1},
		{"a utf8_view string", func(mem memory.Allocator) error {
			return encodeErr([]utf8View{{"a"}, {"a string longer than twelve bytes"}, {bad}}, mem)
		}, "Name", "name", 2},
		{"a dictionary-encoded string", func(mem memory.Allocator) error {
			return encodeErr([]utf8Dict{{"a"}, {"a"}, {bad}}, mem)
		}, "Name", "name", 2},
		{"a string behind a pointer", func(mem memory.Allocator) error {
			return encodeErr([]utf8Nullable{{nil}, {&good}, {&bad}}, mem)
		}, "Name", "name", 2},
		{"the string of an As conversion", func(mem memory.Allocator) error {
			conv := mapper.As[utf8Code, string](nil, func(c utf8Code) (string, error) { return c.Text, nil })
			_, err := mapper.Encode([]utf8Converted{{utf8Code{"a"}}, {utf8Code{bad}}}, conv, mapper.Allocator(mem))
			return err
		}, "Name", "name", 1},
		{"a json.RawMessage into arrow.json", func(mem memory.Allocator) error {
			return encodeErr([]utf8JSON{{json.RawMessage(`{}`)}, {json.RawMessage(`"` + bad + `"`)}}, mem)
		}, "Doc", "doc", 1},
		{"the text of a TextMarshaler", func(mem memory.Allocator) error {
			return encodeErr([]utf8Text{{"a"}, {utf8Name(bad)}}, mem)
		}, "Name", "name", 1},
		{"a list element", func(mem memory.Allocator) error {
			return encodeErr([]utf8List{{[]string{"a"}}, {nil}, {[]string{"b", bad}}}, mem)
		}, "Tags[]", "tags.item", 2},
		{"an element of a list view", func(mem memory.Allocator) error {
			return encodeErr([]utf8ViewList{{[]string{"a"}}, {[]string{"b", bad}}}, mem)
		}, "Tags[]", "tags.item", 1},
		{"a dictionary-encoded list element", func(mem memory.Allocator) error {
			return encodeErr([]utf8ListDict{{[]string{"a", bad}}}, mem)
		}, "Tags[]", "tags.item", 0},
		{"a map key", func(mem memory.Allocator) error {
			return encodeErr([]utf8MapKey{{map[string]int64{"a": 1}}, {map[string]int64{"b": 2, bad: 3}}}, mem)
		}, "Attrs[key]", "attrs.entries.key", 1},
		{"a map value", func(mem memory.Allocator) error {
			return encodeErr([]utf8MapValue{{map[string]string{"a": "x"}}, {map[string]string{"b": bad}}}, mem)
		}, "Attrs[value]", "attrs.entries.value", 1},
		{"a struct field", func(mem memory.Allocator) error {
			return encodeErr([]utf8Struct{{utf8Inner{"a"}}, {utf8Inner{bad}}}, mem)
		}, "Addr.City", "addr.city", 1},
		{"a row counted from the start of the Builder's record", func(mem memory.Allocator) error {
			b, err := mapper.NewBuilder[utf8Top](mapper.Allocator(mem))
			require.NoError(t, err)
			defer b.Release()
			require.NoError(t, b.Append(utf8Top{1, "a"}, utf8Top{2, "b"}))
			return b.Append(utf8Top{3, "c"}, utf8Top{4, bad})
		}, "Name", "name", 3},
	}
	t.Run("arrow-go's full validation refuses the value too", func(t *testing.T) {
		b := array.NewStringBuilder(memory.DefaultAllocator)
		defer b.Release()
		b.Append(bad)
		arr := b.NewArray()
		defer arr.Release()
		require.Error(t, array.ValidateFull(arr))
	})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			err := c.encode(mem)
			require.ErrorIs(t, err, mapper.ErrInvalidData)
			var me *mapper.Error
			require.ErrorAs(t, err, &me)
			assert.Equal(t, c.path, me.Path)
			assert.Equal(t, c.column, me.Column)
			assert.Equal(t, c.row, me.Row)
			assert.Contains(t, err.Error(), "not UTF-8")
		})
	}
}

func TestABuilderGoesOnAfterAStringThatIsNotUTF8(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	b, err := mapper.NewBuilder[utf8List](mapper.Allocator(mem))
	require.NoError(t, err)
	defer b.Release()
	good := []utf8List{{[]string{"a", "b"}}, {nil}}
	require.NoError(t, b.Append(good...))
	require.ErrorIs(t, b.Append(utf8List{[]string{"c"}}, utf8List{[]string{badUTF8}}), mapper.ErrInvalidData)
	require.NoError(t, b.Append(utf8List{[]string{"d"}}))

	rec := b.NewRecordBatch()
	defer rec.Release()
	require.NoError(t, array.ValidateFull(rec.Column(0)), "the record is valid Arrow")
	got, err := mapper.Decode[utf8List](rec)
	require.NoError(t, err)
	assert.Equal(t, append(good, utf8List{[]string{"d"}}), got, "the failed Append left nothing behind")
}

func TestValidUTF8AndAnyBinaryRoundTrip(t *testing.T) {
	texts := []string{"", "ascii", "héllo, 世界, 🙂", "\u00e9\u0301", "\U0010FFFF", "\x00 nul is UTF-8"}
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)

	rows := make([]utf8Top, len(texts))
	for i, s := range texts {
		rows[i] = utf8Top{int64(i), s}
	}
	rec, err := encodeOf(t, mem, rows)
	require.NoError(t, err)
	defer rec.Release()
	require.NoError(t, array.ValidateFull(rec.Column(1)))
	for i, s := range texts {
		assert.Equal(t, s, rec.Column(1).(*array.String).Value(i), "arrow-go reads row %d as written", i)
	}
	got, err := mapper.Decode[utf8Top](rec)
	require.NoError(t, err)
	assert.Equal(t, rows, got)

	for _, layout := range []func() (arrow.RecordBatch, error){
		func() (arrow.RecordBatch, error) {
			return encodeOf(t, mem, []utf8View{{texts[2]}, {texts[2] + texts[2]}})
		},
		func() (arrow.RecordBatch, error) {
			return encodeOf(t, mem, []utf8Dict{{texts[2]}, {texts[2]}, {texts[4]}})
		},
		func() (arrow.RecordBatch, error) {
			return encodeOf(t, mem, []utf8MapValue{{map[string]string{texts[2]: texts[3]}}})
		},
	} {
		rec, err := layout()
		require.NoError(t, err)
		require.NoError(t, array.ValidateFull(rec.Column(0)))
		rec.Release()
	}

	// Binary columns take any bytes.
	raw := []utf8Binary{{[]byte(badUTF8), []byte(badUTF8)}, {[]byte{0xff, 0xfe}, []byte("\xc0\xaf")}}
	bin, err := encodeOf(t, mem, raw)
	require.NoError(t, err)
	defer bin.Release()
	back, err := mapper.Decode[utf8Binary](bin)
	require.NoError(t, err)
	assert.Equal(t, raw, back)
}

func TestTheUTF8ErrorSaysWhere(t *testing.T) {
	long := fmt.Sprintf("%0100d", 0) + "\xe4\xb8" + fmt.Sprintf("%0100d", 0) // a rune cut short at byte 100
	err := encodeErr([]utf8Top{{1, long}}, memory.DefaultAllocator)
	require.ErrorIs(t, err, mapper.ErrInvalidData)
	assert.Contains(t, err.Error(), "byte 100 of 202")
	assert.Less(t, len(err.Error()), 300, "a long value is not quoted whole")
}

func TestEncodeFindsTheFirstStringThatIsNotUTF8(t *testing.T) {
	const seed = 20261201
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, seed))
	pieces := []string{"a", "plain ascii text", "é", "世界", "🙂", "", "\x80", "\xe4\xb8", "\xff", "\xed\xa0\x80"}
	for trial := range 300 {
		rows := make([]utf8List, 1+r.IntN(40))
		wantRow := -1
		for i := range rows {
			tags := make([]string, r.IntN(4))
			for j := range tags {
				var b strings.Builder
				for range r.IntN(5) {
					// Mostly valid pieces; an invalid one now and then.
					p := pieces[r.IntN(6)]
					if r.IntN(30) == 0 {
						p = pieces[6+r.IntN(4)]
					}
					b.WriteString(p)
				}
				tags[j] = b.String()
				if wantRow < 0 && !utf8.ValidString(tags[j]) {
					wantRow = i
				}
			}
			rows[i].Tags = tags
		}
		err := encodeErr(rows, memory.DefaultAllocator)
		if wantRow < 0 {
			require.NoError(t, err, "trial %d", trial)
			continue
		}
		require.ErrorIs(t, err, mapper.ErrInvalidData, "trial %d", trial)
		var me *mapper.Error
		require.ErrorAs(t, err, &me)
		require.Equal(t, wantRow, me.Row, "trial %d: the first row with a string that is not UTF-8", trial)
	}
}
