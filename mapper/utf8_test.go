package mapper_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
