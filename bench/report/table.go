package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The units every benchmark line has with -benchmem; other units are custom
// metrics and get a column of their own.
const (
	unitTime   = "ns/op"
	unitBytes  = "B/op"
	unitAllocs = "allocs/op"
)

// group is the variants of one benchmark: the sub-benchmarks that share a
// name up to the last "/", as BenchmarkSlice/i64_1M/{fast,fallback,arrow}.
type group struct {
	Name     string
	Variants []variant
	// Custom is the units other than time, bytes and allocations, in the
	// order they first appear.
	Custom []string
}

// variant is the runs of one benchmark, reduced to medians.
type variant struct {
	Name string
	Runs int
	// Median is the median of each unit over the runs that report it.
	Median map[string]float64
	// Spread is (max-min)/median of ns/op: how far apart the runs are.
	Spread float64
}

// baselines are the variants a group's ratio column is relative to, in order
// of preference: a hand-written loop, else the fast path.
var baselines = []string{"hand", "fast"}

// reference is the variant that gets a second ratio column when present.
const reference = "arreflect"

// splitName splits a benchmark name into its group and variant:
// "BenchmarkSlice/i64_1M/fast" is group "BenchmarkSlice/i64_1M", variant
// "fast". A benchmark without sub-benchmarks is a variant of group "".
func splitName(name string) (string, string) {
	i := strings.LastIndexByte(name, '/')
	if i < 0 {
		return "", name
	}
	return name[:i], name[i+1:]
}

// summarize groups results by benchmark and reduces each variant's runs to
// medians, keeping the order in which groups and variants first appear.
func summarize(results []result) []group {
	var groups []group
	type key struct{ group, variant string }
	runs := map[key][]result{}
	for _, r := range results {
		g, v := splitName(r.Name)
		gi := slices.IndexFunc(groups, func(x group) bool { return x.Name == g })
		if gi < 0 {
			groups = append(groups, group{Name: g})
			gi = len(groups) - 1
		}
		if !slices.ContainsFunc(groups[gi].Variants, func(x variant) bool { return x.Name == v }) {
			groups[gi].Variants = append(groups[gi].Variants, variant{Name: v})
		}
		for _, m := range r.Metrics {
			switch m.Unit {
			case unitTime, unitBytes, unitAllocs:
			default:
				if !slices.Contains(groups[gi].Custom, m.Unit) {
					groups[gi].Custom = append(groups[gi].Custom, m.Unit)
				}
			}
		}
		runs[key{g, v}] = append(runs[key{g, v}], r)
	}
	for gi := range groups {
		g := &groups[gi]
		for vi := range g.Variants {
			v := &g.Variants[vi]
			rs := runs[key{g.Name, v.Name}]
			v.Runs = len(rs)
			v.Median = map[string]float64{}
			units := append([]string{unitTime, unitBytes, unitAllocs}, g.Custom...)
			for _, u := range units {
				var xs []float64
				for _, r := range rs {
					if x, ok := r.Value(u); ok {
						xs = append(xs, x)
					}
				}
				if len(xs) > 0 {
					v.Median[u] = median(xs)
				}
				if u == unitTime && len(xs) > 0 && v.Median[u] > 0 {
					v.Spread = (slices.Max(xs) - slices.Min(xs)) / v.Median[u]
				}
			}
		}
	}
	return groups
}

// median is the middle of xs, or the mean of the two middle values when
// their number is even. xs is not modified.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	mid := len(s) / 2
	if len(s)%2 == 1 {
		return s[mid]
	}
	return (s[mid-1] + s[mid]) / 2
}

// variant is the variant of g named name.
func (g group) variant(name string) (variant, bool) {
	i := slices.IndexFunc(g.Variants, func(v variant) bool { return v.Name == name })
	if i < 0 {
		return variant{}, false
	}
	return g.Variants[i], true
}

// baseline is the variant g's ratios are relative to: "hand" if g has one,
// else "fast"; false when it has neither.
func (g group) baseline() (string, bool) {
	for _, b := range baselines {
		if _, ok := g.variant(b); ok {
			return b, true
		}
	}
	return "", false
}

