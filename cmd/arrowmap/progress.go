package main

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress shows on standard error, when it is a terminal, the rows read:
// with the percentage of the total and the time left when the input says
// its total (a Parquet footer), else the rows and their rate. Elsewhere,
// and with -q, it shows nothing.
type progress struct {
	bar *progressbar.ProgressBar
}

// newProgress is the progress of reading total rows (-1: not known) to w,
// nothing unless w is a terminal.
func newProgress(w io.Writer, total int64, quiet bool) *progress {
	f, ok := w.(*os.File)
	if quiet || !ok || !term.IsTerminal(int(f.Fd())) {
		return &progress{}
	}
	if total == 0 {
		total = -1 // progressbar takes a 0 maximum for an error
	}
	return &progress{bar: progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("rows"),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("rows"),
		progressbar.OptionSetPredictTime(total > 0),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetRenderBlankState(true),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionFullWidth(),
	)}
}

// rows adds n rows read.
func (p *progress) rows(n int64) {
	if p.bar != nil {
		p.bar.Add64(n)
	}
}

// done clears the bar, whether the read ended or failed.
func (p *progress) done() {
	if p.bar != nil {
		p.bar.Finish() // stops the spinner of an unknown total, and clears the line
		p.bar.Clear()
	}
}
