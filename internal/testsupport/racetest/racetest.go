// Package racetest is how a test skips itself under the race detector, so
// that CI runs it again without: a test that measures memory or time (the
// detector bloats and slows both), or one that meets a race in a
// dependency, calls Skip, and .ci/run, whose tests run with -race, runs
// every test that skipped so once more without it.
//
//	func TestWritingHoldsOneRowGroup(t *testing.T) {
//		racetest.Skip(t, "the race detector's allocations make heap bounds meaningless")
//		...
//
// A test that skips under the race detector otherwise (a //go:build race
// constant of its own) is never run in CI: .ci/run refuses such a file.
package racetest

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// Enabled reports whether the test binary was built with the race
// detector.
const Enabled = enabled

// SkippedEnv names the file Skip adds a line to for each test it skips:
// the test's package directory, a tab, and the -run pattern of the test
// alone, which .ci/run runs again without -race. Unset, Skip only skips.
const SkippedEnv = "ARROWMAP_RACE_SKIPPED"

// Skip skips t under the race detector, saying why, and has .ci/run run it
// again without it. Without the race detector it does nothing.
func Skip(t testing.TB, why string) {
	t.Helper()
	skip(t, why, Enabled, os.Getenv(SkippedEnv))
}

func skip(t testing.TB, why string, enabled bool, list string) {
	t.Helper()
	if !enabled {
		return
	}
	if list != "" {
		if err := record(list, t.Name()); err != nil {
			t.Fatalf("racetest: recording the skipped test in %s: %v", list, err)
		}
	}
	t.Skip("skipped under the race detector, run without it: " + why)
}

// record adds the line of the test named name (t.Name()) to the file list.
// Test binaries run in their package's directory, and several at once:
// each line is one write to a file opened for appending.
func record(list, name string) error {
	dir, err := os.Getwd()
	if err != nil {
		return err
	}
	f, err := os.OpenFile(list, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "%s\t%s\n", dir, RunPattern(name))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// RunPattern is the -run pattern that selects the test named name (as
// t.Name() says it, "TestX/sub_test") and no other: each level anchored
// and quoted.
func RunPattern(name string) string {
	levels := strings.Split(name, "/")
	for i, l := range levels {
		levels[i] = "^" + regexp.QuoteMeta(l) + "$"
	}
	return strings.Join(levels, "/")
}
