package ipc_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arrowmap/arrowmap/internal/testsupport/mutation"
	"github.com/arrowmap/arrowmap/ipc/internal/mutant"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The IPC mutation test's size: mutants of a run, children run at once
// (the machine's two cores), and mutants a child reads one after the
// other (each child starts a Flight server).
const (
	ipcMutants = 2000
	children   = 2
	batchSize  = 8
)

func TestDamagedIPCFilesAndStreamsAreErrorsNeverPanicsOutOfMemoryHangsOrShortReads(t *testing.T) {
	if err := mutation.Available(); err != nil {
		t.Skip(err)
	}
	seed, err := mutation.Seed()
	require.NoError(t, err)
	count, err := mutation.Count(ipcMutants)
	require.NoError(t, err)
	t.Logf("seed %d (ARROWMAP_MUTATION_SEED=%d reproduces the run), %d mutants", seed, seed, count)
	start := time.Now()

	dir := t.TempDir()
	helper, cli := filepath.Join(dir, "mutant"), filepath.Join(dir, "arrowmap")
	require.NoError(t, mutation.Build(helper, "./internal/mutant/cmd/mutant"))
	require.NoError(t, mutation.Build(cli, "../cmd/arrowmap"))
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
		kinds[fmt.Sprintf("%s %s", s.Kind, format(s.File))]++
	}
	require.GreaterOrEqual(t, kinds["records file"], 40, "integration files, and their compressed copies")
	t.Logf("%d seeds: %v", len(originals), kinds)

	// The seeds themselves read fine through every path: what the
	// mutants' errors are told from. They are read batchSize a child, as
	// the mutants are.
	var outs [][]byte
	for i := 0; i < len(originals); i += batchSize {
		var args []string
		for _, o := range originals[i:min(len(originals), i+batchSize)] {
			args = append(args, o.Path, o.Kind)
		}
		out, how, detail := mutation.Run(helper, args...)
		require.Equal(t, mutation.ReadFine, how, "%v: %s", args, detail)
		outs = append(outs, out)
	}
	read := 0
	for line := range strings.Lines(string(bytes.Join(outs, nil))) {
		var v mutant.Verdict
		require.NoError(t, json.Unmarshal([]byte(line), &v))
		require.GreaterOrEqual(t, v.Rows, int64(0), v.File)
		for _, p := range v.Paths {
			require.Empty(t, p.Err, "%s: %s", v.File, p.Path)
			require.Empty(t, p.Panic, "%s: %s", v.File, p.Path)
			require.Equal(t, reference(v, p), p.Rows, "%s: %s", v.File, p.Path)
		}
		read++
	}
	require.Equal(t, len(originals), read, "the verdicts of the seeds")

	type job struct {
		path, kind, what string
	}
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	jobs := make([]job, count)
	for i := range jobs {
		o := originals[i%len(originals)]
		data, what := o.Mutate(rng)
		path := filepath.Join(dir, fmt.Sprintf("m%04d%s", i, filepath.Ext(o.Path)))
		require.NoError(t, os.WriteFile(path, data, 0o644))
		jobs[i] = job{path, o.Kind, filepath.Base(o.Path) + ": " + what}
	}

	var table mutation.Table
	paths := append(slices.Clone(mutant.Paths), mutant.FlightPaths...)
	// tally counts the outcomes of the paths of j's verdict v.
	tally := func(j job, v mutant.Verdict) {
		name := filepath.Base(j.path)
		for _, p := range v.Paths {
			switch {
			case p.Panic != "":
				table.Add(name, j.what, p.Path, mutation.Panicked, p.Panic)
			case p.Err != "":
				table.Add(name, j.what, p.Path, mutation.Errored, p.Err)
			case reference(v, p) < 0 || p.Rows != reference(v, p):
				table.Add(name, j.what, p.Path, mutation.ShortRead,
					fmt.Sprintf("%d rows read without an error, the headers state %d", p.Rows, reference(v, p)))
			default:
				table.Add(name, j.what, p.Path, mutation.ReadFine, "")
			}
		}
	}
	// check reads the mutants of batch in one child, which prints each
	// one's verdict as it is done: when it ends before the last, the first
	// without a verdict is read again alone, in a child whose end is its
	// outcome on every path, and those after it in a child again.
	var check func(batch []job)
	check = func(batch []job) {
		var args []string
		for _, j := range batch {
			args = append(args, j.path, j.kind)
		}
		out, o, detail := mutation.Run(helper, args...)
		verdicts := map[string]mutant.Verdict{}
		for line := range strings.Lines(string(out)) {
			var v mutant.Verdict
			if json.Unmarshal([]byte(line), &v) == nil {
				verdicts[v.File] = v
			}
		}
		for i, j := range batch {
			if v, ok := verdicts[j.path]; ok {
				tally(j, v)
				continue
			}
			if len(batch) > 1 {
				check(batch[i : i+1])
				check(batch[i+1:])
				return
			}
			if o == mutation.ReadFine {
				o, detail = mutation.Panicked, "no verdict: "+string(out)
			}
			for _, p := range paths {
				table.Add(filepath.Base(j.path), j.what, p, o, detail)
			}
		}
	}
	work := make(chan []job)
	var wg sync.WaitGroup
	for range children {
		wg.Go(func() {
			for batch := range work {
				check(batch)
				for _, j := range batch {
					_, o, detail := mutation.Run(cli, "head", "-n", "100000", j.path)
					table.Add(filepath.Base(j.path), j.what, "arrowmap head", o, detail)
				}
			}
		})
	}
	for i := 0; i < len(jobs); i += batchSize {
		work <- jobs[i:min(len(jobs), i+batchSize)]
	}
	close(work)
	wg.Wait()

	t.Logf("%d mutants of %d seeds in %s (seed %d):\n%s", count, len(originals), time.Since(start).Round(time.Second), seed, table.Markdown())
	library := table.Failures(func(path string) bool { return path != "arrowmap head" })
	command := table.Failures(func(path string) bool { return path == "arrowmap head" })
	for _, f := range append(library, command...) {
		t.Log(mutation.FirstLines(f, 3))
	}
	assert.Empty(t, len(library), "mutants that panicked, ended on a fatal signal, ran out of memory, hung or read short in the library (seed %d), logged above", seed)
	assert.Empty(t, len(command), "mutants that panicked, ended on a fatal signal, ran out of memory or hung in arrowmap head (seed %d), logged above", seed)
}

// reference is the rows path p of verdict v must read when it reads
// without an error: the rows of the messages served for Flight, else
// those the headers of the file or stream state.
func reference(v mutant.Verdict, p mutant.Outcome) int64 {
	if p.Served {
		return v.ServedRows
	}
	return v.Rows
}

func format(file bool) string {
	if file {
		return "file"
	}
	return "stream"
}
