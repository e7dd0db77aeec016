package mapper_test

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type (
	unitAloneUS struct {
		At time.Time `arrow:"at,unit=us"`
	}
	unitTimestampUS struct {
		At time.Time `arrow:"at,timestamp,unit=us"`
	}
	unitAloneZoned struct {
		At time.Time `arrow:"at,unit=ms,tz=Asia/Tokyo"`
	}
	unitAloneNaive struct {
		At time.Time `arrow:"at,unit=s,naive"`
	}
	unitAlonePointer struct {
		At *time.Time `arrow:"at,unit=us"`
	}
	unitAloneElems struct {
		At []time.Time `arrow:"at" arrow-elem:"unit=ms"`
	}
	unitAloneDuration struct {
		D time.Duration `arrow:"d,unit=ms"`
	}
	unitAloneInt struct {
		N int64 `arrow:"n,unit=ms"`
	}
	zoneAloneDuration struct {
		D time.Duration `arrow:"d,unit=ms,tz=UTC"`
	}
)

func TestAUnitAloneIsTheTemporalTypeOfTheGoType(t *testing.T) {
	at := time.Date(2024, 3, 1, 12, 30, 45, 123_456_789, time.UTC)
	cases := []struct {
		name string
		run  func(t *testing.T, mem memory.Allocator)
	}{
		{"unit=us on a time.Time is timestamp[us, UTC], as timestamp,unit=us is", func(t *testing.T, mem memory.Allocator) {
			requireSchemaType[unitAloneUS](t, "timestamp[us, tz=UTC]")
			requireSchemaType[unitTimestampUS](t, "timestamp[us, tz=UTC]")
			got := roundTrip(t, mem, []unitAloneUS{{at}})
			assert.Equal(t, at.Truncate(time.Microsecond), got[0].At, "encoded in microseconds, truncated")
		}},
		{"unit=ms with tz= on a time.Time is a timestamp in that zone", func(t *testing.T, mem memory.Allocator) {
			requireSchemaType[unitAloneZoned](t, "timestamp[ms, tz=Asia/Tokyo]")
			got := roundTrip(t, mem, []unitAloneZoned{{at}})
			assert.True(t, at.Truncate(time.Millisecond).Equal(got[0].At))
			assert.Equal(t, "Asia/Tokyo", got[0].At.Location().String())
		}},
		{"unit=s with naive on a time.Time is a timestamp without a zone", func(t *testing.T, mem memory.Allocator) {
			requireSchemaType[unitAloneNaive](t, "timestamp[s]")
			got := roundTrip(t, mem, []unitAloneNaive{{at}})
			assert.Equal(t, at.Truncate(time.Second), got[0].At)
		}},
		{"unit=us on a *time.Time is a nullable timestamp[us]", func(t *testing.T, mem memory.Allocator) {
			requireSchemaType[unitAlonePointer](t, "timestamp[us, tz=UTC]")
			got := roundTrip(t, mem, []unitAlonePointer{{&at}, {nil}})
			require.NotNil(t, got[0].At)
			assert.Equal(t, at.Truncate(time.Microsecond), *got[0].At)
			assert.Nil(t, got[1].At)
		}},
		{"unit=ms in arrow-elem on []time.Time is a list of timestamp[ms]", func(t *testing.T, mem memory.Allocator) {
			requireSchemaType[unitAloneElems](t, "list<item: timestamp[ms, tz=UTC]>")
		}},
		{"unit=ms on a time.Duration is duration[ms]", func(t *testing.T, mem memory.Allocator) {
			requireSchemaType[unitAloneDuration](t, "duration[ms]")
			got := roundTrip(t, mem, []unitAloneDuration{{1500 * time.Millisecond}})
			assert.Equal(t, 1500*time.Millisecond, got[0].D)
		}},
		{"decoding with unit=us reads the timestamps of that unit only, as timestamp,unit=us does", func(t *testing.T, mem memory.Allocator) {
			for _, dt := range []arrow.DataType{
				&arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"},
				&arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"},
				arrow.FixedWidthTypes.Time64us,
				arrow.FixedWidthTypes.Date32,
			} {
				schema := fxSchema("at", dt)
				_, alone := mapper.New[unitAloneUS](schema)
				_, pinned := mapper.New[unitTimestampUS](schema)
				if pinned == nil {
					assert.NoError(t, alone, "%s", dt)
					continue
				}
				assert.ErrorIs(t, alone, mapper.ErrTypeMismatch, "%s", dt)
			}
			_, err := mapper.New[unitAloneUS](fxSchema("at", &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}))
			require.NoError(t, err, "timestamp[us] is what the tag reads")
		}},
		{"unit= alone on an int64 is an ErrTag both ways: it implies no temporal type", func(t *testing.T, mem memory.Allocator) {
			_, err := mapper.SchemaOf[unitAloneInt]()
			fxRequireError(t, err, mapper.ErrTag, "N", "n", -1)
			assert.Contains(t, err.Error(), "unit=ms does not apply to int64")
			_, err = mapper.New[unitAloneInt](fxSchema("n", arrow.FixedWidthTypes.Duration_ms))
			fxRequireError(t, err, mapper.ErrTag, "N", "n", -1)
		}},
		{"tz= with a unit alone on a time.Duration is an ErrTag", func(t *testing.T, mem memory.Allocator) {
			_, err := mapper.SchemaOf[zoneAloneDuration]()
			fxRequireError(t, err, mapper.ErrTag, "D", "d", -1)
			assert.Contains(t, err.Error(), "tz=UTC does not apply to time.Duration")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			tc.run(t, mem)
		})
	}
}

// requireSchemaType checks the Arrow type SchemaOf gives T's one column.
func requireSchemaType[T any](t *testing.T, want string) {
	t.Helper()
	schema, err := mapper.SchemaOf[T]()
	require.NoError(t, err)
	require.Equal(t, 1, schema.NumFields())
	assert.Equal(t, want, schema.Field(0).Type.String())
}

// roundTrip encodes rows and decodes them back.
func roundTrip[T any](t *testing.T, mem memory.Allocator, rows []T) []T {
	t.Helper()
	rec, err := mapper.Encode(rows, mapper.Allocator(mem))
	require.NoError(t, err)
	defer rec.Release()
	got, err := mapper.Decode[T](rec)
	require.NoError(t, err)
	require.Len(t, got, len(rows))
	return got
}
