package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// onTerminal runs the binary with args under a pseudo-terminal, through
// util-linux's script, and returns what the terminal showed.
func onTerminal(t *testing.T, args ...string) string {
	t.Helper()
	if binaryPath == "" {
		t.Skip("the go command is not on PATH: cannot build the arrowmap binary")
	}
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("util-linux's script is not on PATH: no pseudo-terminal to run the command on")
	}
	line := []string{binaryPath}
	for _, a := range args {
		line = append(line, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	out, err := exec.Command(script, "-qfec", strings.Join(line, " "), "/dev/null").CombinedOutput()
	require.NoError(t, err, "%s", out)
	return string(out)
}

// On a terminal, convert ends with a line of what it did; -q silences it;
// on a standard error that is not a terminal it shows nothing (convertOK
// checks that). The sample converts in less than a second: no bar.
func TestConvertShowsProgressOnATerminal(t *testing.T) {
	dir := t.TempDir()
	pq := filepath.Join(dir, "sample.parquet")
	convertOK(t, "sample.arrow", pq)
	t.Run("a line of what it did at the end", func(t *testing.T) {
		shown := onTerminal(t, "convert", pq, filepath.Join(dir, "a.arrow"))
		assert.Contains(t, shown, "converted 3,000 rows, ")
		assert.Contains(t, shown, " rows/s\r\n")
		assert.NotContains(t, shown, "rows/hr")
	})
	t.Run("nothing with -q", func(t *testing.T) {
		shown := onTerminal(t, "convert", "-q", pq, filepath.Join(dir, "c.arrow"))
		assert.Empty(t, strings.TrimSpace(shown))
	})
	t.Run("the file is what it is without a terminal", func(t *testing.T) {
		assert.Equal(t, everyRow(t, pq), everyRow(t, filepath.Join(dir, "a.arrow")))
	})
}

// clock is a time the test moves.
type clock struct{ t time.Time }

func (c *clock) now() time.Time            { return c.t }
func (c *clock) advance(d time.Duration)   { c.t = c.t.Add(d) }
func (c *clock) at(d time.Duration) *clock { c.t = time.Unix(1e9, 0).Add(d); return c }
func newClock() *clock                     { return (&clock{}).at(0) }
func lastFrame(shown string) string {
	frames := strings.Split(shown, "\r")
	for i := len(frames) - 1; i >= 0; i-- {
		if strings.TrimSpace(frames[i]) != "" {
			return frames[i]
		}
	}
	return ""
}

// The line shows, from the first record or the first second, the rows,
// the bytes written, the rate and the time taken (and with the rows in
// all, the percentage, a bar and the time left): never progressbar's "0
// rows/hr". At the end it is cleared and a line says what was done.
func TestProgressShowsRowsAndRateAndEndsWithALine(t *testing.T) {
	t.Run("with the rows in all", func(t *testing.T) {
		var shown bytes.Buffer
		c := newClock()
		p := startProgress(&shown, 600_572, c.now)
		c.advance(500 * time.Millisecond)
		p.draw()
		assert.Empty(t, shown.String(), "nothing before the first second or the first row")

		c.advance(1500 * time.Millisecond)
		p.rows(65_536)
		_, err := p.writer(&bytes.Buffer{}).Write(make([]byte, 10_500_000))
		require.NoError(t, err)
		p.draw()
		line := lastFrame(shown.String())
		assert.Contains(t, line, "10% |")
		assert.Contains(t, line, "65,536 of 600,572 rows, 10.5 MB, 32,768 rows/s, 2s, 16s left")
		assert.NotContains(t, shown.String(), "rows/hr")

		c.advance(2 * time.Second)
		p.rows(600_572 - 65_536)
		_, err = p.writer(&bytes.Buffer{}).Write(make([]byte, 93_300_000))
		require.NoError(t, err)
		p.end(true)
		assert.True(t, strings.HasSuffix(shown.String(), "\rconverted 600,572 rows, 103.8 MB in 4s: 150,143 rows/s\n"), "%q", shown.String())
		p.end(true)
		assert.Equal(t, 1, strings.Count(shown.String(), "converted"), "one line, whatever ends it twice")
	})
	t.Run("without: a count, from the first second", func(t *testing.T) {
		var shown bytes.Buffer
		c := newClock()
		p := startProgress(&shown, -1, c.now)
		c.advance(time.Second)
		p.draw()
		assert.Contains(t, lastFrame(shown.String()), " 0 rows, 0 B, 0 rows/s, 1s ")
		c.advance(3 * time.Second)
		p.rows(1_234_567)
		p.draw()
		line := lastFrame(shown.String())
		assert.Contains(t, line, " 1,234,567 rows, 0 B, 308,641 rows/s, 4s ")
		assert.NotContains(t, line, "%")
		assert.NotContains(t, line, "left")
	})
	t.Run("a failure clears the line and says nothing of it", func(t *testing.T) {
		var shown bytes.Buffer
		c := newClock()
		p := startProgress(&shown, 100, c.now)
		p.rows(10)
		p.draw()
		require.Contains(t, shown.String(), "10 of 100 rows")
		p.end(false)
		assert.Regexp(t, `\r +\r$`, shown.String(), "the line cleared")
		assert.NotContains(t, shown.String(), "converted")
	})
	t.Run("nothing on a writer that is not a terminal", func(t *testing.T) {
		var shown bytes.Buffer
		p := newProgress(&shown, 100, false)
		p.rows(100)
		p.draw()
		p.end(true)
		assert.Empty(t, shown.String())
	})
}

func TestProgressNumbersReadAtAGlance(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{thousands(0), "0"},
		{thousands(999), "999"},
		{thousands(1000), "1,000"},
		{thousands(600_572), "600,572"},
		{thousands(-1_234_567), "-1,234,567"},
		{byteSize(999), "999 B"},
		{byteSize(1000), "1.0 kB"},
		{byteSize(999_960), "1.0 MB"},
		{byteSize(103_786_818), "103.8 MB"},
		{byteSize(2_500_000_000_000), "2.5 TB"},
		{roughly(22_345_678 * time.Nanosecond).String(), "22ms"},
		{roughly(1_934_567_890 * time.Nanosecond).String(), "1.93s"},
		{roughly(185_400 * time.Millisecond).String(), "3m5s"},
	} {
		assert.Equal(t, tc.want, tc.got)
	}
}
