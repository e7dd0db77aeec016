package main

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// result is one line of `go test -bench` output: one run of one benchmark.
type result struct {
	// Name is the benchmark's full name without the -GOMAXPROCS suffix:
	// "BenchmarkSlice/i64_1M/fast".
	Name string
	// Procs is the GOMAXPROCS suffix, 1 when there is none.
	Procs   int
	Iters   int
	Metrics []metric // in the order of the line
}

// metric is one "value unit" pair of a benchmark line: ns/op, B/op,
// allocs/op, MB/s, or a custom unit from b.ReportMetric.
type metric struct {
	Unit  string
	Value float64
}

// Value is the value of unit in r.
func (r result) Value(unit string) (float64, bool) {
	for _, m := range r.Metrics {
		if m.Unit == unit {
			return m.Value, true
		}
	}
	return 0, false
}

// parse reads the benchmark lines of go test output, skipping everything
// else (headers, PASS, logs).
func parse(in io.Reader) ([]result, error) {
	var out []result
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for sc.Scan() {
		if r, ok := parseLine(sc.Text()); ok {
			out = append(out, r)
		}
	}
	return out, sc.Err()
}

// parseLine parses "BenchmarkX/y-8  1000  12.5 ns/op  0 B/op ...". It
// reports false for any other line.
func parseLine(line string) (result, bool) {
	f := strings.Fields(line)
	if len(f) < 4 || len(f)%2 != 0 || !strings.HasPrefix(f[0], "Benchmark") {
		return result{}, false
	}
	iters, err := strconv.Atoi(f[1])
	if err != nil || iters <= 0 {
		return result{}, false
	}
	r := result{Procs: 1, Iters: iters}
	r.Name, r.Procs = splitProcs(f[0])
	for k := 2; k < len(f); k += 2 {
		v, err := strconv.ParseFloat(f[k], 64)
		if err != nil {
			return result{}, false
		}
		r.Metrics = append(r.Metrics, metric{Unit: f[k+1], Value: v})
	}
	return r, true
}

// splitProcs splits the "-N" that go test appends to a benchmark's name when
// GOMAXPROCS is not 1. As in benchstat, a name that itself ends in "-digits"
// is ambiguous; benchmarks here name sizes with "_" instead.
func splitProcs(name string) (string, int) {
	i := strings.LastIndexByte(name, '-')
	if i < 0 {
		return name, 1
	}
	procs, err := strconv.Atoi(name[i+1:])
	if err != nil || procs <= 0 {
		return name, 1
	}
	return name[:i], procs
}
