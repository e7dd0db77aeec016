package main

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// appendInstant agrees with time.Time wherever time.Time formats the
// instant as RFC 3339 (years 0–9999), and with time.Time's calendar past
// them, in UTC and in zones whose offsets change (and have seconds, before
// 1900).
func TestAppendInstantAgreesWithTimeTime(t *testing.T) {
	const seed = 20250115
	t.Logf("seeded with %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	zones := []string{"UTC", "Europe/Paris", "US/Eastern", "Asia/Kolkata", "Pacific/Chatham"}
	for trial := range 20000 {
		loc, err := time.LoadLocation(zones[trial%len(zones)])
		require.NoError(t, err)
		unit := arrow.TimeUnit(trial / len(zones) % 4)
		x := rng.Int64() >> rng.IntN(40) // every magnitude
		if rng.IntN(2) == 0 {
			x = -x
		}
		per := perSecond(unit)
		sec, nsec := floorDiv(x, per), (x-floorDiv(x, per)*per)*(1e9/per)
		if sec > 1<<62 || sec < -(1<<62) {
			continue // past time.Time
		}
		ref := time.Unix(sec, nsec).In(loc)
		layout := "-01-02T15:04:05.999999999Z07:00"
		if _, off := ref.Zone(); off%60 != 0 {
			layout += ":00"
		}
		var year string
		switch y := ref.Year(); {
		case y < 0:
			year = "-" + leftPad(-y)
		case y > 9999:
			year = "+" + strconv.Itoa(y)
		default:
			year = leftPad(y)
		}
		want := `"` + year + ref.Format(layout) + `"`
		if y := ref.Year(); y >= 0 && y <= 9999 && !strings.Contains(layout, ":00:00") {
			js, err := json.Marshal(ref)
			require.NoError(t, err)
			require.Equal(t, string(js), want, "encoding/json's form")
		}
		require.Equal(t, want, string(appendInstant(nil, x, unit, loc)), "%d %s in %s", x, unit, loc)
	}
	assert.Equal(t, `"+292277026596-12-04T15:30:07Z"`, string(appendInstant(nil, math.MaxInt64, arrow.Second, time.UTC)))
	assert.Equal(t, `"-292277022657-01-27T08:29:52Z"`, string(appendInstant(nil, math.MinInt64, arrow.Second, time.UTC)))
}

func leftPad(n int) string {
	s := strconv.Itoa(n)
	return strings.Repeat("0", max(0, 4-len(s))) + s
}

// head prints what encoding/json cannot: NaN and infinities of every float
// width, at top level and inside lists, maps and structs, timestamps and
// dates past year 9999 and before year 0, and durations past int64
// nanoseconds.
func TestHeadPrintsEveryValidValue(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	inner := arrow.StructOf(arrow.Field{Name: "f16", Type: arrow.FixedWidthTypes.Float16}, arrow.Field{Name: "f32", Type: arrow.PrimitiveTypes.Float32})
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64},
		{Name: "f32", Type: arrow.PrimitiveTypes.Float32},
		{Name: "f16", Type: arrow.FixedWidthTypes.Float16},
		{Name: "list", Type: arrow.ListOf(arrow.PrimitiveTypes.Float64)},
		{Name: "map", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Float32)},
		{Name: "struct", Type: inner},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Second, TimeZone: "UTC"}},
		{Name: "day", Type: arrow.FixedWidthTypes.Date32},
		{Name: "dur", Type: &arrow.DurationType{Unit: arrow.Second}},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	nan, inf := math.NaN(), math.Inf(1)
	for _, f := range []float64{nan, inf, -inf, 1.5} {
		b.Field(0).(*array.Float64Builder).Append(f)
		b.Field(1).(*array.Float32Builder).Append(float32(f))
		b.Field(2).(*array.Float16Builder).Append(float16.New(float32(f)))
		lb := b.Field(3).(*array.ListBuilder)
		lb.Append(true)
		lb.ValueBuilder().(*array.Float64Builder).AppendValues([]float64{f, -f}, nil)
		mb := b.Field(4).(*array.MapBuilder)
		mb.Append(true)
		mb.KeyBuilder().(*array.StringBuilder).Append("k")
		mb.ItemBuilder().(*array.Float32Builder).Append(float32(f))
		sb := b.Field(5).(*array.StructBuilder)
		sb.Append(true)
		sb.FieldBuilder(0).(*array.Float16Builder).Append(float16.New(float32(f)))
		sb.FieldBuilder(1).(*array.Float32Builder).Append(float32(f))
	}
	// 10000-01-01, -0001-12-31, the extremes of int64 seconds, and 1970.
	ts := []int64{253402300800, -62167305600, math.MaxInt64, 0}
	days := []int32{2932897, -719529, math.MaxInt32, 0}
	for i := range 4 {
		b.Field(6).(*array.TimestampBuilder).Append(arrow.Timestamp(ts[i]))
		b.Field(7).(*array.Date32Builder).Append(arrow.Date32(days[i]))
		b.Field(8).(*array.DurationBuilder).Append(arrow.Duration([]int64{math.MinInt64, math.MaxInt64, 9223372036, 1}[i]))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	data, err := ipcFileOf(mem, rec)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "values.arrow")
	require.NoError(t, os.WriteFile(path, data, 0o600))

	stdout, stderr, status := arrowmap(t, nil, "head", path)
	require.Equal(t, 0, status, "stderr: %s", stderr)
	requireJSONLines(t, []string{
		`{"f64":"NaN","f32":"NaN","f16":"NaN","list":["NaN","NaN"],"map":{"k":"NaN"},"struct":{"f16":"NaN","f32":"NaN"},"ts":"+10000-01-01T00:00:00Z","day":"+10000-01-01T00:00:00Z","dur":"-9223372036854775808s"}`,
		`{"f64":"+Inf","f32":"+Inf","f16":"+Inf","list":["+Inf","-Inf"],"map":{"k":"+Inf"},"struct":{"f16":"+Inf","f32":"+Inf"},"ts":"-0001-12-31T00:00:00Z","day":"-0001-12-31T00:00:00Z","dur":"9223372036854775807s"}`,
		`{"f64":"-Inf","f32":"-Inf","f16":"-Inf","list":["-Inf","+Inf"],"map":{"k":"-Inf"},"struct":{"f16":"-Inf","f32":"-Inf"},"ts":"+292277026596-12-04T15:30:07Z","day":"+5881580-07-11T00:00:00Z","dur":9223372036000000000}`,
		`{"f64":1.5,"f32":1.5,"f16":1.5,"list":[1.5,-1.5],"map":{"k":1.5},"struct":{"f16":1.5,"f32":1.5},"ts":"1970-01-01T00:00:00Z","day":"1970-01-01T00:00:00Z","dur":1000000000}`,
	}, stdout)
}

