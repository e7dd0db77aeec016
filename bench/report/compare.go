package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
)

// compare runs two compiled benchmark binaries (go test -c) in turn,
// rounds times — old, new, old, new… so that a noisy machine weighs on
// both alike — and prints, per benchmark, the median time, memory and
// allocations of each and new/old.
func compare(w io.Writer, oldBin, newBin string, rounds int, bench, benchtime string) error {
	args := []string{"-test.run", "^$", "-test.bench", bench, "-test.benchmem"}
	if benchtime != "" {
		args = append(args, "-test.benchtime", benchtime)
	}
	var outs [2]bytes.Buffer
	for range rounds {
		for i, bin := range []string{oldBin, newBin} {
			cmd := exec.Command(bin, args...)
			cmd.Stdout = io.MultiWriter(&outs[i], os.Stderr)
			cmd.Stderr = os.Stderr
			if err := cmd.Run(); err != nil {
				return fmt.Errorf("%s: %w", bin, err)
			}
		}
	}
	var sides [2]map[string][]result
	for i := range outs {
		results, err := parse(&outs[i])
		if err != nil {
			return err
		}
		sides[i] = map[string][]result{}
		for _, r := range results {
			sides[i][r.Name] = append(sides[i][r.Name], r)
		}
	}
	var names []string
	for name := range sides[1] {
		if _, ok := sides[0][name]; ok {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return fmt.Errorf("no benchmark matched %q in both binaries", bench)
	}
	slices.Sort(names)
	fmt.Fprintf(w, "`%s` and `%s`, each `%s`, %d rounds alternating; medians:\n\n", oldBin, newBin, shellJoin(args), rounds)
	fmt.Fprintln(w, "| benchmark | old | new | new/old | old B/op | new B/op | old allocs | new allocs |")
	fmt.Fprintln(w, "| --- | --: | --: | --: | --: | --: | --: | --: |")
	for _, name := range names {
		med := func(i int, unit string) float64 {
			var xs []float64
			for _, r := range sides[i][name] {
				if v, ok := r.Value(unit); ok {
					xs = append(xs, v)
				}
			}
			return median(xs)
		}
		o, n := med(0, "ns/op"), med(1, "ns/op")
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", strings.TrimPrefix(name, "Benchmark"),
			formatTime(o), formatTime(n), strconv.FormatFloat(n/o, 'f', 2, 64),
			formatCount(med(0, "B/op")), formatCount(med(1, "B/op")),
			formatCount(med(0, "allocs/op")), formatCount(med(1, "allocs/op")))
	}
	return nil
}
