package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/mapper"
)

// A timestamp column in the zone "Local" is refused by head as the
// library refuses to decode it (the machine's zone would change what is
// printed), and a named zone is printed in that zone, as the library
// decodes it.
func TestHeadReadsATimestampsZoneAsTheLibraryDecodesIt(t *testing.T) {
	for _, c := range []struct {
		zone string
		want string // the line head prints; "" when refused
	}{
		{"Local", ""},
		{"Asia/Tokyo", `{"ts":"1970-01-01T09:00:01+09:00"}`},
		{"+05:30", `{"ts":"1970-01-01T05:30:01+05:30"}`},
	} {
		t.Run(c.zone, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			schema := arrow.NewSchema([]arrow.Field{{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Second, TimeZone: c.zone}}}, nil)
			b := array.NewRecordBuilder(mem, schema)
			defer b.Release()
			b.Field(0).(*array.TimestampBuilder).Append(1)
			rec := b.NewRecordBatch()
			defer rec.Release()
			type row struct {
				TS time.Time `arrow:"ts"`
			}
			rows, decodeErr := mapper.Decode[row](rec)

			data, err := ipcFileOf(mem, rec)
			require.NoError(t, err)
			path := filepath.Join(t.TempDir(), "ts.arrow")
			require.NoError(t, os.WriteFile(path, data, 0o600))
			stdout, stderr, status := arrowmap(t, nil, "head", path)
			if c.want == "" {
				require.Error(t, decodeErr, "the library refuses the zone")
				assert.Contains(t, decodeErr.Error(), `time zone "Local" is not portable`)
				assert.Equal(t, 1, status, "stdout: %s", stdout)
				assert.Contains(t, stderr, `time zone "Local" is not portable`)
				return
			}
			require.NoError(t, decodeErr)
			require.Equal(t, 0, status, "stderr: %s", stderr)
			requireJSONLines(t, []string{c.want}, stdout)
			js, err := rows[0].TS.MarshalJSON()
			require.NoError(t, err)
			assert.JSONEq(t, `{"ts":`+string(js)+`}`, stdout, "what the library decodes")
		})
	}
}
