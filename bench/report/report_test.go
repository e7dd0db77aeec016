package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sample is go test output as it comes, with two runs of each benchmark.
const sample = `goos: linux
goarch: amd64
pkg: github.com/arrowmap/arrowmap/bench
cpu: AMD EPYC
BenchmarkSlice/i64_1M/fast-2    	143740480	         8.0 ns/op	       0 B/op	       0 allocs/op
BenchmarkSlice/i64_1M/fallback-2         	    2000	       400 ns/op	     544 B/op	       6 allocs/op
BenchmarkSlice/i64_1M/arrow-2            	    2000	       160 ns/op	     176 B/op	       2 allocs/op
BenchmarkSlice/i64_1M/fast-2    	143740480	         10.0 ns/op	       0 B/op	       0 allocs/op
BenchmarkSlice/i64_1M/fallback-2         	    2000	       420 ns/op	     544 B/op	       6 allocs/op
BenchmarkSlice/i64_1M/arrow-2            	    2000	       200 ns/op	     176 B/op	       2 allocs/op
BenchmarkDecode/flat/hand-2 	 100	 1000 ns/op	 64.00 MB/s	 1000000 rows/s	 128 B/op	 1 allocs/op
BenchmarkDecode/flat/arreflect-2 	 100	 5000 ns/op	 12.80 MB/s	 200000 rows/s	 4096 B/op	 50 allocs/op
BenchmarkDecode/flat/mapper-2 	 100	 1500 ns/op	 42.67 MB/s	 666667 rows/s	 256 B/op	 2 allocs/op
    decode_test.go:42: a log line is not a result
--- BENCH: BenchmarkDecode/flat/mapper-2
BenchmarkTop 	 10	 7 ns/op
PASS
ok  	github.com/arrowmap/arrowmap/bench	12.3s
`

func TestParseLine(t *testing.T) {
	tests := []struct {
		name string
		line string
		ok   bool
		want result
	}{
		{
			name: "a benchmem line gives its name without the procs suffix and its three metrics",
			line: "BenchmarkSlice/i64_1M/fast-2    	143740480	         8.371 ns/op	       0 B/op	       0 allocs/op",
			ok:   true,
			want: result{Name: "BenchmarkSlice/i64_1M/fast", Procs: 2, Iters: 143740480, Metrics: []metric{
				{"ns/op", 8.371}, {"B/op", 0}, {"allocs/op", 0},
			}},
		},
		{
			name: "custom metrics are kept in the order of the line",
			line: "BenchmarkDecode/flat/hand-8 	 100	 1000 ns/op	 64.00 MB/s	 1e+06 rows/s",
			ok:   true,
			want: result{Name: "BenchmarkDecode/flat/hand", Procs: 8, Iters: 100, Metrics: []metric{
				{"ns/op", 1000}, {"MB/s", 64}, {"rows/s", 1e6},
			}},
		},
		{
			name: "a name without a suffix ran with GOMAXPROCS 1",
			line: "BenchmarkTop 	 10	 7 ns/op",
			ok:   true,
			want: result{Name: "BenchmarkTop", Procs: 1, Iters: 10, Metrics: []metric{{"ns/op", 7}}},
		},
		{
			name: "a dash that is not followed by a number stays in the name",
			line: "BenchmarkSlice/list-of-i64 	 10	 7 ns/op",
			ok:   true,
			want: result{Name: "BenchmarkSlice/list-of-i64", Procs: 1, Iters: 10, Metrics: []metric{{"ns/op", 7}}},
		},
		{name: "a header is not a result", line: "cpu: AMD EPYC"},
		{name: "a BENCH log header is not a result", line: "--- BENCH: BenchmarkDecode/flat/mapper-2"},
		{name: "a name printed alone before a log is not a result", line: "BenchmarkDecode/flat/mapper-2"},
		{name: "a value that is not a number is not a result", line: "BenchmarkX-2 10 fast ns/op"},
		{name: "a value without its unit is not a result", line: "BenchmarkX-2 10 7 ns/op 3"},
		{name: "a line whose iterations are not a count is not a result", line: "BenchmarkX-2 many 7 ns/op"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := parseLine(tt.line)
			require.Equal(t, tt.ok, ok)
			if ok {
				assert.Equal(t, tt.want, got)
			}
		})
	}
}