// Every file of Arrow's integration suite prints, as many lines as it has
// rows, but those whose values are outside the spec (decimals with more
// digits than their precision) and the unions, which have no Go type.
func TestHeadPrintsEveryIntegrationFile(t *testing.T) {
	files, err := filepath.Glob("../../testdata/arrow-integration/1.0.0-littleendian/*.arrow_file")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	refused := map[string]string{
		"generated_decimal.arrow_file":    "has more digits than decimal(3, 2) holds",
		"generated_decimal256.arrow_file": "has more digits than decimal256(37, 5) holds",
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			stdout, stderr, status := arrowmap(t, nil, "head", "-n", "1000000", path)
			if why, ok := refused[name]; ok {
				assert.Equal(t, 1, status)
				assert.Contains(t, stderr, why)
				return
			}
			require.Equal(t, 0, status, "stderr: %s", stderr)
			f, err := os.Open(path)
			require.NoError(t, err)
			defer f.Close()
			fr, err := ipc.NewFileReader(f)
			require.NoError(t, err)
			defer fr.Close()
			rows := 0
			for i := range fr.NumRecords() {
				rec, err := fr.RecordBatch(i)
				require.NoError(t, err)
				rows += int(rec.NumRows())
			}
			lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			if rows == 0 {
				require.Empty(t, stdout)
				return
			}
			require.Len(t, lines, rows)
			for i, line := range lines {
				require.True(t, json.Valid([]byte(line)), "line %d: %s", i+1, line)
			}
		})
	}
}
