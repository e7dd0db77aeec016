package main

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// temporaries are the files the command has made and not yet removed or
// renamed (a file beside OUT, standard input spooled): an interrupt
// removes them before the command exits, as every other way out does.
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