func TestParseKeepsOnlyBenchmarkLines(t *testing.T) {
	results, err := parse(strings.NewReader(sample))
	require.NoError(t, err)
	require.Len(t, results, 10)
	assert.Equal(t, "BenchmarkSlice/i64_1M/fast", results[0].Name)
	assert.Equal(t, "BenchmarkTop", results[9].Name)
}

func TestMedian(t *testing.T) {
	tests := []struct {
		name string
		xs   []float64
		want float64
	}{
		{"one value is its own median", []float64{3}, 3},
		{"an odd count takes the middle of the sorted values", []float64{9, 1, 5}, 5},
		{"an even count takes the mean of the two middle values", []float64{4, 1, 3, 10}, 3.5},
		{"an outlier does not move it", []float64{8, 8, 8, 9, 1000}, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := append([]float64(nil), tt.xs...)
			assert.Equal(t, tt.want, median(in))
			assert.Equal(t, tt.xs, in, "median must not reorder its input")
		})
	}
	t.Run("no values have no median", func(t *testing.T) {
		assert.True(t, math.IsNaN(median(nil)))
	})
}

func TestSplitName(t *testing.T) {
	tests := []struct{ name, in, group, variant string }{
		{"the variant is the last element", "BenchmarkSlice/i64_1M/fast", "BenchmarkSlice/i64_1M", "fast"},
		{"deeper names group by everything before the last slash", "BenchmarkDecode/nested/1k/hand", "BenchmarkDecode/nested/1k", "hand"},
		{"a top-level benchmark is a variant of the empty group", "BenchmarkTop", "", "BenchmarkTop"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, v := splitName(tt.in)
			assert.Equal(t, tt.group, g)
			assert.Equal(t, tt.variant, v)
		})
	}
}

func TestSummarize(t *testing.T) {
	results, err := parse(strings.NewReader(sample))
	require.NoError(t, err)
	groups := summarize(results)
	require.Len(t, groups, 3)

	slice := groups[0]
	assert.Equal(t, "BenchmarkSlice/i64_1M", slice.Name)
	assert.Empty(t, slice.Custom)
	require.Len(t, slice.Variants, 3)
	fast := slice.Variants[0]
	assert.Equal(t, "fast", fast.Name)
	assert.Equal(t, 2, fast.Runs)
	assert.Equal(t, 9.0, fast.Median["ns/op"])
	assert.InDelta(t, 2.0/9, fast.Spread, 1e-12)
	assert.Equal(t, 544.0, slice.Variants[1].Median["B/op"])
	assert.Equal(t, 6.0, slice.Variants[1].Median["allocs/op"])

	decode := groups[1]
	assert.Equal(t, "BenchmarkDecode/flat", decode.Name)
	assert.Equal(t, []string{"MB/s", "rows/s"}, decode.Custom)
	assert.Equal(t, []string{"hand", "arreflect", "mapper"}, variantNames(decode))

	top := groups[2]
	assert.Equal(t, "", top.Name)
	assert.Equal(t, []string{"BenchmarkTop"}, variantNames(top))
	_, hasBytes := top.Variants[0].Median["B/op"]
	assert.False(t, hasBytes, "a unit no run reported has no median")
}

func TestRatios(t *testing.T) {
	results, err := parse(strings.NewReader(sample))
	require.NoError(t, err)
	groups := summarize(results)

	tests := []struct {
		name    string
		group   int
		variant string
		to      string
		want    float64
	}{
		{"fast is its own baseline", 0, "fast", "fast", 1},
		{"arrow over fast is the median times' quotient", 0, "arrow", "fast", 180.0 / 9},
		{"fallback over fast", 0, "fallback", "fast", 410.0 / 9},
		{"mapper over hand", 1, "mapper", "hand", 1.5},
		{"mapper over arreflect", 1, "mapper", "arreflect", 0.3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := groups[tt.group]
			v, ok := g.variant(tt.variant)
			require.True(t, ok)
			got, ok := g.ratio(v, tt.to)
			require.True(t, ok)
			assert.InDelta(t, tt.want, got, 1e-9)
		})
	}
	t.Run("a ratio to a missing variant is not reported", func(t *testing.T) {
		_, ok := groups[0].ratio(groups[0].Variants[0], "arreflect")
		assert.False(t, ok)
	})
}

