package mapper_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

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
