package mapper

import (
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/stretchr/testify/assert"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/tags"
	"github.com/arrowmap/arrowmap/views"
)

// The decoder's sets of types come from the table's rows; each is the set
// the decoder spelled out by ID before it read the table.
func TestTheDecodersSetsOfTypesFromTheTableAreTheOnesItSpelledOut(t *testing.T) {
	of := views.AcceptOf
	cases := []struct {
		name      string
		got, want views.Accept
	}{
		{"the null type", nullAccept, of(arrow.NULL)},
		{"what a time.Time reads", timeAccept, of(arrow.TIMESTAMP, arrow.DATE32, arrow.DATE64, arrow.TIME32, arrow.TIME64)},
		{"what a time.Time reads with Strict", timestampAccept, of(arrow.TIMESTAMP)},
		{"what a time.Duration reads", durationAccept, of(arrow.DURATION, arrow.TIME32, arrow.TIME64)},
		{"what a time.Duration reads with Strict", durationOnly, of(arrow.DURATION)},
		{"bool", views.Bools, of(arrow.BOOL)},
		{"what a float16.Num reads", views.AcceptOf(valueTypes[reflect.TypeFor[float16.Num]()].dt.ID()), of(arrow.FLOAT16)},
		{"the plain strings", plainStrings, of(arrow.STRING)},
		{"the plain binaries", plainBinaries, of(arrow.BINARY)},
		{"the plain lists", plainLists, of(arrow.LIST)},
		{"fixed-size binary", views.FixedBinaries, of(arrow.FIXED_SIZE_BINARY)},
		{"the storage of arrow.bool8", bool8Storage, of(arrow.INT8)},
		{"what the tag option large pins", largeAccept, of(arrow.LARGE_STRING, arrow.LARGE_BINARY, arrow.LARGE_LIST, arrow.LARGE_LIST_VIEW)},
		{"what the tag option view pins", viewAccept, of(arrow.STRING_VIEW, arrow.BINARY_VIEW, arrow.LIST_VIEW, arrow.LARGE_LIST_VIEW)},
		{"struct", views.Structs, of(arrow.STRUCT)},
		{"map", views.Maps, of(arrow.MAP)},
		{"fixed-size list", views.FixedLists, of(arrow.FIXED_SIZE_LIST)},
		{"a union tag", unionAccept(tags.AnyUnion), of(arrow.SPARSE_UNION, arrow.DENSE_UNION)},
		{"a sparse union tag", unionAccept(tags.SparseUnion), of(arrow.SPARSE_UNION)},
		{"a dense union tag", unionAccept(tags.DenseUnion), of(arrow.DENSE_UNION)},
		{"the temporal storage an int32 holds", temporalStorageAccept(integerWidthOf(reflect.TypeFor[int32]())), of(arrow.DATE32, arrow.TIME32)},
		{"the temporal storage an int64 holds", temporalStorageAccept(integerWidthOf(reflect.TypeFor[int64]())),
			of(arrow.DATE32, arrow.TIME32, arrow.DATE64, arrow.TIME64, arrow.TIMESTAMP, arrow.DURATION)},
		{"the temporal storage an int16 holds", temporalStorageAccept(integerWidthOf(reflect.TypeFor[int16]())), 0},
		{"the temporal storage a uint64 holds", temporalStorageAccept(integerWidthOf(reflect.TypeFor[uint64]())), 0},
		{"the variants Strict leaves to a pin", acceptRows((*arrowtype.Row).Variant), of(arrow.LARGE_STRING, arrow.STRING_VIEW,
			arrow.LARGE_BINARY, arrow.BINARY_VIEW, arrow.FIXED_SIZE_BINARY, arrow.LARGE_LIST, arrow.LARGE_LIST_VIEW)},
	}
	for _, c := range cases {
		assert.Equal(t, c.want.String(), c.got.String(), c.name)
	}
}

func TestEachEncodingPinIsTheTypeIDTheEncoderLaidItOutAs(t *testing.T) {
	assert.Equal(t, map[tags.Encoding]arrow.Type{
		tags.List: arrow.LIST, tags.LargeList: arrow.LARGE_LIST, tags.ListView: arrow.LIST_VIEW,
		tags.LargeListView: arrow.LARGE_LIST_VIEW, tags.FixedSizeList: arrow.FIXED_SIZE_LIST,
		tags.Utf8: arrow.STRING, tags.LargeUtf8: arrow.LARGE_STRING, tags.Utf8View: arrow.STRING_VIEW,
		tags.Binary: arrow.BINARY, tags.LargeBinary: arrow.LARGE_BINARY, tags.BinaryView: arrow.BINARY_VIEW,
		tags.FixedSizeBinary: arrow.FIXED_SIZE_BINARY, tags.Map: arrow.MAP,
	}, func() map[tags.Encoding]arrow.Type {
		ids := map[tags.Encoding]arrow.Type{}
		for e := tags.EncodingDefault + 1; pinnedRow(e) != nil; e++ {
			ids[e] = pinnedRow(e).ID
		}
		return ids
	}())
}

// GoTypeOf's scalar Go types come from the table's rows, and Null from
// mapper: each is the one it spelled out by ID before.
func TestGoTypeOfGivesEveryScalarTheGoTypeItSpelledOut(t *testing.T) {
	want := map[arrow.Type]reflect.Type{
		arrow.NULL: reflect.TypeFor[Null](), arrow.BOOL: reflect.TypeFor[bool](),
		arrow.INT8: reflect.TypeFor[int8](), arrow.INT16: reflect.TypeFor[int16](), arrow.INT32: reflect.TypeFor[int32](), arrow.INT64: reflect.TypeFor[int64](),
		arrow.UINT8: reflect.TypeFor[uint8](), arrow.UINT16: reflect.TypeFor[uint16](), arrow.UINT32: reflect.TypeFor[uint32](), arrow.UINT64: reflect.TypeFor[uint64](),
		arrow.FLOAT32: reflect.TypeFor[float32](), arrow.FLOAT64: reflect.TypeFor[float64](),
		arrow.STRING: reflect.TypeFor[string](), arrow.LARGE_STRING: reflect.TypeFor[string](), arrow.STRING_VIEW: reflect.TypeFor[string](),
		arrow.BINARY: reflect.TypeFor[[]byte](), arrow.LARGE_BINARY: reflect.TypeFor[[]byte](), arrow.BINARY_VIEW: reflect.TypeFor[[]byte](),
		arrow.INTERVAL_MONTHS: reflect.TypeFor[arrow.MonthInterval](), arrow.INTERVAL_DAY_TIME: reflect.TypeFor[arrow.DayTimeInterval](),
		arrow.INTERVAL_MONTH_DAY_NANO: reflect.TypeFor[arrow.MonthDayNanoInterval](),
	}
	for id, typ := range want {
		dt, ok := arrowtype.Plain(id)
		if !assert.True(t, ok, id) {
			continue
		}
		lv, err := valueLevelOf(dt, where{})
		if assert.NoError(t, err, id) {
			assert.Equal(t, typ, lv.typ, id)
			assert.Empty(t, lv.opts[min(len(lv.opts), 1):], id)
		}
	}
	for _, u := range []arrow.TimeUnit{arrow.Second, arrow.Millisecond, arrow.Microsecond} {
		lv, err := valueLevelOf(&arrow.DurationType{Unit: u}, where{})
		if assert.NoError(t, err) {
			assert.Equal(t, reflect.TypeFor[int64](), lv.typ, "duration[%s] is its storage", u)
			assert.Equal(t, []string{"duration", "unit=" + u.String()}, lv.opts)
		}
	}
}
