package flight_test

import (
	"math"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	amflight "github.com/arrowmap/arrowmap/flight"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadAllTakesTotalRecordsOnlyAsAHint: a FlightInfo's TotalRecords
// sizes ReadAll's result once when it is true; a server that sends -1, 0,
// too few or far too many gets every row it sent, exactly once, and a far
// too large count costs no more memory than a bounded multiple of the rows
// that arrived.
func TestReadAllTakesTotalRecordsOnlyAsAHint(t *testing.T) {
	// 6500 rows over two endpoints, the first record 1000 rows: no
	// doubling from 1000 lands on 6500.
	streams := []stream{{sizes: []int{1000, 2000}}, {sizes: []int{1500, 2000}}}
	const total = 6500
	const perReceived = 64 // the most ReadAll trusts a hint past the rows in hand
	cases := []struct {
		name         string
		totalRecords int64
		exact        bool // the result's capacity is its rows
		maxCap       int  // else its capacity is at most this
	}{
		{name: "a true TotalRecords sizes the result once", totalRecords: total, exact: true},
		{name: "TotalRecords -1 (unknown) reads every row, grown as append grows", totalRecords: -1, maxCap: 2 * total},
		{name: "TotalRecords 0 reads every row, grown as append grows", totalRecords: 0, maxCap: 2 * total},
		{name: "TotalRecords too small reads every row", totalRecords: 10, maxCap: 2 * total},
		{name: "TotalRecords far too large costs a bounded multiple of the rows received",
			totalRecords: 1 << 40, maxCap: perReceived * 1000},
		{name: "TotalRecords of the largest int64 does not overflow", totalRecords: math.MaxInt64, maxCap: perReceived * 1000},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			t.Cleanup(func() { mem.AssertSize(t, 0) })
			nodes := startNodes(t, mem, streams)
			info := eventInfo(true, at(0), at(1))
			info.TotalRecords = tc.totalRecords
			src := amflight.Source{Client: nodes[0].client(t)}
			before := settledGoroutines()

			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			allocated := ms.TotalAlloc
			r, err := amflight.Open[event](testContext(t), src, info, mapper.Allocator(mem))
			require.NoError(t, err)
			got, err := r.ReadAll()
			r.Release()
			require.NoError(t, err)
			runtime.ReadMemStats(&ms)
			allocated = ms.TotalAlloc - allocated

			require.Equal(t, wantEvents(streams), got, "every row exactly once, in endpoint order")
			if tc.exact {
				assert.Equal(t, total, cap(got), "one allocation of TotalRecords rows")
			} else {
				assert.LessOrEqual(t, cap(got), tc.maxCap)
			}
			// 64,000 events are 2 MiB: the whole read, gRPC and all, stays
			// far below what a trusted 1<<40 rows would take.
			assert.Less(t, allocated, uint64(64<<20), "the bytes allocated by the read")
			requireGoroutinesBack(t, before)
		})
	}
}

// TestOpenRecordsHintsTheRowsOfTheFlightInfo: OpenRecords hands TotalRecords on as
// it is, for ReadAll to judge.
func TestOpenRecordsHintsTheRowsOfTheFlightInfo(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	nodes := startNodes(t, mem, []stream{{sizes: []int{3}}})
	for _, rows := range []int64{-1, 0, 3, 1 << 40} {
		info := eventInfo(false, at(0))
		info.TotalRecords = rows
		rr, err := amflight.OpenRecords(testContext(t), amflight.Source{Client: nodes[0].client(t)}, info, mapper.Allocator(mem))
		require.NoError(t, err)
		h, ok := rr.(mapper.RowsHinter)
		require.True(t, ok, "OpenRecords is a mapper.RowsHinter")
		assert.Equal(t, rows, h.RowsHint())
		rr.Release()
	}
}
