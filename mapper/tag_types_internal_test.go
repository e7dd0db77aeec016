package mapper

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/tags"
)

func TestEveryPinOfATagNamesARowOfTheTable(t *testing.T) {
	for e := tags.EncodingDefault + 1; e.String() != "" && e < 64; e++ {
		if r := pinnedRow(e); r == nil {
			if _, err := tags.ParseOptions(e.String()); err == nil {
				t.Errorf("the tag %q names no row", e)
			}
		}
	}
	for _, tm := range []tags.Temporal{tags.Timestamp, tags.Date32, tags.Date64, tags.Time32, tags.Time64, tags.Duration} {
		r := temporalRow(tm)
		require.NotNil(t, r, tm.String())
		assert.Equal(t, tm.String(), r.Name)
	}
}

func TestATemporalPinTakesTheTagsUnitElseTheTypesDefault(t *testing.T) {
	cases := map[string]string{
		"timestamp":               "timestamp[ns, tz=UTC]",
		"timestamp,naive,unit=ms": "timestamp[ms]",
		"timestamp,tz=Asia/Tokyo": "timestamp[ns, tz=Asia/Tokyo]",
		"time32":                  "time32[ms]",
		"time32,unit=s":           "time32[s]",
		"time64":                  "time64[ns]",
		"time64,unit=us":          "time64[us]",
		"duration,unit=s":         "duration[s]",
		"date64":                  "date64",
		"date32":                  "date32",
	}
	for text, want := range cases {
		tag, err := tags.ParseOptions(text)
		require.NoError(t, err, text)
		dt, err := temporalOf(temporalRow(tag.Temporal), tag)
		require.NoError(t, err, text)
		assert.Equal(t, want, dt.String(), text)
	}
	tag, err := tags.ParseOptions("time32,unit=ns")
	if err == nil { // a unit the type does not take, if the grammar lets it through
		_, err = temporalOf(temporalRow(tag.Temporal), tag)
		assert.Error(t, err)
	}
}
