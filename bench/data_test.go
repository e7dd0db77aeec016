package bench

import (
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/testsupport/benchdata"
)

// The benchmarks' rows, shared with the integration module's benchmarks.
type (
	Flat   = benchdata.Flat
	Nested = benchdata.Nested
	Item   = benchdata.Item
)

var (
	flatSchema   = benchdata.FlatSchema
	flatRecord   = func(mem memory.Allocator, n int) arrow.RecordBatch { return benchdata.FlatRecord(mem, 0, n) }
	nestedRecord = benchdata.NestedRecord
)

// records caches the benchmark inputs, built once per process.
var records = struct {
	sync.Mutex
	m map[string]arrow.RecordBatch
}{m: map[string]arrow.RecordBatch{}}

func record(kind string, n int) arrow.RecordBatch {
	records.Lock()
	defer records.Unlock()
	key := fmt.Sprintf("%s/%d", kind, n)
	if rec, ok := records.m[key]; ok {
		return rec
	}
	var rec arrow.RecordBatch
	switch kind {
	case "flat":
		rec = flatRecord(memory.DefaultAllocator, n)
	case "nested":
		rec = nestedRecord(memory.DefaultAllocator, n)
	}
	records.m[key] = rec
	return rec
}