func TestBaseline(t *testing.T) {
	tests := []struct {
		name     string
		variants []string
		want     string
		ok       bool
	}{
		{"hand wins over fast", []string{"fast", "hand", "mapper"}, "hand", true},
		{"fast when there is no hand", []string{"arrow", "fast", "fallback"}, "fast", true},
		{"none when there is neither", []string{"json", "arreflect"}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var g group
			for _, v := range tt.variants {
				g.Variants = append(g.Variants, variant{Name: v})
			}
			got, ok := g.baseline()
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestRender(t *testing.T) {
	results, err := parse(strings.NewReader(sample))
	require.NoError(t, err)
	var out strings.Builder
	render(&out, summarize(results), nil)
	got := out.String()

	assert.Contains(t, got, `#### BenchmarkSlice/i64_1M

| variant | time/op | ± | B/op | allocs/op | vs fast |
| :-- | --: | --: | --: | --: | --: |
| fast | 9.00 ns | 22% | 0 | 0 | 1.00× |
| fallback | 410 ns | 5% | 544 | 6 | 45.6× |
| arrow | 180 ns | 22% | 176 | 2 | 20.0× |
`)
	assert.Contains(t, got, `| variant | time/op | ± | B/op | allocs/op | MB/s | rows/s | vs hand | vs arreflect |
| :-- | --: | --: | --: | --: | --: | --: | --: | --: |
| hand | 1.00 µs | 0% | 128 | 1 | 64.0 | 1000000 | 1.00× | 0.20× |
| arreflect | 5.00 µs | 0% | 4096 | 50 | 12.8 | 200000 | 5.00× | 1.00× |
| mapper | 1.50 µs | 0% | 256 | 2 | 42.7 | 666667 | 1.50× | 0.30× |
`)
	assert.Contains(t, got, "#### top-level benchmarks\n\n| variant | time/op | ± | B/op | allocs/op |\n")
	assert.Contains(t, got, "| BenchmarkTop | 7.00 ns | 0% | – | – |\n")
}

func TestFormat(t *testing.T) {
	tests := []struct {
		name   string
		format func(float64) string
		in     float64
		want   string
	}{
		{"a few nanoseconds keep two decimals", formatTime, 8.371, "8.37 ns"},
		{"hundreds of nanoseconds have none", formatTime, 184.9, "185 ns"},
		{"microseconds take over at 1000 ns", formatTime, 13086, "13.1 µs"},
		{"a value that would round to 1000 moves up a unit", formatTime, 999.7, "1.00 µs"},
		{"milliseconds", formatTime, 65_468_000, "65.5 ms"},
		{"seconds are the largest unit", formatTime, 2.5e12, "2500 s"},
		{"a small metric keeps three significant digits", formatNumber, 0.01633, "0.0163"},
		{"zero is plain", formatNumber, 0, "0.00"},
		{"a whole count has no decimals", formatCount, 544, "544"},
		{"a median between two counts has one", formatCount, 6.5, "6.5"},
		{"a ratio has three significant digits", formatRatio, 45.555, "45.6×"},
		{"a large ratio has no decimals", formatRatio, 2136.4, "2136×"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.format(tt.in))
		})
	}
}

func TestShellJoinQuotesWhatAShellWouldExpand(t *testing.T) {
	assert.Equal(t, `test -run '^$' -bench 'Slice|Decode' ./bench/`,
		shellJoin([]string{"test", "-run", "^$", "-bench", "Slice|Decode", "./bench/"}))
}

func variantNames(g group) []string {
	var names []string
	for _, v := range g.Variants {
		names = append(names, v.Name)
	}
	return names
}

// duckSample is go test output of the duckdb module's benchmarks.
const duckSample = `BenchmarkQuery/mapper-2   3   300000000 ns/op   234733504 B/op   52537 allocs/op
BenchmarkQuery/hand-2     3   500000000 ns/op   570930088 B/op   2371195 allocs/op
BenchmarkQuery/export-2   3   100000000 ns/op   3862984 B/op   37838 allocs/op
BenchmarkQuery/scan-2     3   900000000 ns/op   761188352 B/op   10339298 allocs/op
BenchmarkInsert/mapper-2     3   250000000 ns/op   90117336 B/op   3329 allocs/op
BenchmarkInsert/appender-2   3   625000000 ns/op   74625936 B/op   5661327 allocs/op
BenchmarkOther-2   3   7 ns/op
`

func TestRenderGivesEachGroupARatioColumnToEachVariantOfVsItHas(t *testing.T) {
	results, err := parse(strings.NewReader(duckSample))
	require.NoError(t, err)
	var out strings.Builder
	render(&out, summarize(results), []string{"export", "scan", "appender"})
	got := out.String()

	assert.Contains(t, got, `#### BenchmarkQuery

| variant | time/op | ± | B/op | allocs/op | vs export | vs scan |
| :-- | --: | --: | --: | --: | --: | --: |
| mapper | 300 ms | 0% | 234733504 | 52537 | 3.00× | 0.33× |
| hand | 500 ms | 0% | 570930088 | 2371195 | 5.00× | 0.56× |
| export | 100 ms | 0% | 3862984 | 37838 | 1.00× | 0.11× |
| scan | 900 ms | 0% | 761188352 | 10339298 | 9.00× | 1.00× |
`, "no vs hand: vs replaces the default columns")
	assert.Contains(t, got, `#### BenchmarkInsert

| variant | time/op | ± | B/op | allocs/op | vs appender |
| :-- | --: | --: | --: | --: | --: |
| mapper | 250 ms | 0% | 90117336 | 3329 | 0.40× |
| appender | 625 ms | 0% | 74625936 | 5661327 | 1.00× |
`)
	assert.Contains(t, got, "#### top-level benchmarks\n\n| variant | time/op | ± | B/op | allocs/op |\n", "a group with none of them has no ratio column")
}

func TestRatioColumnsWithoutVsAreTheBaselineAndArreflect(t *testing.T) {
	results, err := parse(strings.NewReader(sample + duckSample))
	require.NoError(t, err)
	cols := map[string][]string{}
	for _, g := range summarize(results) {
		cols[g.Name] = g.ratioColumns(nil)
	}
	assert.Equal(t, []string{"fast"}, cols["BenchmarkSlice/i64_1M"])
	assert.Equal(t, []string{"hand", "arreflect"}, cols["BenchmarkDecode/flat"])
	assert.Equal(t, []string{"hand"}, cols["BenchmarkQuery"])
	assert.Empty(t, cols["BenchmarkInsert"])
}

func TestTestArgs(t *testing.T) {
	tests := []struct {
		name string
		cfg  runConfig
		args string
		dir  string
	}{
		{"by default the bench package of the root module", runConfig{count: 5, bench: "."},
			"test -run ^$ -bench . -benchmem -count 5 ./bench/", "."},
		{"with dir the root package of that module, with its tags", runConfig{count: 3, bench: "Query|Insert", benchtime: "2x", dir: "duckdb", tags: "duckdb_arrow"},
			"test -run ^$ -bench Query|Insert -benchmem -count 3 -benchtime 2x -tags duckdb_arrow .", "duckdb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args, dir := tt.cfg.testArgs()
			assert.Equal(t, tt.args, strings.Join(args, " "))
			assert.Equal(t, tt.dir, dir)
		})
	}
}

