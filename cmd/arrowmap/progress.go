package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress shows on standard error, when it is a terminal, the rows
// converted, the bytes written and the rate of rows, with a bar, the
// percentage and the time left when the input says its rows in all (a
// Parquet footer), else a spinner; and when the conversion ends, a line
// of what it did. Elsewhere, and with -q, it shows nothing.
//
// The line is drawn by a goroutine of its own, every tick: a record can
// take seconds (a Parquet row group), and the line shows meanwhile how
// long and how fast. It is drawn from the first record converted or the
// first second, whichever comes first: before, there is no rate to show.
type progress struct {
	bar   *progressbar.ProgressBar // nil: nothing shown
	w     io.Writer
	total int64 // rows in all, -1: not known
	now   func() time.Time
	start time.Time
	done  atomic.Int64 // rows converted
	bytes atomic.Int64 // bytes written
	stop  chan struct{}
	wg    sync.WaitGroup
	ended bool
}

// tick is how often the line is drawn again.
const tick = 250 * time.Millisecond

// newProgress is the progress of converting total rows (-1: not known) to
// w, nothing unless w is a terminal.
func newProgress(w io.Writer, total int64, quiet bool) *progress {
	f, ok := w.(*os.File)
	if quiet || !ok || !term.IsTerminal(int(f.Fd())) {
		return &progress{}
	}
	p := startProgress(w, total, time.Now)
	p.stop = make(chan struct{})
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				p.draw()
			case <-p.stop:
				return
			}
		}
	}()
	return p
}

// startProgress is the progress shown on w, at the times now says, drawn
// by draw: newProgress's, without the terminal and the ticks (the tests'
// seam).
func startProgress(w io.Writer, total int64, now func() time.Time) *progress {
	if total <= 0 {
		total = -1 // progressbar takes a 0 maximum for an error
	}
	return &progress{
		w:     w,
		total: total,
		now:   now,
		start: now(),
		bar: progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(w),
			// The line's text is ours (draw): progressbar's count and rate
			// start at "0 rows/hr", and it draws only when rows are added.
			progressbar.OptionSetElapsedTime(false),
			progressbar.OptionSetPredictTime(false),
			progressbar.OptionSetSpinnerChangeInterval(0),
			progressbar.OptionShowDescriptionAtLineEnd(),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionFullWidth(),
		),
	}
}

// rows adds n rows converted.
func (p *progress) rows(n int64) { p.done.Add(n) }

// writer is w, counting the bytes written to it as the progress's.
func (p *progress) writer(w io.Writer) io.Writer { return &countingWriter{w: w, n: &p.bytes} }

type countingWriter struct {
	w io.Writer
	n *atomic.Int64
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n.Add(int64(n))
	return n, err
}

// draw draws the line again, from the first row or the first second.
func (p *progress) draw() {
	if p.bar == nil {
		return
	}
	rows, elapsed := p.done.Load(), p.now().Sub(p.start)
	if rows == 0 && elapsed < time.Second {
		return
	}
	text := fmt.Sprintf("%s rows", thousands(rows))
	if p.total > 0 {
		text = fmt.Sprintf("%s of %s rows", thousands(rows), thousands(p.total))
	}
	rate := rowRate(rows, elapsed)
	text += fmt.Sprintf(", %s, %s rows/s, %s", byteSize(p.bytes.Load()), thousands(rate), elapsed.Round(time.Second))
	if p.total > 0 && rate > 0 {
		left := time.Duration(float64(max(p.total-rows, 0)) / float64(rate) * float64(time.Second))
		text += fmt.Sprintf(", %s left", left.Round(time.Second))
	}
	if p.total > 0 {
		p.bar.Set64(min(rows, p.total)) // the bar's length, drawn when its percentage changes
	}
	p.bar.Describe(text) // draws the line
}

// end clears the line and, when ok (the conversion done), writes what it
// did: "converted 600,572 rows, 103.8 MB in 1.21s: 496,341 rows/s". It does
// nothing after end.
func (p *progress) end(ok bool) {
	if p.bar == nil || p.ended {
		return
	}
	p.ended = true
	if p.stop != nil {
		close(p.stop)
		p.wg.Wait()
	}
	p.bar.Finish() // stops the spinner of an unknown total, and clears the line
	p.bar.Clear()
	if ok {
		rows, elapsed := p.done.Load(), p.now().Sub(p.start)
		fmt.Fprintf(p.w, "converted %s rows, %s in %s: %s rows/s\n",
			thousands(rows), byteSize(p.bytes.Load()), roughly(elapsed), thousands(rowRate(rows, elapsed)))
	}
}

// roughly is d to three digits or so: 25ms, 1.93s, 12.5s, 3m5s.
func roughly(d time.Duration) time.Duration {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond)
	case d < 10*time.Second:
		return d.Round(10 * time.Millisecond)
	case d < time.Minute:
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}

// rowRate is the rate of n rows in d, per second, 0 in no time.
func rowRate(n int64, d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return int64(float64(n) / d.Seconds())
}

// thousands is n in digits grouped by three: 600,572.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	start := 0
	if n < 0 {
		start = 1
	}
	for i := len(s) - 3; i > start; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// byteSize is n bytes in decimal units, to one decimal: 103.8 MB.
func byteSize(n int64) string {
	if n < 1000 {
		return fmt.Sprintf("%d B", n)
	}
	v, unit := float64(n)/1000, "kB"
	for _, u := range []string{"MB", "GB", "TB", "PB"} {
		if v < 999.95 {
			break
		}
		v, unit = v/1000, u
	}
	return fmt.Sprintf("%.1f %s", v, unit)
}
