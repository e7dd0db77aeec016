// Package mutation is what the mutation tests of the readers share (the
// Parquet one, parquet/mutation_test.go, and the IPC one,
// ipc/mutation_test.go): a child process run bounded in memory and time,
// so that a fatal error reading a damaged file ends the child, not the
// test; how it ended; the outcomes counted per read path; and the seed of
// a run, random unless the environment gives one. It is test support:
// nothing of the library imports it.
package mutation

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The bounds of a child: its address space (arrow-go and the Go runtime
// need some hundreds of MiB; a claim of terabytes needs more) and its time.
const (
	ChildMemory  = 2 << 30
	ChildTimeout = 30 * time.Second
)

// Outcome is how one read of a damaged file ended.
type Outcome int

const (
	ReadFine    Outcome = iota // no error, the rows the file states
	Errored                    // an error, no panic
	Panicked                   // a panic escaped: exit 2 and a goroutine trace
	FatalSignal                // a fault the runtime could not turn into a panic: SIGSEGV, SIGBUS…
	OutOfMemory                // fatal out of memory, or killed
	Hung                       // past ChildTimeout
	ShortRead                  // no error, but not the rows the file states
	NumOutcomes
)

var outcomeNames = [NumOutcomes]string{"read fine", "errored", "panicked", "fatal signal", "out of memory", "hung", "read short or long"}

func (o Outcome) String() string { return outcomeNames[o] }

// Failed reports whether o is a failure of the reader: anything but a
// clean read or an error.
func (o Outcome) Failed() bool { return o >= Panicked }

// Available reports whether the children can be bounded: prlimit is
// needed. A test skips, saying why, when it is not.
func Available() error {
	if _, err := exec.LookPath("prlimit"); err != nil {
		return errors.New("prlimit is needed to bound each child's memory")
	}
	return nil
}

// Seed is the seed of a run: ARROWMAP_MUTATION_SEED when set (to
// reproduce a run), else one from the clock, different on every run.
func Seed() (uint64, error) {
	if s := os.Getenv("ARROWMAP_MUTATION_SEED"); s != "" {
		return strconv.ParseUint(s, 10, 64)
	}
	return uint64(time.Now().UnixNano()), nil
}

// Count is the mutants of a run: ARROWMAP_MUTANTS when set, else n.
func Count(n int) (int, error) {
	if s := os.Getenv("ARROWMAP_MUTANTS"); s != "" {
		return strconv.Atoi(s)
	}
	return n, nil
}

// Build builds the package pkg (a path go build takes) into the binary
// bin, without -race: the race runtime needs far more address space than
// ChildMemory.
func Build(bin, pkg string) error {
	out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput()
	if err != nil {
		return fmt.Errorf("go build %s: %w: %s", pkg, err, out)
	}
	return nil
}

// Run runs name with args under prlimit's bound of ChildMemory and
// ChildTimeout, on one P, and tells how it ended: its stdout (what it
// printed before it ended, however it did), the outcome — ReadFine when it
// exited 0, Errored when 1 — and, but for ReadFine, its stderr.
func Run(name string, args ...string) ([]byte, Outcome, string) {
	ctx, cancel := context.WithTimeout(context.Background(), ChildTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "prlimit", append([]string{"--as=" + strconv.Itoa(ChildMemory), "--", name}, args...)...)
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1", "GOTRACEBACK=all")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	msg := stderr.String()
	var exit *exec.ExitError
	out := stdout.Bytes()
	switch {
	case ctx.Err() != nil:
		return out, Hung, msg
	case err == nil:
		return out, ReadFine, ""
	case !errors.As(err, &exit):
		return out, Panicked, err.Error()
	case strings.Contains(msg, "out of memory") || strings.Contains(msg, "cannot allocate memory"):
		return out, OutOfMemory, msg
	case signaled(exit, syscall.SIGKILL):
		return out, OutOfMemory, msg // the kernel's OOM killer
	case signaled(exit, -1) || isFatalSignal(msg):
		return out, FatalSignal, msg
	case exit.ExitCode() == 2 && (strings.Contains(msg, "panic:") || strings.Contains(msg, "goroutine ")):
		return out, Panicked, msg
	case strings.Contains(msg, "fatal error"):
		return out, Panicked, msg
	default:
		return out, Errored, msg
	}
}

// signaled reports whether the child was ended by sig (any signal for
// -1) rather than exiting.
func signaled(exit *exec.ExitError, sig syscall.Signal) bool {
	ws, ok := exit.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && (sig < 0 || ws.Signal() == sig)
}

// isFatalSignal reports whether stderr is the Go runtime's report of a
// fault it could not turn into a panic: a SIGSEGV in assembly or cgo, a
// SIGBUS, an illegal instruction.
func isFatalSignal(stderr string) bool {
	for _, s := range []string{"unexpected signal during runtime execution", "signal SIGSEGV", "signal SIGBUS", "signal SIGILL", "signal SIGFPE"} {
		if strings.Contains(stderr, s) && !strings.Contains(stderr, "panic: runtime error") {
			return true
		}
	}
	return false
}

// Table counts the outcomes of each read path and keeps the failures.
// It is safe for concurrent use.
type Table struct {
	mu       sync.Mutex
	counts   map[string]*[NumOutcomes]int
	failures []string
}

// Add counts outcome o of the read path path of mutant, described by
// what; a failure keeps the first lines of detail.
func (t *Table) Add(mutant, what, path string, o Outcome, detail string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.counts == nil {
		t.counts = map[string]*[NumOutcomes]int{}
	}
	if t.counts[path] == nil {
		t.counts[path] = new([NumOutcomes]int)
	}
	t.counts[path][o]++
	if o.Failed() {
		t.failures = append(t.failures, fmt.Sprintf("%s (%s) %s: %s: %s", mutant, what, path, o, FirstLines(detail, 12)))
	}
}

// Failures is the failures added, sorted, those of paths for which of
// reports true.
func (t *Table) Failures(of func(path string) bool) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for _, f := range t.failures {
		path := f[strings.Index(f, ") ")+2:]
		if of(path[:strings.Index(path, ": ")]) {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// Count is the outcomes o of path.
func (t *Table) Count(path string, o Outcome) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.counts[path] == nil {
		return 0
	}
	return t.counts[path][o]
}

// Markdown is the table of the counts: a row per path, in order of their
// names, a column per outcome.
func (t *Table) Markdown() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	paths := make([]string, 0, len(t.counts))
	for p := range t.counts {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b strings.Builder
	fmt.Fprintf(&b, "| path | %s |\n|---|%s\n", strings.Join(outcomeNames[:], " | "), strings.Repeat("---|", int(NumOutcomes)))
	for _, p := range paths {
		fmt.Fprintf(&b, "| %s |", p)
		for _, n := range t.counts[p] {
			fmt.Fprintf(&b, " %d |", n)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// FirstLines is the first n lines of s.
func FirstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// ReadRows counts the rows r.Read gives, into a buffer of n rows, to
// io.EOF or the first error.
func ReadRows[T any](r interface{ Read([]T) (int, error) }, n int) (int64, error) {
	buf := make([]T, n)
	var rows int64
	for {
		k, err := r.Read(buf)
		rows += int64(k)
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return rows, err
		}
	}
}