// ratio is the median time of variant v over that of variant to in g: how
// many times slower v is. False when either has no time.
func (g group) ratio(v variant, to string) (float64, bool) {
	base, ok := g.variant(to)
	if !ok {
		return 0, false
	}
	num, ok1 := v.Median[unitTime]
	den, ok2 := base.Median[unitTime]
	if !ok1 || !ok2 || den <= 0 {
		return 0, false
	}
	return num / den, true
}

// ratioColumns is the variants g's ratio columns are to: those of vs that
// g has, in vs's order; with no vs, g's baseline and the reference, where
// g has them.
func (g group) ratioColumns(vs []string) []string {
	var cols []string
	if len(vs) == 0 {
		if base, ok := g.baseline(); ok {
			cols = append(cols, base)
		}
		vs = []string{reference}
	}
	for _, v := range vs {
		if _, ok := g.variant(v); ok && !slices.Contains(cols, v) {
			cols = append(cols, v)
		}
	}
	return cols
}

// render writes one markdown table per group, with a ratio column to each
// of g.ratioColumns(vs).
func render(w io.Writer, groups []group, vs []string) {
	for i, g := range groups {
		if i > 0 {
			fmt.Fprintln(w)
		}
		name := g.Name
		if name == "" {
			name = "top-level benchmarks"
		}
		fmt.Fprintf(w, "#### %s\n\n", name)

		head := []string{"variant", "time/op", "±", "B/op", "allocs/op"}
		align := []string{":--", "--:", "--:", "--:", "--:"}
		head = append(head, g.Custom...)
		for range g.Custom {
			align = append(align, "--:")
		}
		ratios := g.ratioColumns(vs)
		for _, to := range ratios {
			head = append(head, "vs "+to)
			align = append(align, "--:")
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(head, " | "))
		fmt.Fprintf(w, "| %s |\n", strings.Join(align, " | "))

		for _, v := range g.Variants {
			row := []string{
				v.Name,
				cell(v.Median, unitTime, formatTime),
				fmt.Sprintf("%.0f%%", 100*v.Spread),
				cell(v.Median, unitBytes, formatCount),
				cell(v.Median, unitAllocs, formatCount),
			}
			for _, u := range g.Custom {
				row = append(row, cell(v.Median, u, formatNumber))
			}
			for _, to := range ratios {
				row = append(row, ratioCell(g, v, to))
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
		}
	}
}

func cell(m map[string]float64, unit string, format func(float64) string) string {
	x, ok := m[unit]
	if !ok {
		return "–"
	}
	return format(x)
}

func ratioCell(g group, v variant, to string) string {
	r, ok := g.ratio(v, to)
	if !ok {
		return "–"
	}
	return formatRatio(r)
}

// formatTime is a duration in nanoseconds with three significant digits
// and a unit that keeps the number below 1000: "8.37 ns", "13.1 µs".
func formatTime(ns float64) string {
	units := []string{"ns", "µs", "ms", "s"}
	u := 0
	for ; u < len(units)-1 && math.Abs(ns) >= 999.5; u++ {
		ns /= 1000
	}
	return formatNumber(ns) + " " + units[u]
}

// formatRatio is a ratio with three significant digits and a "×".
func formatRatio(r float64) string { return formatNumber(r) + "×" }

// formatCount is a count such as bytes or allocations: whole numbers print
// without decimals, a median between two runs with one.
func formatCount(x float64) string {
	if x == math.Trunc(x) {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.1f", x)
}

// formatNumber has three significant digits for numbers below 1000 and no
// decimals above: "0.0163", "0.25", "8.37", "18.4", "184", "12345".
func formatNumber(x float64) string {
	switch a := math.Abs(x); {
	case a >= 99.95:
		return fmt.Sprintf("%.0f", x)
	case a >= 9.995:
		return fmt.Sprintf("%.1f", x)
	case a >= 0.09995 || a == 0:
		return fmt.Sprintf("%.2f", x)
	default:
		return strconv.FormatFloat(x, 'g', 3, 64)
	}
}
