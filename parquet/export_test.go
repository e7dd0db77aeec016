package parquet

import (
	"github.com/arrowmap/arrowmap/parquet/internal/pagewriter"

	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/arrowcheck"
	"github.com/arrowmap/arrowmap/internal/forbidden"
)

// Retype is retype, for tests that compare arrays whose types differ only
// in the names of list elements.
var Retype = retype

// Convert is convert, for tests that compare what pqarrow reads (the
// storage types) with the records written.
func Convert(a arrow.Array, to arrow.DataType) (arrow.Array, error) {
	return convert(a, to, memory.DefaultAllocator)
}

// StorageType is storageType: what pqarrow reads a column of T back as.
func StorageType(dt arrow.DataType) arrow.DataType {
	st, _, _ := storageType(dt)
	return st
}

// ThroughPqarrow is cfg writing with pqarrow where the direct writer
// would, when on: the files the direct writer's are compared with.
func ThroughPqarrow(on bool, cfg WriteConfig) WriteConfig {
	if on {
		cfg.Encoder = EncoderPqarrow
	}
	return cfg
}

// WritesDirectly reports whether a Writer of T with cfg writes its column
// chunks itself rather than through pqarrow.
func WritesDirectly[T any](cfg WriteConfig) bool {
	w, err := NewWriter[T](io.Discard, cfg)
	if err != nil {
		panic(err)
	}
	defer w.Close()
	_, ok := w.out.fw.(*pagewriter.File)
	return ok
}

// PageBytes is the size of a data page before compression that a Writer
// aims at.
const PageBytes = defaultPageBytes

// RefuseForbidden is forbidden.Refuse over every column that may hold a
// forbidden value, for its benchmark.
func RefuseForbidden(rec arrow.RecordBatch) error {
	return forbidden.Refuse(rec, arrowcheck.Columns(rec.Schema()), 0)
}

// CorpusEnv names the directory where, when it is set, the package's tests
// save every Parquet file a writer of the package completes: the corpus
// another reader (DuckDB, in the duckdb module's tests) is checked on.
const CorpusEnv = "ARROWMAP_PARQUET_CORPUS"

func init() {
	dir := os.Getenv(CorpusEnv)
	if dir == "" {
		return
	}
	var (
		mu   sync.Mutex
		n    int
		seen = map[uint64]bool{}
	)
	completed = func(file []byte) {
		h := fnv.New64a()
		h.Write(file)
		sum := h.Sum64()
		mu.Lock()
		if seen[sum] {
			mu.Unlock()
			return // the same bytes again: nothing new to read
		}
		seen[sum] = true
		n++
		name := fmt.Sprintf("%05d-%s-%016x.parquet", n, writingTest(), sum)
		mu.Unlock()
		if err := os.WriteFile(filepath.Join(dir, name), file, 0o644); err != nil {
			panic(fmt.Sprintf("saving a Parquet file of the corpus: %v", err))
		}
	}
}

// writingTest is the name of the test, benchmark, fuzz test or example
// whose goroutine closes the writer (a subtest's closure counts as its
// test), or "other" on a goroutine of none.
func writingTest() string {
	pc := make([]uintptr, 64)
	frames := runtime.CallersFrames(pc[:runtime.Callers(2, pc)])
	for {
		f, more := frames.Next()
		name := f.Function[strings.LastIndex(f.Function, "/")+1:]
		if _, fn, ok := strings.Cut(name, "."); ok {
			fn, _, _ = strings.Cut(fn, ".")
			for _, prefix := range []string{"Test", "Fuzz", "Example", "Benchmark"} {
				if strings.HasPrefix(fn, prefix) {
					return fn
				}
			}
		}
		if !more {
			return "other"
		}
	}
}

// ArrowGoLeaves is the Parquet paths of the leaves that a Writer of T with
// cfg writes through arrow-go's column writers inside its own file (nil
// when pqarrow writes the whole file).
func ArrowGoLeaves[T any](cfg WriteConfig) []string {
	w, err := NewWriter[T](io.Discard, cfg)
	if err != nil {
		panic(err)
	}
	defer w.Close()
	d, ok := w.out.fw.(*pagewriter.File)
	if !ok {
		return nil
	}
	return d.ArrowGoLeaves()
}
