package parquet_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arrowmap/arrowmap/internal/testsupport/mutation"
	"github.com/arrowmap/arrowmap/parquet/internal/mutant"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The mutation test's size: mutants, and the children run at once (the
// machine's two cores), each bounded as package mutation bounds it.
const (
	mutants  = 2000
	children = 2
)

func TestDamagedParquetFilesAreErrorsNeverPanicsOutOfMemoryHangsOrShortReads(t *testing.T) {
	if err := mutation.Available(); err != nil {
		t.Skip(err)
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
		require.NoError(t, mutation.Build(bin, pkg))
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
		out, how, detail := mutation.Run(helper, o.Path, o.Kind, "64")
		require.Equal(t, mutation.ReadFine, how, "%s: %s", o.Path, detail)
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

	// Per path: the count of each outcome, and the failures.
	var table mutation.Table
	record := func(j job, path string, o mutation.Outcome, detail string) {
		table.Add(filepath.Base(j.path), fmt.Sprintf("%s, BatchRows %d", j.what, j.batch), path, o, detail)
	}
	work := make(chan job)
	var wg sync.WaitGroup
	for range children {
		wg.Go(func() {
			for j := range work {
				began := time.Now()
				out, o, detail := mutation.Run(helper, j.path, j.kind, strconv.Itoa(j.batch))
				if took := time.Since(began); took > time.Second {
					t.Logf("%s (%s) took %s", filepath.Base(j.path), j.what, took.Round(time.Millisecond))
				}
				if o != mutation.ReadFine {
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
						record(j, "mutant", mutation.Panicked, "unreadable verdict: "+string(out))
					}
					for _, p := range v.Paths {
						switch {
						case p.Panic != "":
							record(j, p.Path, mutation.Panicked, p.Panic)
						case p.Err != "":
							record(j, p.Path, mutation.Errored, p.Err)
						case v.FooterRows < 0 || p.Rows != v.FooterRows:
							record(j, p.Path, mutation.ShortRead, fmt.Sprintf("%d rows read without an error, the footer counts %d", p.Rows, v.FooterRows))
						default:
							record(j, p.Path, mutation.ReadFine, "")
						}
					}
				}
				_, o, detail = mutation.Run(cli, "head", "-n", "1000000", j.path)
				record(j, "arrowmap head", o, detail)
			}
		})
	}
	for _, j := range jobs {
		work <- j
	}
	close(work)
	wg.Wait()

	t.Logf("%d mutants of %d seeds in %s (seed %d):\n%s", count, len(originals), time.Since(start).Round(time.Second), seed, table.Markdown())
	again := fmt.Sprintf("ARROWMAP_MUTATION_SEED=%d reproduces the run", seed)
	library := table.Failures(func(path string) bool { return path != "arrowmap head" })
	command := table.Failures(func(path string) bool { return path == "arrowmap head" })
	assert.Empty(t, library, "mutants that panicked, ended on a fatal signal, ran out of memory, hung or read short in the library: %s", again)
	// The command reads Parquet through this package's OpenRecordsReaderAt,
	// or it is as exposed as pqarrow is.
	assert.Empty(t, command, "mutants that panicked, ended on a fatal signal, ran out of memory or hung in arrowmap head: %s", again)
}
