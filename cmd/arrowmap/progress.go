package main

import (
	"fmt"
	"io"
	"os"
	"time"
)

// progress shows how many rows have been read on standard error, when it
// is a terminal and the read takes long enough to be worth watching.
type progress struct {
	w     io.Writer
	start time.Time
	last  time.Time
	shown bool
}

func newProgress(w io.Writer) *progress {
	if f, ok := w.(*os.File); !ok || !isTerminal(f) {
		return &progress{}
	}
	now := time.Now()
	return &progress{w: w, start: now, last: now}
}

func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

func (p *progress) rows(n int) {
	if p.w == nil {
		return
	}
	now := time.Now()
	if now.Sub(p.start) < time.Second || now.Sub(p.last) < 200*time.Millisecond {
		return
	}
	p.last, p.shown = now, true
	fmt.Fprintf(p.w, "\r%d rows read", n)
}

func (p *progress) done() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
