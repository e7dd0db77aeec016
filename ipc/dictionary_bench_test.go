package ipc_test

import (
	"fmt"
	"io"
	"syscall"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/ipc"
	"github.com/stretchr/testify/require"
)

// growingRecords are records of one dictionary<int32, utf8> column whose
// dictionary grows to distinct values over n records: each record adds
// distinct/n new values, and refers to as many values of the records
// before, as a stream of events refers to users or hosts it has met and a
// few new ones. Each record's own dictionary holds its values in the
// order they first appear in it, as a record encoded from Go values or a
// Parquet row group has.
func growingRecords(mem memory.Allocator, distinct, n int) (*arrow.Schema, []arrow.RecordBatch) {
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{{Name: "user", Type: dt, Nullable: true}}, nil)
	name := func(i int) string { return fmt.Sprintf("user-%08d@example.org", i) }
	perRecord := distinct / n
	recs := make([]arrow.RecordBatch, n)
	for r := range recs {
		// Old values, spread over those met so far, interleaved with the new.
		var users []int
		for k := range perRecord {
			if r > 0 {
				users = append(users, (k*7919+r*104729)%(r*perRecord))
			}
			users = append(users, r*perRecord+k)
		}
		own := map[int]int32{}
		vb := array.NewStringBuilder(mem)
		ib := array.NewInt32Builder(mem)
		for _, u := range users {
			j, ok := own[u]
			if !ok {
				j = int32(len(own))
				own[u] = j
				vb.Append(name(u))
			}
			ib.Append(j)
		}
		dict, idx := vb.NewArray(), ib.NewArray()
		col := array.NewDictionaryArray(dt, idx, dict)
		recs[r] = array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))
		for _, a := range []arrow.Array{col, dict, idx} {
			a.Release()
		}
		vb.Release()
		ib.Release()
	}
	return schema, recs
}

// A stream with dictionary deltas of 100 records whose one dictionary
// grows to 1k, 10k and 100k values: what merging each record's dictionary
// into the values written before costs, with arrow-go's writing of each
// delta.
func BenchmarkStreamWriterDictionaryDeltas(b *testing.B) {
	for _, distinct := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("distinct=%d", distinct), func(b *testing.B) {
			schema, recs := growingRecords(memory.DefaultAllocator, distinct, 100)
			defer func() {
				for _, rec := range recs {
					rec.Release()
				}
			}()
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				w, err := ipc.NewRecordStreamWriter(io.Discard, schema, ipc.WriteConfig{DictionaryDeltas: true})
				require.NoError(b, err)
				for _, rec := range recs {
					require.NoError(b, w.Write(rec))
				}
				require.NoError(b, w.Close())
			}
		})
	}
}

// A stream of 20 records of 64Ki rows over the same 1,000 values, each
// record's dictionary holding them in another order: what mapping each
// record's indices into the dictionary written costs.
func BenchmarkStreamWriterDictionaryTranspose(b *testing.B) {
	const values, rows, n = 1_000, 64 * 1024, 20
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{{Name: "host", Type: dt, Nullable: true}}, nil)
	recs := make([]arrow.RecordBatch, n)
	for r := range recs {
		vb := array.NewStringBuilder(memory.DefaultAllocator)
		for k := range values {
			vb.Append(fmt.Sprintf("host-%06d", (k+r*37)%values))
		}
		ib := array.NewInt32Builder(memory.DefaultAllocator)
		for i := range rows {
			if i%10 == 9 {
				ib.AppendNull()
				continue
			}
			ib.Append(int32((i * 7919) % values))
		}
		dict, idx := vb.NewArray(), ib.NewArray()
		col := array.NewDictionaryArray(dt, idx, dict)
		recs[r] = array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))
		for _, a := range []arrow.Array{col, dict, idx} {
			a.Release()
		}
		vb.Release()
		ib.Release()
	}
	defer func() {
		for _, rec := range recs {
			rec.Release()
		}
	}()
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		w, err := ipc.NewRecordStreamWriter(io.Discard, schema, ipc.WriteConfig{DictionaryDeltas: true})
		require.NoError(b, err)
		for _, rec := range recs {
			require.NoError(b, w.Write(rec))
		}
		require.NoError(b, w.Close())
	}
}

// reportCPU reports, when the returned func is called, the CPU time of the
// process (user and system, every goroutine's) an op since reportCPU:
// on a machine shared with other work, a steadier measure than the time
// that passed.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() { b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op") }
}

func cpuTime() int64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return u.Utime.Nano() + u.Stime.Nano()
}
