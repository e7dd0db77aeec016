package racetest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Under the race detector a test skips and says where it is and how to
// run it alone; without, it runs on.
func TestSkipSkipsUnderTheRaceDetectorAndRecordsTheTest(t *testing.T) {
	list := filepath.Join(t.TempDir(), "skipped")
	var ranOn bool
	t.Run("under the race detector (a name)", func(t *testing.T) {
		skip(t, "heap bounds", true, list)
		ranOn = true
	})
	require.False(t, ranOn, "skipped")
	t.Run("without", func(t *testing.T) {
		skip(t, "heap bounds", false, list)
		ranOn = true
	})
	require.True(t, ranOn, "runs on without the race detector")
	data, err := os.ReadFile(list)
	require.NoError(t, err)
	dir, err := os.Getwd()
	require.NoError(t, err)
	require.Equal(t, dir+"\t"+`^TestSkipSkipsUnderTheRaceDetectorAndRecordsTheTest$/^under_the_race_detector_\(a_name\)$`+"\n", string(data))
}

// The pattern of a test selects it and not a test whose name it begins,
// at every level, with the characters regular expressions take for their
// own.
func TestRunPatternSelectsTheTestAlone(t *testing.T) {
	for _, tc := range []struct {
		name, other string
	}{
		{"TestMemory", "TestMemoryTwice"},
		{"TestA/1_000_000_rows", "TestA/1_000_000_rows_again"},
		{"TestA/a_(b)+c*d?", "TestA/a_b+c*d"},
		{"TestA/x/y.z", "TestA/x/yaz"},
	} {
		levels := strings.Split(RunPattern(tc.name), "/")
		match := func(name string) bool {
			parts := strings.Split(name, "/")
			if len(parts) != len(levels) {
				return false
			}
			for i, p := range parts {
				if !regexp.MustCompile(levels[i]).MatchString(p) {
					return false
				}
			}
			return true
		}
		require.True(t, match(tc.name), "%s selects %s", RunPattern(tc.name), tc.name)
		require.False(t, match(tc.other), "%s does not select %s", RunPattern(tc.name), tc.other)
	}
}
