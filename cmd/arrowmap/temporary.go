package main

import (
	"os"
	"os/signal"
	"runtime"
	"sync"
	"syscall"
)

// temporaries are the named files the command has made and not yet
// removed or renamed (a file beside OUT, standard input spooled, where the
// system names them): an interrupt removes them before the command exits,
// as every other way out does.
var temporaries struct {
	sync.Mutex
	paths map[string]bool
}

// removeOnInterrupt has path removed if an interrupt ends the command
// before forget is called.
func removeOnInterrupt(path string) (forget func()) {
	temporaries.Lock()
	defer temporaries.Unlock()
	if temporaries.paths == nil {
		temporaries.paths = map[string]bool{}
	}
	temporaries.paths[path] = true
	return func() {
		temporaries.Lock()
		defer temporaries.Unlock()
		delete(temporaries.paths, path)
	}
}

// withoutInterrupts runs f, an interrupt meanwhile taking effect after it:
// for what must not be cut, such as a file named for an instant.
func withoutInterrupts(f func() error) error {
	temporaries.Lock() // what an interrupt takes before it removes and exits
	defer temporaries.Unlock()
	return f()
}

// scratchFile creates a file for the copy of standard input in the
// system's temporary directory ($TMPDIR), which name is the name to remove
// at close: "" where the file has none, so that nothing of it is left
// however the command ends, killed (SIGKILL) or not. It is unnamed where
// the system allows (Linux's O_TMPFILE); elsewhere it is named, and
// removed at once while it stays open, where the system allows that (not
// Windows): a kill then leaves it only between the two calls.
func scratchFile() (f *os.File, name string, err error) {
	if f, err := createUnnamed(os.TempDir()); err == nil {
		return f, "", nil
	}
	f, err = os.CreateTemp("", "arrowmap-input-*")
	if err != nil {
		return nil, "", err
	}
	if runtime.GOOS != "windows" && os.Remove(f.Name()) == nil {
		return f, "", nil
	}
	return f, f.Name(), nil
}

// exitOnInterrupt makes SIGINT and SIGTERM remove the temporaries and end
// the command with status 128 + the signal's number, as a shell reports
// it. stop undoes it.
func exitOnInterrupt() (stop func()) {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-signals:
			temporaries.Lock() // held until exit: no temporary is made after
			for path := range temporaries.paths {
				os.Remove(path)
			}
			os.Exit(128 + int(sig.(syscall.Signal)))
		case <-done:
		}
	}()
	return func() {
		signal.Stop(signals)
		close(done)
	}
}