func TestSplitListDropsEmptyNames(t *testing.T) {
	assert.Equal(t, []string{"export", "scan", "appender"}, splitList(" export,scan,, appender,"))
	assert.Nil(t, splitList(""))
}

// taggedModule is a module of its own in a temporary directory whose one
// benchmark builds only with the tag "benchtag".
func taggedModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module tagged\n\ngo 1.26\n"), 0o644))
	src := "//go:build benchtag\n\npackage tagged\n\nimport \"testing\"\n\n" +
		"func BenchmarkTagged(b *testing.B) {\n\tfor _, v := range []string{\"hand\", \"mine\"} {\n" +
		"\t\tb.Run(v, func(b *testing.B) {\n\t\t\tfor b.Loop() {\n\t\t\t}\n\t\t})\n\t}\n}\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tagged_test.go"), []byte(src), 0o644))
	return dir
}

func TestRunRunsTheBenchmarksOfTheModuleInDirWithItsTags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a module's benchmarks")
	}
	dir := taggedModule(t)
	var out strings.Builder
	require.NoError(t, run(&out, runConfig{count: 2, bench: ".", benchtime: "10x", dir: dir, tags: "benchtag", vs: []string{"mine"}}))
	got := out.String()
	assert.Contains(t, got, "`cd "+dir+" && go test -run '^$' -bench . -benchmem -count 2 -benchtime 10x -tags benchtag .` — medians of 2 runs")
	assert.Contains(t, got, "#### BenchmarkTagged\n\n| variant | time/op | ± | B/op | allocs/op | vs mine |\n")
	assert.Contains(t, got, "| mine | ")

	err := run(&out, runConfig{count: 1, bench: ".", benchtime: "10x", dir: dir})
	assert.Error(t, err, "without its tag the module has no benchmark to build")
}
