package parquet_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arrowmap/arrowmap/parquet/internal/mutant"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The mutation test's bounds: mutants, the address space and time of each
// child, and the children run at once (the machine's two cores).
const (
	mutants      = 2000
	childMemory  = 2 << 30
	childTimeout = 30 * time.Second
	children     = 2
)

// outcome is how one child ended.
type outcome int

const (
	readFine    outcome = iota // no error, the footer's rows
	errored                    // an error, no panic
	panicked                   // a panic escaped: exit 2 and a goroutine trace
	fatalSignal                // a fault no recover stops (SIGSEGV, SIGBUS in arrow-go's assembly), or death by a signal but SIGKILL
	outOfMemory                // fatal out of memory, or killed
	hung                       // past childTimeout
	shortRead                  // no error, but not the footer's rows
	numOutcomes
)

var outcomeNames = []string{"read fine", "errored", "panicked", "fatal signal", "out of memory", "hung", "read short or long"}

func TestDamagedParquetFilesAreErrorsNeverPanicsOutOfMemoryHangsOrShortReads(t *testing.T) {
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Skip("prlimit is needed to bound each child's memory")
	}
	// A new seed every run, so that every run tries other mutants; the
	// seed printed reproduces a run's.
	seed := rand.Uint64()
	if s := os.Getenv("ARROWMAP_MUTATION_SEED"); s != "" {
		var err error
		seed, err = strconv.ParseUint(s, 10, 64)
		require.NoError(t, err)
	}
	count := mutants
	if s := os.Getenv("ARROWMAP_MUTANTS"); s != "" {
		var err error
		count, err = strconv.Atoi(s)
		require.NoError(t, err)
	}
	t.Logf("seed %d (ARROWMAP_MUTATION_SEED=%d reproduces the run), %d mutants", seed, seed, count)
	start := time.Now()

	dir := t.TempDir()
	helper, cli := filepath.Join(dir, "mutant"), filepath.Join(dir, "arrowmap")
	for bin, pkg := range map[string]string{helper: "./internal/mutant/cmd/mutant", cli: "../cmd/arrowmap"} {
		// Without -race: the race runtime needs far more address space
		// than childMemory.
		out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	seeds, err := mutant.WriteSeeds(dir, filepath.Join("..", "testdata", "arrow-integration", "1.0.0-littleendian"))
	require.NoError(t, err)
	var originals []*mutant.Original
	kinds := map[string]int{}
	for _, s := range seeds {
		data, err := os.ReadFile(s.Path)
		require.NoError(t, err)
		o, err := mutant.Load(s, data)
		require.NoError(t, err, s.Path)
		originals = append(originals, o)
		kinds[s.Kind]++
	}
	require.GreaterOrEqual(t, kinds["records"], 10, "integration files converted")
	t.Logf("%d seeds: %v", len(originals), kinds)

	// The seeds themselves read fine through every path: what the
	// mutants' errors are told from.
	for _, o := range originals {
		out, how, detail := runChild(helper, o.Path, o.Kind, "64")
		require.Equal(t, readFine, how, "%s: %s", o.Path, detail)
		var v mutant.Verdict
		require.NoError(t, json.Unmarshal(out, &v))
		for _, p := range v.Paths {
			require.Empty(t, p.Err, "%s: %s", o.Path, p.Path)
			require.Empty(t, p.Panic, "%s: %s", o.Path, p.Path)
			require.Equal(t, v.FooterRows, p.Rows, "%s: %s", o.Path, p.Path)
		}
	}

	type job struct {
		path, kind, what string
		batch            int // the BatchRows of the paths that take one
	}
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	jobs := make([]job, count)
	for i := range jobs {
		o := originals[i%len(originals)]
		data, what := o.Mutate(rng)
		path := filepath.Join(dir, fmt.Sprintf("m%04d.parquet", i))
		require.NoError(t, os.WriteFile(path, data, 0o644))
		// Records of 8 to 200 rows, in row groups of 100: most join the
		// chunks of two row groups.
		jobs[i] = job{path, o.Kind, filepath.Base(o.Path) + ": " + what, 8 + rng.IntN(193)}
	}

	// Per path: the count of each outcome, and the first few failures.
	var mu sync.Mutex
	counts := map[string]*[numOutcomes]int{}
	var failures []string
	record := func(j job, path string, o outcome, detail string) {
		mu.Lock()
		defer mu.Unlock()
		if counts[path] == nil {
			counts[path] = new([numOutcomes]int)
		}
		counts[path][o]++
		if o >= panicked {
			failures = append(failures, fmt.Sprintf("%s (%s, BatchRows %d) %s: %s: %s", filepath.Base(j.path), j.what, j.batch, path, outcomeNames[o], firstLines(detail, 12)))
		}
	}
	work := make(chan job)
	var wg sync.WaitGroup
	for range children {
		wg.Go(func() {
			for j := range work {
				began := time.Now()
				out, o, detail := runChild(helper, j.path, j.kind, strconv.Itoa(j.batch))
				if took := time.Since(began); took > time.Second {
					t.Logf("%s (%s) took %s", filepath.Base(j.path), j.what, took.Round(time.Millisecond))
				}
				if o != readFine {
					// The path the child was reading when it died, as it
					// said on stderr; the paths after it are not read.
					path := "mutant"
					if k := strings.LastIndex(detail, "mutant: reading "); k >= 0 {
						path, _, _ = strings.Cut(detail[k+len("mutant: reading "):], "\n")
					}
					record(j, path, o, detail)
				} else {
					var v mutant.Verdict
					if err := json.Unmarshal(out, &v); err != nil {
						record(j, "mutant", panicked, "unreadable verdict: "+string(out))
					}
					for _, p := range v.Paths {
						switch {
						case p.Panic != "":
							record(j, p.Path, panicked, p.Panic)
						case p.Err != "":
							record(j, p.Path, errored, p.Err)
						case v.FooterRows < 0 || p.Rows != v.FooterRows:
							record(j, p.Path, shortRead, fmt.Sprintf("%d rows read without an error, the footer counts %d", p.Rows, v.FooterRows))
						default:
							record(j, p.Path, readFine, "")
						}
					}
				}
				_, o, detail = runChild(cli, "head", "-n", "1000000", j.path)
				record(j, "arrowmap head", o, detail)
			}
		})
	}
	for _, j := range jobs {
		work <- j
	}
	close(work)
	wg.Wait()

	var table strings.Builder
	paths := make([]string, 0, len(counts))
	for p := range counts {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	fmt.Fprintf(&table, "| path | %s |\n|---|%s\n", strings.Join(outcomeNames, " | "), strings.Repeat("---|", len(outcomeNames)))
	for _, p := range paths {
		fmt.Fprintf(&table, "| %s |", p)
		for _, n := range counts[p] {
			fmt.Fprintf(&table, " %d |", n)
		}
		table.WriteString("\n")
	}
	t.Logf("%d mutants of %d seeds in %s (seed %d):\n%s", count, len(originals), time.Since(start).Round(time.Second), seed, table.String())
	again := fmt.Sprintf("ARROWMAP_MUTATION_SEED=%d reproduces the run", seed)
	sort.Strings(failures)
	var library, command []string
	for _, f := range failures {
		if strings.Contains(f, ") arrowmap head: ") {
			command = append(command, f)
		} else {
			library = append(library, f)
		}
	}
	assert.Empty(t, library, "mutants that panicked, died of a signal, ran out of memory, hung or read short in the library: %s", again)
	// The command reads Parquet through this package's OpenRecordsReaderAt,
	// or it is as exposed as pqarrow is.
	assert.Empty(t, command, "mutants that panicked, died of a signal, ran out of memory or hung in arrowmap head: %s", again)
}

// runChild runs name with args under prlimit's memory bound and
// childTimeout, and tells how it ended: its stdout when it exited 0 or 1
// (an error), else the outcome and its stderr.
func runChild(name string, args ...string) ([]byte, outcome, string) {
	ctx, cancel := context.WithTimeout(context.Background(), childTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "prlimit", append([]string{"--as=" + strconv.Itoa(childMemory), "--", name}, args...)...)
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1", "GOTRACEBACK=all")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	msg := stderr.String()
	var exit *exec.ExitError
	var signal syscall.Signal = -1 // the signal that ended the child, if one did
	if errors.As(err, &exit) {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			signal = ws.Signal()
		}
	}
	switch {
	case ctx.Err() != nil:
		return nil, hung, msg
	case err == nil:
		return stdout.Bytes(), readFine, ""
	case exit == nil:
		return nil, panicked, err.Error()
	case strings.Contains(msg, "out of memory") || strings.Contains(msg, "cannot allocate memory") || signal == syscall.SIGKILL:
		return nil, outOfMemory, msg
	// A fault no recover stops (in arrow-go's assembly, in cgo) Go's
	// runtime reports as "unexpected fault address" and "fatal error:
	// fault", or "fatal error: unexpected signal"; a nil dereference in Go
	// code is a panic, below.
	case signal >= 0 || strings.Contains(msg, "fatal error: fault") || strings.Contains(msg, "fatal error: unexpected signal") || strings.Contains(msg, "unexpected fault address"):
		if signal >= 0 {
			msg = fmt.Sprintf("killed by %v\n%s", signal, msg)
		}
		return nil, fatalSignal, msg
	case exit.ExitCode() == 2 && (strings.Contains(msg, "panic:") || strings.Contains(msg, "goroutine ")):
		return nil, panicked, msg
	case strings.Contains(msg, "fatal error"):
		return nil, panicked, msg
	default:
		return stdout.Bytes(), errored, msg
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
